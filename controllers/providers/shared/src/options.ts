/**
 * Command-line flags and environment variables of a provider process, so
 * the same entry point runs in a container and as a local process against
 * a local cluster. Flags win over environment variables.
 */
import { DEFAULT_FINALIZER_TIMEOUT_MS, DEFAULT_HEARTBEAT_INTERVAL_MS } from './controller';

export interface ProviderProcessOptions {
  /** Kubeconfig file; in-cluster or $KUBECONFIG/~/.kube/config when absent. */
  kubeconfig?: string;
  metricsPort: number;
  healthPort: number;
  finalizerTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxConcurrentReconciles: number;
  /** Namespace of the leader Lease; leader election is off without it. */
  leaderElectionNamespace?: string;
  logLevel?: string;
}

interface OptionSpec {
  flag: string;
  env: string;
  help: string;
}

const SPECS: Record<keyof ProviderProcessOptions, OptionSpec> = {
  kubeconfig: { flag: '--kubeconfig', env: 'KUBECONFIG', help: 'path to a kubeconfig file' },
  metricsPort: { flag: '--metrics-port', env: 'METRICS_PORT', help: 'port of /metrics (0 picks a free one), default 8080' },
  healthPort: { flag: '--health-port', env: 'HEALTH_PORT', help: 'port of /healthz and /readyz, default 8081' },
  finalizerTimeoutMs: { flag: '--finalizer-timeout', env: 'FINALIZER_TIMEOUT', help: 'how long deletion waits for the upstream resource, e.g. 5m, 30s, default 5m' },
  heartbeatIntervalMs: { flag: '--heartbeat-interval', env: 'HEARTBEAT_INTERVAL', help: 'registration heartbeat period, e.g. 1m, default 1m' },
  maxConcurrentReconciles: { flag: '--max-concurrent-reconciles', env: 'MAX_CONCURRENT_RECONCILES', help: 'parallel reconciles, default 4' },
  leaderElectionNamespace: { flag: '--leader-election-namespace', env: 'LEADER_ELECTION_NAMESPACE', help: 'namespace of the leader Lease; omit to run without leader election' },
  logLevel: { flag: '--log-level', env: 'LOG_LEVEL', help: 'debug, info, warn or error' },
};

/** Usage text listing every flag and its variable. */
export function usage(program: string): string {
  const lines = Object.values(SPECS).map(s => `  ${s.flag} <value>  (env ${s.env})  ${s.help}`);
  return `usage: ${program} [flags]\n${lines.join('\n')}`;
}

/** `90s`, `5m`, `1h`, `250ms` or a bare number of seconds, in milliseconds. */
export function parseDuration(value: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new Error(`${name} "${value}" is not a duration: write e.g. 30s, 5m or 1h`);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * factor);
}

function parseWhole(value: string, name: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new Error(`${name} "${value}" is not valid: use a whole number from ${min} to ${max}`);
  }
  return n;
}

/** Parses flags (`--name value` or `--name=value`) and environment; throws a message naming the bad option. */
export function parseProviderOptions(argv: string[], env: Record<string, string | undefined>): ProviderProcessOptions {
  const raw: Partial<Record<keyof ProviderProcessOptions, string>> = {};
  for (const [key, spec] of Object.entries(SPECS) as Array<[keyof ProviderProcessOptions, OptionSpec]>) {
    if (env[spec.env] !== undefined && env[spec.env] !== '') raw[key] = env[spec.env];
  }
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const entry = (Object.entries(SPECS) as Array<[keyof ProviderProcessOptions, OptionSpec]>).find(([, s]) => s.flag === flag);
    if (!entry) throw new Error(`unknown flag ${argv[i]}: run with --help for the list of flags`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`flag ${flag} needs a value`);
    raw[entry[0]] = value;
  }
  const label = (key: keyof ProviderProcessOptions) => `${SPECS[key].flag} (${SPECS[key].env})`;
  const duration = (key: 'finalizerTimeoutMs' | 'heartbeatIntervalMs', fallback: number) => {
    if (raw[key] === undefined) return fallback;
    const ms = parseDuration(raw[key]!, label(key));
    if (ms <= 0) throw new Error(`${label(key)} must be longer than 0`);
    return ms;
  };
  return {
    kubeconfig: raw.kubeconfig,
    metricsPort: raw.metricsPort === undefined ? 8080 : parseWhole(raw.metricsPort, label('metricsPort'), 0, 65535),
    healthPort: raw.healthPort === undefined ? 8081 : parseWhole(raw.healthPort, label('healthPort'), 0, 65535),
    finalizerTimeoutMs: duration('finalizerTimeoutMs', DEFAULT_FINALIZER_TIMEOUT_MS),
    heartbeatIntervalMs: duration('heartbeatIntervalMs', DEFAULT_HEARTBEAT_INTERVAL_MS),
    maxConcurrentReconciles:
      raw.maxConcurrentReconciles === undefined ? 4 : parseWhole(raw.maxConcurrentReconciles, label('maxConcurrentReconciles'), 1, 64),
    leaderElectionNamespace: raw.leaderElectionNamespace,
    logLevel: raw.logLevel,
  };
}

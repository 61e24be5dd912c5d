/**
 * The core process's settings, from flags (`--name=value` or `--name value`)
 * over environment variables over defaults. Pure: returns the settings or
 * every problem, each naming the flag and how to fix it.
 */

export type WebhookMode = 'service' | 'url' | 'off';

export interface CoreOptions {
  /** Empty: in-cluster config, or $KUBECONFIG / ~/.kube/config via client-node's defaults. */
  kubeconfig?: string;
  /** Namespace of the webhook certificate Secret and the leader Lease. */
  namespace: string;
  metricsPort: number;
  healthPort: number;
  webhookMode: WebhookMode;
  webhookPort: number;
  /** `service`: the Service DNS name the certificate covers; `url`: the host the API server dials. */
  webhookHost: string;
  leaderElect: boolean;
  maxConcurrentReconciles: number;
  logLevel: string;
  /** The Gateway to route through; unset: the labelled one, else the only one. Both or neither. */
  gatewayName?: string;
  gatewayNamespace?: string;
}

interface Setting {
  flag: string;
  env: string;
  help: string;
}

const SETTINGS: Record<keyof CoreOptions, Setting> = {
  kubeconfig: { flag: 'kubeconfig', env: 'KUBECONFIG', help: 'path of a kubeconfig file' },
  namespace: { flag: 'namespace', env: 'POD_NAMESPACE', help: 'namespace of the certificate Secret and leader Lease' },
  metricsPort: { flag: 'metrics-port', env: 'METRICS_PORT', help: 'port of /metrics (0 picks a free one)' },
  healthPort: { flag: 'health-port', env: 'HEALTH_PORT', help: 'port of /healthz and /readyz' },
  webhookMode: { flag: 'webhook-mode', env: 'WEBHOOK_MODE', help: 'service (in a cluster), url (local process) or off' },
  webhookPort: { flag: 'webhook-port', env: 'WEBHOOK_PORT', help: 'port of the webhook server' },
  webhookHost: { flag: 'webhook-host', env: 'WEBHOOK_HOST', help: 'Service DNS name (service mode) or IP/host (url mode)' },
  leaderElect: { flag: 'leader-elect', env: 'LEADER_ELECT', help: 'true to run with leader election' },
  maxConcurrentReconciles: { flag: 'max-concurrent-reconciles', env: 'MAX_CONCURRENT_RECONCILES', help: 'parallel reconciles' },
  logLevel: { flag: 'log-level', env: 'LOG_LEVEL', help: 'debug, info, warn or error' },
  gatewayName: { flag: 'gateway-name', env: 'GATEWAY_NAME', help: 'Gateway to route models through (with --gateway-namespace)' },
  gatewayNamespace: { flag: 'gateway-namespace', env: 'GATEWAY_NAMESPACE', help: 'namespace of --gateway-name' },
};

const DEFAULTS: Record<keyof CoreOptions, string> = {
  kubeconfig: '',
  namespace: 'airunway-system',
  metricsPort: '8080',
  healthPort: '8081',
  webhookMode: 'service',
  webhookPort: '9443',
  webhookHost: '',
  leaderElect: 'false',
  maxConcurrentReconciles: '16',
  logLevel: 'info',
  gatewayName: '',
  gatewayNamespace: '',
};

export function usage(): string {
  return Object.values(SETTINGS)
    .map(s => `  --${s.flag} (env ${s.env}): ${s.help}`)
    .join('\n');
}

export type ParseResult = { ok: true; options: CoreOptions } | { ok: false; errors: string[] };

export function parseOptions(argv: string[], env: Record<string, string | undefined>): ParseResult {
  const errors: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const known = match && Object.values(SETTINGS).some(s => s.flag === match[1]);
    if (!match || !known) {
      errors.push(`unknown argument "${arg}"; the flags are:\n${usage()}`);
      continue;
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined) errors.push(`--${match[1]} needs a value`);
    else flags.set(match[1], value);
  }
  const raw = Object.fromEntries(
    (Object.keys(SETTINGS) as Array<keyof CoreOptions>).map(k => [k, flags.get(SETTINGS[k].flag) ?? env[SETTINGS[k].env] ?? DEFAULTS[k]]),
  ) as Record<keyof CoreOptions, string>;

  const port = (k: keyof CoreOptions) => {
    const n = Number(raw[k]);
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      errors.push(`--${SETTINGS[k].flag} (env ${SETTINGS[k].env}) must be a port number 0-65535, got "${raw[k]}"`);
    }
    return n;
  };
  const options: CoreOptions = {
    kubeconfig: raw.kubeconfig || undefined,
    namespace: raw.namespace,
    metricsPort: port('metricsPort'),
    healthPort: port('healthPort'),
    webhookMode: raw.webhookMode as WebhookMode,
    webhookPort: port('webhookPort'),
    webhookHost: raw.webhookHost,
    leaderElect: raw.leaderElect === 'true',
    maxConcurrentReconciles: Number(raw.maxConcurrentReconciles),
    logLevel: raw.logLevel,
    gatewayName: raw.gatewayName || undefined,
    gatewayNamespace: raw.gatewayNamespace || undefined,
  };
  if (!['service', 'url', 'off'].includes(raw.webhookMode)) {
    errors.push(`--webhook-mode (env WEBHOOK_MODE) must be service, url or off, got "${raw.webhookMode}"`);
  }
  if (!['true', 'false'].includes(raw.leaderElect)) {
    errors.push(`--leader-elect (env LEADER_ELECT) must be true or false, got "${raw.leaderElect}"`);
  }
  if (!Number.isInteger(options.maxConcurrentReconciles) || options.maxConcurrentReconciles < 1) {
    errors.push(`--max-concurrent-reconciles must be a whole number of at least 1, got "${raw.maxConcurrentReconciles}"`);
  }
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.namespace)) {
    errors.push(`--namespace (env POD_NAMESPACE) must be a namespace name, got "${options.namespace}"`);
  }
  if (Boolean(options.gatewayName) !== Boolean(options.gatewayNamespace)) {
    errors.push('--gateway-name and --gateway-namespace (env GATEWAY_NAME, GATEWAY_NAMESPACE) go together: set both to pin the Gateway, or neither to use the labelled (or only) one');
  }
  for (const k of ['gatewayName', 'gatewayNamespace'] as const) {
    const v = options[k];
    if (v && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(v)) errors.push(`--${SETTINGS[k].flag} (env ${SETTINGS[k].env}) must be a Kubernetes object name, got "${v}"`);
  }
  if (options.webhookMode === 'url' && !options.webhookHost) options.webhookHost = '127.0.0.1';
  if (options.webhookMode === 'service' && !options.webhookHost) {
    options.webhookHost = `airunway-core-webhook.${options.namespace}.svc`;
  }
  if (options.webhookMode === 'url' && options.webhookPort === 0) {
    errors.push('--webhook-port must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>');
  }
  return errors.length ? { ok: false, errors } : { ok: true, options };
}

/**
 * Command-line flags and environment variables of a provider process, so
 * the same entry point runs in a container and as a local process against
 * a local cluster. Parsed by controller-runtime's `parseProcessOptions`:
 * flags win over environment variables, which win over the defaults.
 */
import {
  MANAGER_OPTIONS,
  optionParsers as p,
  type OptionSpecs,
  type OptionsResult,
  type ParsedOptions,
  parseProcessOptions,
} from '@runway-portal/controller-runtime';
import {
  DEFAULT_FINALIZER_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_PROVIDER_WORKERS,
} from './controller';
import type { ProviderDefinition } from './definition';

/** @public */
export const PROVIDER_OPTIONS = {
  ...MANAGER_OPTIONS,
  finalizerTimeoutMs: {
    flag: 'finalizer-timeout',
    env: 'FINALIZER_TIMEOUT',
    help: 'how long deletion waits for the upstream resource, e.g. 5m, 30s',
    default: `${DEFAULT_FINALIZER_TIMEOUT_MS / 60_000}m`,
    parse: p.duration,
  },
  heartbeatIntervalMs: {
    flag: 'heartbeat-interval',
    env: 'HEARTBEAT_INTERVAL',
    help: 'registration heartbeat period, e.g. 1m',
    default: `${DEFAULT_HEARTBEAT_INTERVAL_MS / 60_000}m`,
    parse: p.duration,
  },
  maxConcurrentReconciles: {
    flag: 'max-concurrent-reconciles',
    env: 'MAX_CONCURRENT_RECONCILES',
    help: 'parallel reconciles',
    // The definition may have its own (providerOptions); a reconcile mostly waits on the API server.
    default: String(DEFAULT_PROVIDER_WORKERS),
    parse: p.wholeNumber(1, 64),
  },
  /** Unset: leader election is off. */
  leaderElectionNamespace: {
    flag: 'leader-election-namespace',
    env: 'LEADER_ELECTION_NAMESPACE',
    help: 'namespace of the leader Lease; omit to run without leader election',
    parse: p.namespaceName,
  },
} satisfies OptionSpecs;

/** @public */
export type ProviderProcessOptions = ParsedOptions<typeof PROVIDER_OPTIONS>;

/** One provider's flags: the table with its own default for parallel reconciles (so `--help` shows it). @public */
export function providerOptions(
  definition: Pick<ProviderDefinition, 'maxConcurrentReconciles'> = {},
): typeof PROVIDER_OPTIONS {
  const workers = definition.maxConcurrentReconciles;
  if (workers === undefined) return PROVIDER_OPTIONS;
  return {
    ...PROVIDER_OPTIONS,
    maxConcurrentReconciles: {
      ...PROVIDER_OPTIONS.maxConcurrentReconciles,
      default: String(workers),
    },
  };
}

/** The settings, or every problem, each naming the flag, its variable and the fix. @public */
export function parseProviderOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  definition: Pick<ProviderDefinition, 'maxConcurrentReconciles'> = {},
): OptionsResult<ProviderProcessOptions> {
  return parseProcessOptions(providerOptions(definition), argv, env);
}

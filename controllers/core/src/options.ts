/**
 * The core process's settings: the generic flag/environment parse of
 * controller-runtime, then the checks that span several flags. Pure:
 * returns the settings or every problem, each naming the flag and how to
 * fix it.
 */
import {
  MANAGER_OPTIONS,
  optionLabel,
  optionParsers as p,
  type OptionSpecs,
  type OptionsResult,
  type ParsedOptions,
  parseProcessOptions,
  usage,
} from '@runway-portal/controller-runtime';
import { DEFAULT_FINALIZER_TIMEOUT_MS } from './deletion';
import { DEFAULT_HEARTBEAT_TIMEOUT_MS } from './liveness';

export const CORE_PROGRAM = 'airunway-core';

export const CORE_OPTIONS = {
  ...MANAGER_OPTIONS,
  /** Namespace of the webhook certificate Secret and the leader Lease. */
  namespace: {
    flag: 'namespace',
    env: 'POD_NAMESPACE',
    help: 'namespace of the certificate Secret and leader Lease',
    default: 'airunway-system',
    parse: p.namespaceName,
  },
  webhookMode: {
    flag: 'webhook-mode',
    env: 'WEBHOOK_MODE',
    help: 'service (in a cluster), url (local process) or off',
    default: 'service',
    parse: p.oneOf(['service', 'url', 'off']),
  },
  webhookPort: {
    flag: 'webhook-port',
    env: 'WEBHOOK_PORT',
    help: 'port of the webhook server',
    default: '9443',
    parse: p.port,
  },
  /** `service`: the Service DNS name the certificate covers; `url`: the host the API server dials. Defaulted per mode below. */
  webhookHost: {
    flag: 'webhook-host',
    env: 'WEBHOOK_HOST',
    help: 'Service DNS name (service mode, default airunway-core-webhook.<namespace>.svc) or IP/host (url mode, default 127.0.0.1)',
    parse: p.string,
  },
  leaderElect: {
    flag: 'leader-elect',
    env: 'LEADER_ELECT',
    help: 'true to run with leader election',
    default: 'false',
    parse: p.boolean,
  },
  maxConcurrentReconciles: {
    flag: 'max-concurrent-reconciles',
    env: 'MAX_CONCURRENT_RECONCILES',
    help: 'parallel reconciles',
    default: '16',
    parse: p.wholeNumber(1),
  },
  /** false: no SecretNotFound check, so the ClusterRole's cluster-wide `secrets: get` can be dropped. */
  checkSecrets: {
    flag: 'check-secrets',
    env: 'CHECK_SECRETS',
    help: 'false to skip the existence check of spec.secrets.huggingFaceToken (no SecretNotFound events; needs no secrets get)',
    default: 'true',
    parse: p.boolean,
  },
  /** How long a deletion waits for a provider that is not running before the core removes its finalizer. */
  finalizerTimeoutMs: {
    flag: 'finalizer-timeout',
    env: 'FINALIZER_TIMEOUT',
    help: "how long a deletion waits for a provider that is not running before the core removes the provider's finalizer, e.g. 5m",
    default: `${DEFAULT_FINALIZER_TIMEOUT_MS / 60_000}m`,
    parse: p.duration,
  },
  /** A provider whose heartbeat is older than this counts as not running. */
  providerHeartbeatTimeoutMs: {
    flag: 'provider-heartbeat-timeout',
    env: 'PROVIDER_HEARTBEAT_TIMEOUT',
    help: 'a provider whose status.lastHeartbeat is older than this is not running (providers beat every minute), e.g. 3m',
    default: `${DEFAULT_HEARTBEAT_TIMEOUT_MS / 60_000}m`,
    parse: p.duration,
  },
  /** The Gateway to route through; unset: the labelled one, else the only one. Both or neither. */
  gatewayName: {
    flag: 'gateway-name',
    env: 'GATEWAY_NAME',
    help: 'Gateway to route models through (with --gateway-namespace)',
    parse: p.k8sName,
  },
  gatewayNamespace: {
    flag: 'gateway-namespace',
    env: 'GATEWAY_NAMESPACE',
    help: 'namespace of --gateway-name',
    parse: p.namespaceName,
  },
} satisfies OptionSpecs;

/** After the per-flag parse, so it knows the webhook mode: `webhookHost` is always set. */
export type CoreOptions = Omit<
  ParsedOptions<typeof CORE_OPTIONS>,
  'webhookHost'
> & { webhookHost: string };

export type WebhookMode = CoreOptions['webhookMode'];

export function coreUsage(): string {
  return usage(CORE_PROGRAM, CORE_OPTIONS);
}

/** The cross-flag checks run once every flag is valid on its own. */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
): OptionsResult<CoreOptions> {
  const parsed = parseProcessOptions(CORE_OPTIONS, argv, env);
  if (!parsed.ok) return parsed;
  const o = parsed.options;
  const errors: string[] = [];
  if (Boolean(o.gatewayName) !== Boolean(o.gatewayNamespace)) {
    errors.push(
      `${optionLabel(CORE_OPTIONS.gatewayName)} and ${optionLabel(
        CORE_OPTIONS.gatewayNamespace,
      )} go together: set both to pin the Gateway, or neither to use the labelled (or only) one`,
    );
  }
  if (o.webhookMode === 'url' && o.webhookPort === 0) {
    errors.push(
      `${optionLabel(
        CORE_OPTIONS.webhookPort,
      )} must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0`,
    );
  }
  const defaultHost =
    o.webhookMode === 'url'
      ? '127.0.0.1'
      : `airunway-core-webhook.${o.namespace}.svc`;
  return errors.length
    ? { ok: false, errors }
    : {
        ok: true,
        options: { ...o, webhookHost: o.webhookHost ?? defaultHost },
      };
}

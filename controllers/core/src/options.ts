/**
 * The core process's settings: the generic flag/environment parse of
 * controller-runtime, then the checks that span several flags. Pure:
 * returns the settings or every problem, each naming the flag and how to
 * fix it.
 */
import {
  optionLabel,
  optionParsers as p,
  type OptionSpecs,
  type SettingsOf,
  webhookProcessOptions,
} from '@runway-portal/controller-runtime';
import { DEFAULT_FINALIZER_TIMEOUT_MS } from './deletion';
import { DEFAULT_HEARTBEAT_TIMEOUT_MS } from './liveness';

export const CORE_PROGRAM = 'airunway-core';

/** The core's own flags, after the ones every webhook Manager process has. */
const CORE_FLAGS = {
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

/** Its flags and their parse; the check across flags: the Gateway flags go as a pair. */
export const CORE_PROCESS = webhookProcessOptions(CORE_PROGRAM, CORE_FLAGS, {
  finish: o =>
    Boolean(o.gatewayName) === Boolean(o.gatewayNamespace)
      ? { ok: true, options: o }
      : {
          ok: false,
          errors: [
            `${optionLabel(CORE_FLAGS.gatewayName)} and ${optionLabel(
              CORE_FLAGS.gatewayNamespace,
            )} go together: set both to pin the Gateway, or neither to use the labelled (or only) one`,
          ],
        },
});

export const CORE_OPTIONS = CORE_PROCESS.specs;

/** After the per-flag parse, so it knows the webhook mode: `webhookHost` is always set. */
export type CoreOptions = SettingsOf<typeof CORE_PROCESS>;

export type WebhookMode = CoreOptions['webhookMode'];

/** Every problem at once, each naming the flag and the fix. */
export const parseOptions = CORE_PROCESS.parse;

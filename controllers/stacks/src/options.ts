/**
 * The stack operator's settings: controller-runtime's flag/environment
 * parse, then the checks across flags. Pure: the settings, or every problem,
 * each naming the flag and how to fix it.
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
import { parseImageOverrides } from './config/distributions';
import { REGISTRY_OPTIONS } from './registryOptions';

export const STACKS_PROGRAM = 'airunway-stacks';

export const STACKS_OPTIONS = {
  ...MANAGER_OPTIONS,
  namespace: {
    flag: 'namespace',
    env: 'POD_NAMESPACE',
    help: 'namespace of the webhook certificate Secret and leader Lease',
    default: 'airunway-system',
    parse: p.namespaceName,
  },
  webhookMode: {
    flag: 'webhook-mode',
    env: 'WEBHOOK_MODE',
    help: 'service (in a cluster), url (local process: registers the webhooks with https://<webhook-host>:<port>) or off',
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
  webhookHost: {
    flag: 'webhook-host',
    env: 'WEBHOOK_HOST',
    help: 'Service DNS name (service mode, default airunway-stacks-webhook.<namespace>.svc) or IP/host (url mode, default 127.0.0.1)',
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
    default: '8',
    parse: p.wholeNumber(1),
  },
  /** The operator ConfigMap's `image-overrides` (FR-020), passed as env so the operator needs no ConfigMap read for it. */
  imageOverrides: {
    flag: 'image-overrides',
    env: 'IMAGE_OVERRIDES',
    help: 'distribution images to use instead of the embedded ones: "name: image" per line or comma-separated',
    parse: p.string,
  },
  ingressDomain: {
    flag: 'ingress-domain',
    env: 'INGRESS_DOMAIN',
    help: 'domain of generated Ingress hostnames (<name>-<namespace>.<domain>) for networking.expose without hostname',
    parse: p.string,
  },
  ingressClass: {
    flag: 'ingress-class',
    env: 'INGRESS_CLASS',
    help: 'ingressClassName of exposed stacks',
    parse: p.string,
  },
  recheckInterval: {
    flag: 'recheck-interval',
    env: 'RECHECK_INTERVAL',
    help: 'how often each stack is checked again (referenced Secrets are not watched)',
    default: '60s',
    parse: p.duration,
  },
  ...REGISTRY_OPTIONS,
} satisfies OptionSpecs;

export type StacksOptions = Omit<
  ParsedOptions<typeof STACKS_OPTIONS>,
  'webhookHost' | 'imageOverrides'
> & {
  webhookHost: string;
  imageOverrides: Record<string, string>;
};

export function stacksUsage(): string {
  return usage(STACKS_PROGRAM, STACKS_OPTIONS);
}

export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
): OptionsResult<StacksOptions> {
  const parsed = parseProcessOptions(STACKS_OPTIONS, argv, env);
  if (!parsed.ok) return parsed;
  const o = parsed.options;
  const errors: string[] = [];
  if (o.webhookMode === 'url' && o.webhookPort === 0) {
    errors.push(
      `${optionLabel(
        STACKS_OPTIONS.webhookPort,
      )} must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0`,
    );
  }
  const overrides = parseImageOverrides(o.imageOverrides);
  if ('error' in overrides)
    errors.push(
      `${optionLabel(STACKS_OPTIONS.imageOverrides)}: ${overrides.error}`,
    );
  const defaultHost =
    o.webhookMode === 'url'
      ? '127.0.0.1'
      : `airunway-stacks-webhook.${o.namespace}.svc`;
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    options: {
      ...o,
      webhookHost: o.webhookHost ?? defaultHost,
      imageOverrides: 'overrides' in overrides ? overrides.overrides : {},
    },
  };
}

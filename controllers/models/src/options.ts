/**
 * The model operator's settings: controller-runtime's flag/environment
 * parse, then the checks that span several flags. Pure.
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
import { DEFAULT_DOWNLOADER_IMAGE } from './resources';

export const MODELS_PROGRAM = 'airunway-models';

export const MODELS_OPTIONS = {
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
  webhookHost: {
    flag: 'webhook-host',
    env: 'WEBHOOK_HOST',
    help: 'Service DNS name (service mode, default airunway-models-webhook.<namespace>.svc) or IP/host (url mode, default 127.0.0.1)',
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
  downloaderImage: {
    flag: 'downloader-image',
    env: 'DOWNLOADER_IMAGE',
    help: 'image of the download Jobs (built from src/downloader/Dockerfile)',
    default: DEFAULT_DOWNLOADER_IMAGE,
    parse: p.string,
  },
} satisfies OptionSpecs;

export type ModelsOptions = Omit<
  ParsedOptions<typeof MODELS_OPTIONS>,
  'webhookHost'
> & { webhookHost: string };

export function modelsUsage(): string {
  return usage(MODELS_PROGRAM, MODELS_OPTIONS);
}

export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
): OptionsResult<ModelsOptions> {
  const parsed = parseProcessOptions(MODELS_OPTIONS, argv, env);
  if (!parsed.ok) return parsed;
  const o = parsed.options;
  if (o.webhookMode === 'url' && o.webhookPort === 0) {
    return {
      ok: false,
      errors: [
        `${optionLabel(
          MODELS_OPTIONS.webhookPort,
        )} must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0`,
      ],
    };
  }
  const defaultHost =
    o.webhookMode === 'url'
      ? '127.0.0.1'
      : `airunway-models-webhook.${o.namespace}.svc`;
  return {
    ok: true,
    options: { ...o, webhookHost: o.webhookHost ?? defaultHost },
  };
}

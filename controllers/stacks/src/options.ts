/**
 * The stack operator's settings: controller-runtime's flag/environment
 * parse, then the checks across flags. Pure: the settings, or every problem,
 * each naming the flag and how to fix it.
 */
import {
  optionLabel,
  optionParsers as p,
  type OptionSpecs,
  type OptionsResult,
  webhookProcessOptions,
  type WebhookProcessSettings,
} from '@runway-portal/controller-runtime';
import { parseImageOverrides } from './config/distributions';
import { REGISTRY_OPTIONS } from './registryOptions';

export const STACKS_PROGRAM = 'airunway-stacks';

/** The stack operator's own flags, after the ones every webhook Manager process has. */
const STACKS_FLAGS = {
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
  WebhookProcessSettings<typeof STACKS_FLAGS>,
  'imageOverrides'
> & { imageOverrides: Record<string, string> };

/** Its flags and their parse; the image overrides are parsed into a map. */
export const STACKS_PROCESS = webhookProcessOptions(
  STACKS_PROGRAM,
  STACKS_FLAGS,
  {
    maxConcurrentReconciles: '8',
    finish: (o): OptionsResult<StacksOptions> => {
      const overrides = parseImageOverrides(o.imageOverrides);
      return 'error' in overrides
        ? {
            ok: false,
            errors: [
              `${optionLabel(STACKS_FLAGS.imageOverrides)}: ${overrides.error}`,
            ],
          }
        : {
            ok: true,
            options: { ...o, imageOverrides: overrides.overrides },
          };
    },
  },
);

export const STACKS_OPTIONS = STACKS_PROCESS.specs;

export const parseOptions = STACKS_PROCESS.parse;

/**
 * The model operator's settings: controller-runtime's flag/environment
 * parse with the flags and checks every webhook Manager shares, plus the
 * downloader image. Pure.
 */
import {
  optionParsers as p,
  type OptionSpecs,
  type OptionsResult,
  type ParsedOptions,
  parseWebhookManagerOptions,
  usage,
  webhookManagerOptions,
  type WithWebhookHost,
} from '@runway-portal/controller-runtime';
import { DEFAULT_DOWNLOADER_IMAGE } from './resources';

export const MODELS_PROGRAM = 'airunway-models';

export const MODELS_OPTIONS = {
  ...webhookManagerOptions(MODELS_PROGRAM),
  downloaderImage: {
    flag: 'downloader-image',
    env: 'DOWNLOADER_IMAGE',
    help: 'image of the download Jobs (built from src/downloader/Dockerfile)',
    default: DEFAULT_DOWNLOADER_IMAGE,
    parse: p.string,
  },
} satisfies OptionSpecs;

export type ModelsOptions = WithWebhookHost<
  ParsedOptions<typeof MODELS_OPTIONS>
>;

export function modelsUsage(): string {
  return usage(MODELS_PROGRAM, MODELS_OPTIONS);
}

export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
): OptionsResult<ModelsOptions> {
  return parseWebhookManagerOptions(MODELS_PROGRAM, MODELS_OPTIONS, argv, env);
}

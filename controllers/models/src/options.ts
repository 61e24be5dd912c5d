/**
 * The model operator's settings: controller-runtime's flag/environment
 * parse with the flags and checks every webhook Manager shares, plus the
 * downloader image. Pure.
 */
import {
  optionParsers as p,
  type SettingsOf,
  webhookProcessOptions,
} from '@runway-portal/controller-runtime';
import { DEFAULT_DOWNLOADER_IMAGE } from './resources';

export const MODELS_PROGRAM = 'airunway-models';

/** The shared webhook Manager flags and the downloader image. */
export const MODELS_PROCESS = webhookProcessOptions(MODELS_PROGRAM, {
  downloaderImage: {
    flag: 'downloader-image',
    env: 'DOWNLOADER_IMAGE',
    help: 'image of the download Jobs (built from src/downloader/Dockerfile)',
    default: DEFAULT_DOWNLOADER_IMAGE,
    parse: p.string,
  },
});

export const MODELS_OPTIONS = MODELS_PROCESS.specs;

export type ModelsOptions = SettingsOf<typeof MODELS_PROCESS>;

export const parseOptions = MODELS_PROCESS.parse;

/**
 * The stack operator's registry settings, for reading distribution images'
 * config labels (seed 004 phase 2): spread into `STACKS_OPTIONS`. Pure.
 */
import {
  optionParsers as p,
  type OptionParser,
  type OptionSpecs,
} from '@runway-portal/controller-runtime';
import type { ImageConfigsOptions } from './oci/imageConfigs';

const HOST_PORT =
  /^(?:\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?)(?::\d{1,5})?$/;

/** A comma-separated list of `host[:port]`. */
const hostList: OptionParser<string[]> = (raw, label) => {
  const hosts = raw
    .split(',')
    .map(h => h.trim())
    .filter(Boolean);
  const bad = hosts.find(h => !HOST_PORT.test(h));
  if (bad)
    throw new Error(
      `${label} "${bad}" is not host[:port]: write e.g. 127.0.0.1:5000,registry.local:5000`,
    );
  return hosts;
};

export const REGISTRY_OPTIONS = {
  imageConfigLabels: {
    flag: 'image-config-labels',
    env: 'IMAGE_CONFIG_LABELS',
    help: "true to read distribution images' io.llamastack.config.* labels from their registry (base config precedence over the embedded one); false: embedded configs only, no registry requests",
    default: 'true',
    parse: p.boolean,
  },
  insecureRegistries: {
    flag: 'insecure-registries',
    env: 'INSECURE_REGISTRIES',
    help: 'registries (host:port, comma-separated) whose config labels are read over plain HTTP instead of HTTPS (local test registries)',
    parse: hostList,
  },
  registryTimeout: {
    flag: 'registry-timeout',
    env: 'REGISTRY_TIMEOUT',
    help: "deadline of one read of an image's config labels (manifests, config blob, layer)",
    default: '10s',
    parse: p.duration,
  },
} satisfies OptionSpecs;

/** The ImageConfigs settings from the parsed options; undefined when label reading is off. */
export function imageConfigsOptions(options: {
  imageConfigLabels: boolean;
  insecureRegistries?: string[];
  registryTimeout: number;
}): ImageConfigsOptions | undefined {
  if (!options.imageConfigLabels) return undefined;
  return {
    registry: {
      insecureRegistries: options.insecureRegistries ?? [],
      timeoutMs: options.registryTimeout,
    },
  };
}

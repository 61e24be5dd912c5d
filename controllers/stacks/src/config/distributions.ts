/**
 * The embedded distribution registry (FR-020, FR-027a, FR-027d): which image a
 * `distribution.name` resolves to, and the base config.yaml that goes with it.
 * Both ship inside this package (`distributions/`), versioned together, so an
 * operator release always pairs an image with the config written for it; the
 * operator ConfigMap's `image-overrides` may point a name at a mirror
 * (air-gapped clusters, FR-027e) and the embedded config is still used.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** @public */
export interface DistributionRegistry {
  /** Distribution name → image reference. */
  images: Readonly<Record<string, string>>;
  /** Distribution name → base config.yaml text. */
  configs: Readonly<Record<string, string>>;
}

/** The package's `distributions/` folder, found from package.json so it works from src and dist alike. */
function distributionsDir(): string {
  return join(
    dirname(require.resolve('@runway-portal/controller-stacks/package.json')),
    'distributions',
  );
}

let embedded: DistributionRegistry | undefined;

/** The registry shipped with this operator release (read once). @public */
export function embeddedDistributions(): DistributionRegistry {
  if (embedded) return embedded;
  const dir = distributionsDir();
  const images = JSON.parse(
    readFileSync(join(dir, 'distributions.json'), 'utf8'),
  ) as Record<string, string>;
  const configs: Record<string, string> = {};
  for (const name of Object.keys(images).sort()) {
    // FR-027a: every named distribution has its config; a release without one is broken, so fail loudly.
    configs[name] = readFileSync(
      join(dir, 'configs', name, 'config.yaml'),
      'utf8',
    );
  }
  embedded = { images, configs };
  return embedded;
}

/**
 * Parses the operator ConfigMap's `image-overrides` value: one
 * `name: image` per line (YAML map). Returns the overrides or a message
 * naming the bad line.
 *
 * @public
 */
export function parseImageOverrides(
  text: string | undefined,
): { overrides: Record<string, string> } | { error: string } {
  const overrides: Record<string, string> = {};
  if (!text) return { overrides };
  const lines = text.split(/[\n,]/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/#.*$/, '').trim();
    if (!line) continue;
    const match = /^([A-Za-z0-9._-]+)\s*:\s*["']?([^"'\s]+)["']?$/.exec(line);
    if (!match) {
      return {
        error: `image-overrides line ${i + 1} ("${lines[
          i
        ].trim()}") is not "<distribution name>: <image>": fix or remove it`,
      };
    }
    overrides[match[1]] = match[2];
  }
  return { overrides };
}

/** @public */
export type DistributionResolution =
  | { ok: true; image: string; name?: string; baseConfig?: string }
  | { ok: false; reason: 'UnknownDistribution'; message: string };

/**
 * Resolves `spec.distribution` to an image and, for a named distribution,
 * its embedded base config. `distribution.image` is used as written and has
 * no embedded config (FR-027c).
 *
 * @public
 */
export function resolveDistribution(
  distribution: { name?: string; image?: string },
  registry: DistributionRegistry,
  overrides: Readonly<Record<string, string>> = {},
): DistributionResolution {
  if (distribution.image) return { ok: true, image: distribution.image };
  const name = distribution.name ?? '';
  const image = overrides[name] ?? registry.images[name];
  if (!image) {
    const known = Object.keys(registry.images).sort().join(', ');
    return {
      ok: false,
      reason: 'UnknownDistribution',
      message: `spec.distribution.name "${name}" is not a known distribution; use one of: ${known}, or set spec.distribution.image`,
    };
  }
  return { ok: true, image, name, baseConfig: registry.configs[name] };
}

/**
 * Seed 004's shorthand forms, rewritten to the wire form the CRD stores:
 * - a single provider object (FR-004) becomes a one-element list;
 * - a model given as a string (FR-007) becomes `{name}`;
 * - `expose: true` (FR-011) becomes `expose: {}` and `expose: false` is dropped;
 * - a flat secret reference `{name, key}` (upstream's proposal) becomes `{secretKeyRef: {name, key}}`.
 * The rewrite is idempotent. `inputPath` maps a path of the rewritten object
 * back to the field the user wrote, so messages point at their input.
 */
import { PROVIDER_APIS } from './v1alpha2';
import { cloneJson } from './json';
import { isRecord } from '../schema/json';

/** @public */
export interface NormalizedStack {
  /** The object in wire form (a deep copy; the input is not changed). */
  object: unknown;
  /** Maps a path in `object` to the path of the same field in the input. */
  inputPath(path: string): string;
}

/** Rewrites `{name, key}` into `{secretKeyRef: {name, key}}` in place; returns true when it did. */
function nestSecretRef(holder: Record<string, any>, field: string): boolean {
  const ref = holder[field];
  // Only a complete flat reference is rewritten; a broken one is left for the validator to name.
  if (
    !isRecord(ref) ||
    'secretKeyRef' in ref ||
    !('name' in ref && 'key' in ref)
  )
    return false;
  const { name, key, ...rest } = ref;
  holder[field] = { ...rest, secretKeyRef: { name, key } };
  return true;
}

/** @public */
export function normalizeStackV1alpha2(input: unknown): NormalizedStack {
  const object = cloneJson(input);
  // [canonical prefix, input prefix], most specific first when applied.
  const rewrites: Array<[string, string]> = [];
  const spec = isRecord(object) ? object.spec : undefined;
  if (!isRecord(spec)) return { object, inputPath: p => p };

  if (isRecord(spec.providers)) {
    for (const api of PROVIDER_APIS) {
      const base = `spec.providers.${api}`;
      let list = spec.providers[api];
      let wrapped = false;
      if (isRecord(list)) {
        list = [list];
        spec.providers[api] = list;
        wrapped = true;
      }
      if (!Array.isArray(list)) continue;
      list.forEach((provider: unknown, i: number) => {
        const canonical = `${base}[${i}]`;
        const written = wrapped ? base : canonical;
        if (isRecord(provider) && nestSecretRef(provider, 'apiKey')) {
          rewrites.push([
            `${canonical}.apiKey.secretKeyRef`,
            `${written}.apiKey`,
          ]);
        }
        if (wrapped) rewrites.push([canonical, written]);
      });
    }
  }

  const models = isRecord(spec.resources) ? spec.resources.models : undefined;
  if (Array.isArray(models)) {
    models.forEach((model: unknown, i: number) => {
      if (typeof model === 'string') {
        models[i] = { name: model };
        rewrites.push([
          `spec.resources.models[${i}].name`,
          `spec.resources.models[${i}]`,
        ]);
      }
    });
  }

  if (isRecord(spec.networking)) {
    if (spec.networking.expose === true) spec.networking.expose = {};
    else if (spec.networking.expose === false) delete spec.networking.expose;
  }

  if (isRecord(spec.storage)) {
    if (
      isRecord(spec.storage.kv) &&
      nestSecretRef(spec.storage.kv, 'password')
    ) {
      rewrites.push([
        'spec.storage.kv.password.secretKeyRef',
        'spec.storage.kv.password',
      ]);
    }
    if (
      isRecord(spec.storage.sql) &&
      nestSecretRef(spec.storage.sql, 'connectionString')
    ) {
      rewrites.push([
        'spec.storage.sql.connectionString.secretKeyRef',
        'spec.storage.sql.connectionString',
      ]);
    }
  }

  // Longest prefix first, so a nested rewrite wins over its parent's.
  rewrites.sort((a, b) => b[0].length - a[0].length);
  const inputPath = (path: string): string => {
    for (const [canonical, written] of rewrites) {
      if (
        path === canonical ||
        path.startsWith(`${canonical}.`) ||
        path.startsWith(`${canonical}[`)
      ) {
        return written + path.slice(canonical.length);
      }
    }
    return path;
  };
  return { object, inputPath };
}

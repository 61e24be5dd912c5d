/**
 * Applies a schema's `default`s to a value the way the API server applies a
 * CRD's defaults: a missing property gets its default, and nested defaults
 * apply only inside objects that are present (or were just defaulted). The
 * input is never modified: objects and lists on the walked path are copied.
 */
import type { TSchema } from '@sinclair/typebox';
import { isRecord, type Json } from './json';

function copyDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null
    ? structuredClone(value)
    : value;
}

function walk(schema: Json, value: unknown): unknown {
  if (Array.isArray(value)) {
    return schema.items && !Array.isArray(schema.items)
      ? value.map(item => walk(schema.items, item))
      : value;
  }
  if (!isRecord(value) || schema['x-kubernetes-preserve-unknown-fields'])
    return value;
  const out: Json = { ...value };
  if (schema.properties) {
    for (const [key, child] of Object.entries(
      schema.properties as Record<string, Json>,
    )) {
      if (out[key] === undefined && child.default !== undefined)
        out[key] = copyDefault(child.default);
      if (out[key] !== undefined) out[key] = walk(child, out[key]);
    }
  }
  const mapValues: Json | undefined =
    typeof schema.additionalProperties === 'object'
      ? schema.additionalProperties
      : schema.patternProperties && Object.values(schema.patternProperties)[0];
  if (mapValues) {
    for (const key of Object.keys(out)) out[key] = walk(mapValues, out[key]);
  }
  return out;
}

/** Returns a copy of `value` with the schema's defaults applied; values of the wrong shape are left as they are. @public */
export function applySchemaDefaults<T>(schema: TSchema, value: T): T {
  if (value === undefined && (schema as Json).default !== undefined) {
    return walk(schema as Json, copyDefault((schema as Json).default)) as T;
  }
  return walk(schema as Json, value) as T;
}

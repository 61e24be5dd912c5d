import { isRecord } from '@runway-portal/plugin-runway-common';
/**
 * `spec.provider.overrides` is untyped in the API (seed 000 section 4.15):
 * each provider documents its keys. Unknown keys at any depth are reported
 * as warnings (typos such as `replicsa`); a known key of the wrong type is an
 * error that fails the reconcile with a status message.
 */

/** A leaf type, or a nested object of known keys. @public */
export type OverrideType =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'stringMap'
  | OverrideSchema;

/** @public */
export interface OverrideSchema {
  [key: string]: OverrideType;
}

/** @public */
export interface OverrideCheck {
  /** Paths of keys the provider does not know, e.g. `spec.provider.overrides.head.replicsa`. */
  unknown: string[];
  /** One message per wrongly typed value, naming the field and the expected type. */
  errors: string[];
}

const ROOT = 'spec.provider.overrides';

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function typeError(path: string, expected: string, value: unknown): string {
  return `${path} must be ${expected}, got ${describe(
    value,
  )}: fix the value in spec.provider.overrides`;
}

function checkValue(
  value: unknown,
  type: OverrideType,
  path: string,
  out: OverrideCheck,
): void {
  if (type === 'string') {
    if (typeof value !== 'string')
      out.errors.push(typeError(path, 'a string', value));
  } else if (type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value))
      out.errors.push(typeError(path, 'a whole number', value));
  } else if (type === 'boolean') {
    if (typeof value !== 'boolean')
      out.errors.push(typeError(path, 'true or false', value));
  } else if (type === 'stringMap') {
    if (!isRecord(value))
      out.errors.push(typeError(path, 'a map of strings', value));
    else {
      for (const [k, v] of Object.entries(value)) {
        if (typeof v !== 'string')
          out.errors.push(typeError(`${path}.${k}`, 'a string', v));
      }
    }
  } else if (!isRecord(value)) {
    out.errors.push(typeError(path, 'an object', value));
  } else {
    walk(value, type, path, out);
  }
}

function walk(
  value: Record<string, unknown>,
  schema: OverrideSchema,
  path: string,
  out: OverrideCheck,
): void {
  for (const [key, child] of Object.entries(value)) {
    const childPath = `${path}.${key}`;
    const type = Object.prototype.hasOwnProperty.call(schema, key)
      ? schema[key]
      : undefined;
    if (type === undefined) out.unknown.push(childPath);
    else checkValue(child, type, childPath, out);
  }
}

/** Checks overrides against a provider's schema; never throws. @public */
export function checkOverrides(
  overrides: unknown,
  schema: OverrideSchema,
): OverrideCheck {
  const out: OverrideCheck = { unknown: [], errors: [] };
  if (overrides === undefined || overrides === null) return out;
  if (!isRecord(overrides)) {
    out.errors.push(typeError(ROOT, 'an object', overrides));
    return out;
  }
  walk(overrides, schema, ROOT, out);
  return out;
}

/**
 * Renders a CrdDefinition into a CustomResourceDefinition
 * (apiextensions.k8s.io/v1) with a structural openAPIV3Schema: only the
 * keywords Kubernetes accepts are kept, TypeBox's own markers are dropped, and
 * shapes Kubernetes cannot express make rendering fail with the schema path,
 * so a non-structural schema never reaches a cluster.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import type { CrdDefinition } from './definition';
import { type Json } from '../schema/json';
import { NAME_OR_OBJECT_KIND } from '../schema/kinds';

/** Keywords of Kubernetes' JSONSchemaProps that a generated CRD may carry. */
const KEPT_KEYWORDS = new Set([
  'description',
  'type',
  'format',
  'default',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

const VALUE_VALIDATION_KEYWORDS = ['allOf', 'oneOf', 'anyOf', 'not'] as const;
const ANY_KEY_PATTERNS = new Set(['^(.*)$', '^.*$', '.*']);

/** @public */
export class CrdSchemaError extends Error {
  constructor(path: string, problem: string) {
    super(`${path || '(root)'}: ${problem}`);
    this.name = 'CrdSchemaError';
  }
}

function isIntOrString(s: Json): boolean {
  return s['x-kubernetes-int-or-string'] === true;
}

/** Converts TypeBox's `patternProperties` (from Type.Record) into `additionalProperties`. */
function normaliseRecord(s: Json, path: string): Json {
  if (!s.patternProperties) return s;
  const keys = Object.keys(s.patternProperties);
  if (keys.length !== 1 || !ANY_KEY_PATTERNS.has(keys[0])) {
    throw new CrdSchemaError(
      path,
      'patternProperties cannot be expressed in a CRD; use a record keyed by any string',
    );
  }
  const { patternProperties, ...rest } = s;
  return {
    ...rest,
    type: 'object',
    additionalProperties: patternProperties[keys[0]],
  };
}

/** Converts TypeBox's Literal (`const`) and nullable unions into Kubernetes keywords. */
function normaliseTypeBoxShapes(s: Json, path: string): Json {
  let out = normaliseRecord(s, path);
  if ('const' in out) {
    const { const: value, ...rest } = out;
    out = {
      ...rest,
      type: typeof value === 'number' ? 'number' : typeof value,
      enum: [value],
    };
  }
  if (Array.isArray(out.anyOf) && !isIntOrString(out)) {
    const nonNull = out.anyOf.filter((b: Json) => b.type !== 'null');
    if (nonNull.length === 1 && nonNull.length < out.anyOf.length) {
      const { anyOf, ...rest } = out;
      out = { ...nonNull[0], ...rest, nullable: true };
    }
  }
  return out;
}

/** Value validations (allOf/anyOf/oneOf/not) must not declare types, descriptions or defaults. */
function renderValueValidation(s: Json, path: string): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(s)) {
    if (!KEPT_KEYWORDS.has(key)) continue;
    if (
      key === 'type' ||
      key === 'description' ||
      key === 'default' ||
      key === 'nullable'
    ) {
      throw new CrdSchemaError(
        path,
        `"${key}" is not allowed inside allOf/anyOf/oneOf/not of a structural schema`,
      );
    }
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [
          k,
          renderValueValidation(v, `${path}.${k}`),
        ]),
      );
    } else if (
      key === 'items' ||
      key === 'not' ||
      key === 'additionalProperties'
    ) {
      out[key] =
        typeof value === 'object'
          ? renderValueValidation(value, `${path}.${key}`)
          : value;
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as Json[]).map((b, i) =>
        renderValueValidation(b, `${path}.${key}[${i}]`),
      );
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Renders one schema node and its children; `path` is used in error messages. @public */
export function renderSchema(schema: TSchema, path = ''): Json {
  if (
    (schema as unknown as Record<symbol, unknown>)[Kind] === NAME_OR_OBJECT_KIND
  ) {
    // A name or an object: no structural type can say so; kept as is and checked by structuralIssues.
    const { description } = schema as Json;
    return {
      ...(description ? { description } : {}),
      'x-kubernetes-preserve-unknown-fields': true,
    };
  }
  const s = normaliseTypeBoxShapes(schema as Json, path);
  const out: Json = {};
  for (const [key, value] of Object.entries(s)) {
    if (!KEPT_KEYWORDS.has(key)) continue;
    switch (key) {
      case 'properties': {
        const entries = Object.entries(value as Json);
        if (entries.length > 0) {
          out.properties = Object.fromEntries(
            entries.map(([k, v]) => [
              k,
              renderSchema(v, path ? `${path}.${k}` : k),
            ]),
          );
        }
        break;
      }
      case 'items':
        if (Array.isArray(value))
          throw new CrdSchemaError(path, 'tuples cannot be expressed in a CRD');
        out.items = renderSchema(value, `${path}[]`);
        break;
      case 'additionalProperties':
        if (value === true) out['x-kubernetes-preserve-unknown-fields'] = true;
        else if (typeof value === 'object')
          out.additionalProperties = renderSchema(value, `${path}.*`);
        break;
      case 'anyOf':
        out.anyOf = isIntOrString(s)
          ? [{ type: 'integer' }, { type: 'string' }]
          : (value as Json[]).map((b, i) =>
              renderValueValidation(b, `${path}.anyOf[${i}]`),
            );
        break;
      case 'allOf':
      case 'oneOf':
        out[key] = (value as Json[]).map((b, i) =>
          renderValueValidation(b, `${path}.${key}[${i}]`),
        );
        break;
      case 'not':
        out.not = renderValueValidation(value, `${path}.not`);
        break;
      case 'required':
        if ((value as string[]).length > 0) out.required = [...value];
        break;
      default:
        out[key] = value;
    }
  }
  assertStructural(out, path);
  return out;
}

function assertStructural(s: Json, path: string): void {
  const free = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (!s.type && !isIntOrString(s) && !free) {
    throw new CrdSchemaError(
      path,
      'every field of a structural schema needs a type (or int-or-string / preserve-unknown-fields)',
    );
  }
  if (s.properties && s.additionalProperties) {
    throw new CrdSchemaError(
      path,
      'properties and additionalProperties cannot both be set',
    );
  }
  if (s.type === 'array' && !s.items) {
    throw new CrdSchemaError(path, 'an array needs an items schema');
  }
  for (const keyword of VALUE_VALIDATION_KEYWORDS) {
    if (keyword === 'anyOf' && isIntOrString(s)) continue;
    if (s[keyword] && !s.type) {
      throw new CrdSchemaError(path, `${keyword} needs a typed parent`);
    }
  }
}

/** The openAPIV3Schema of a whole object; Kubernetes owns `metadata`, so it is just `{type: object}`. @public */
export function renderObjectSchema(schema: TSchema): Json {
  const rendered = renderSchema(schema);
  if (rendered.properties?.metadata)
    rendered.properties.metadata = { type: 'object' };
  return rendered;
}

/** The CustomResourceDefinition object for a definition, ready to be applied or written as YAML. @public */
export function renderCrd(def: CrdDefinition): Json {
  const storage = def.versions.filter(v => v.storage);
  if (storage.length !== 1) {
    throw new CrdSchemaError(
      def.names.kind,
      `exactly one version must be the storage version (found ${storage.length})`,
    );
  }
  const names: Json = {
    kind: def.names.kind,
    listKind: def.names.listKind ?? `${def.names.kind}List`,
    plural: def.names.plural,
    singular: def.names.singular,
  };
  if (def.names.shortNames?.length)
    names.shortNames = [...def.names.shortNames];
  if (def.names.categories?.length)
    names.categories = [...def.names.categories];
  const spec: Json = {
    group: def.group,
    names,
    scope: def.scope,
    versions: def.versions.map(v => {
      const version: Json = {
        name: v.name,
        served: v.served,
        storage: v.storage,
      };
      if (v.deprecated) version.deprecated = true;
      if (v.deprecationWarning)
        version.deprecationWarning = v.deprecationWarning;
      if (v.printerColumns?.length) {
        version.additionalPrinterColumns = v.printerColumns.map(c => ({
          ...c,
        }));
      }
      version.schema = { openAPIV3Schema: renderObjectSchema(v.schema) };
      const sub: Json = {};
      if (v.subresources?.status) sub.status = {};
      if (v.subresources?.scale) sub.scale = { ...v.subresources.scale };
      if (Object.keys(sub).length > 0) version.subresources = sub;
      return version;
    }),
  };
  if (def.conversion) spec.conversion = def.conversion;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${def.names.plural}.${def.group}` },
    spec,
  };
}

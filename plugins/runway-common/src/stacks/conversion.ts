/**
 * Conversion between LlamaStackDistribution v1alpha1 and v1alpha2 (FR-080 to
 * FR-083), pure, for the conversion webhook. Fields follow seed 004's
 * migration table (`FIELD_MAP`). Conversion is lossless both ways: what one
 * version cannot hold (v1alpha2's providers, v1alpha1's container name, ...)
 * travels in an annotation of the converted object and is restored when the
 * object is converted back, as Kubernetes requires of conversion webhooks.
 */
import type {
  LlamaStackDistributionV1alpha1 as StackV1alpha1,
  LlamaStackDistributionV1alpha2 as StackV1alpha2,
} from '../generated/llamaStackDistribution';
import { STACK_KIND, STACK_V1ALPHA1, STACK_V1ALPHA2 } from './v1alpha1';
import { cloneJson } from './json';
import { isRecord, type Json } from '../schema/json';

/** On a v1alpha2 object: the v1alpha1 fields v1alpha2 cannot hold (JSON). @public */
export const V1ALPHA1_FIELDS_ANNOTATION = 'llamastack.io/v1alpha1-fields';
/** On a v1alpha1 object: the v1alpha2 fields v1alpha1 cannot hold (JSON). @public */
export const V1ALPHA2_FIELDS_ANNOTATION = 'llamastack.io/v1alpha2-fields';

/** Seed 004's "Field Mapping: v1alpha1 to v1alpha2", plus the status fields both versions share. @public */
export const FIELD_MAP: ReadonlyArray<
  readonly [v1alpha1: string, v1alpha2: string]
> = [
  ['spec.server.distribution', 'spec.distribution'],
  ['spec.server.containerSpec.port', 'spec.networking.port'],
  ['spec.server.containerSpec.resources', 'spec.workload.resources'],
  ['spec.server.containerSpec.env', 'spec.workload.overrides.env'],
  ['spec.server.containerSpec.command', 'spec.workload.overrides.command'],
  ['spec.server.containerSpec.args', 'spec.workload.overrides.args'],
  ['spec.server.userConfig.configMapName', 'spec.overrideConfig.configMapName'],
  ['spec.server.storage', 'spec.workload.storage'],
  ['spec.server.tlsConfig.caBundle', 'spec.networking.tls.caBundle'],
  ['spec.server.autoscaling', 'spec.workload.autoscaling'],
  ['spec.server.workers', 'spec.workload.workers'],
  [
    'spec.server.podOverrides.serviceAccountName',
    'spec.workload.overrides.serviceAccountName',
  ],
  [
    'spec.server.podOverrides.terminationGracePeriodSeconds',
    'spec.workload.overrides.terminationGracePeriodSeconds',
  ],
  ['spec.server.podOverrides.volumes', 'spec.workload.overrides.volumes'],
  [
    'spec.server.podOverrides.volumeMounts',
    'spec.workload.overrides.volumeMounts',
  ],
  ['spec.server.podDisruptionBudget', 'spec.workload.podDisruptionBudget'],
  [
    'spec.server.topologySpreadConstraints',
    'spec.workload.topologySpreadConstraints',
  ],
  ['spec.replicas', 'spec.workload.replicas'],
  ['spec.network.allowedFrom', 'spec.networking.allowedFrom'],
  ['status.phase', 'status.phase'],
  ['status.conditions', 'status.conditions'],
  ['status.availableReplicas', 'status.availableReplicas'],
  ['status.distributionConfig', 'status.distributionConfig'],
  ['status.version', 'status.version'],
  ['status.serviceURL', 'status.serviceURL'],
  ['status.routeURL', 'status.routeURL'],
];

// `network.exposeRoute: true` is `networking.expose: {}` (seed 004: `expose: {}` means exposed).
const EXPOSE_ROUTE = 'spec.network.exposeRoute';
const EXPOSE = 'spec.networking.expose';

function get(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of path.split('.')) {
    if (!isRecord<Json>(node)) return undefined;
    node = node[key];
  }
  return node;
}

function set(obj: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = obj;
  for (const key of keys.slice(0, -1)) {
    if (!isRecord<Json>(node[key])) node[key] = {};
    node = node[key];
  }
  node[keys[keys.length - 1]] = cloneJson(value);
}

function isEmptyObject(value: unknown): boolean {
  return isRecord<Json>(value) && Object.keys(value).length === 0;
}

/** Maps spec and status along FIELD_MAP (`from` is the column index of the source version). */
function mapFields(source: Json, from: 0 | 1): Json {
  const to = from === 0 ? 1 : 0;
  const out: Json = {};
  for (const pair of FIELD_MAP) {
    const value = get(source, pair[from]);
    if (value !== undefined) set(out, pair[to], value);
  }
  if (from === 0 && get(source, EXPOSE_ROUTE) === true) set(out, EXPOSE, {});
  if (from === 1 && isRecord<Json>(get(source, EXPOSE)))
    set(out, EXPOSE_ROUTE, true);
  return out;
}

/** The parts of `original` (recursively) that `rebuilt` lacks: what a mapping lost. */
function lostParts(original: unknown, rebuilt: unknown): Json | undefined {
  if (!isRecord<Json>(original)) return undefined;
  const lost: Json = {};
  for (const [key, value] of Object.entries(original)) {
    const other = isRecord<Json>(rebuilt) ? rebuilt[key] : undefined;
    if (other === undefined) {
      lost[key] = cloneJson(value);
    } else if (isRecord<Json>(value) && isRecord<Json>(other)) {
      const inner = lostParts(value, other);
      if (inner) lost[key] = inner;
    }
  }
  return Object.keys(lost).length ? lost : undefined;
}

/** Copies values of `extra` into `target` where `target` has none (never overwrites). */
function fillAbsent(target: Json, extra: Json): void {
  for (const [key, value] of Object.entries(extra)) {
    if (target[key] === undefined) target[key] = cloneJson(value);
    else if (isRecord<Json>(target[key]) && isRecord<Json>(value))
      fillAbsent(target[key], value);
  }
}

/** JSON with object keys sorted, so the annotation does not depend on the order fields arrived in. */
function sortedJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (!isRecord<Json>(v)) return v;
    const out: Json = {};
    for (const key of Object.keys(v).sort()) out[key] = sortKeys(v[key]);
    return out;
  };
  return JSON.stringify(sortKeys(value));
}

function readFieldsAnnotation(metadata: Json, key: string): Json | undefined {
  const raw = metadata.annotations?.[key];
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw);
    return isRecord<Json>(parsed) ? parsed : undefined;
  } catch {
    return undefined; // a hand-edited, broken annotation is ignored, never fatal
  }
}

function withoutAnnotations(metadata: unknown): Json {
  const copy: Json = isRecord<Json>(metadata) ? cloneJson(metadata) : {};
  if (isRecord<Json>(copy.annotations)) {
    delete copy.annotations[V1ALPHA1_FIELDS_ANNOTATION];
    delete copy.annotations[V1ALPHA2_FIELDS_ANNOTATION];
    if (isEmptyObject(copy.annotations)) delete copy.annotations;
  }
  return copy;
}

function convert(obj: Json, from: 0 | 1): Json {
  const to = from === 0 ? 1 : 0;
  const source: Json = {};
  if (obj.spec !== undefined) source.spec = obj.spec;
  if (obj.status !== undefined) source.status = obj.status;
  const body = mapFields(source, from);
  // Whole sections present in the source stay present (an empty spec is still a spec).
  if (isRecord<Json>(source.spec) && body.spec === undefined) body.spec = {};
  if (isRecord<Json>(source.status) && body.status === undefined)
    body.status = {};

  const metadata = withoutAnnotations(obj.metadata);
  // Restore what an earlier conversion into the source version set aside.
  const ownKey =
    from === 0 ? V1ALPHA2_FIELDS_ANNOTATION : V1ALPHA1_FIELDS_ANNOTATION;
  const restored = isRecord<Json>(obj.metadata)
    ? readFieldsAnnotation(obj.metadata, ownKey)
    : undefined;
  if (restored) {
    // An exposure switched off in the other version stays off.
    if (
      to === 1 &&
      get(body, EXPOSE) === undefined &&
      isRecord<Json>(restored.spec?.networking)
    ) {
      delete restored.spec.networking.expose;
    }
    fillAbsent(body, restored);
  }

  // Set aside what the target cannot hold, status included: server-side apply round-trips the
  // whole object through a manager's version (a v1alpha1 creator's) when it prunes, and a lossy
  // status there would drop v1alpha2's resolvedDistribution and configGeneration on every write.
  const lost = lostParts(source, mapFields(body, to));
  if (lost) {
    metadata.annotations = {
      ...(metadata.annotations ?? {}),
      [to === 1 ? V1ALPHA1_FIELDS_ANNOTATION : V1ALPHA2_FIELDS_ANNOTATION]:
        sortedJson(lost),
    };
  }
  return {
    apiVersion: to === 1 ? STACK_V1ALPHA2 : STACK_V1ALPHA1,
    kind: obj.kind ?? STACK_KIND,
    metadata,
    ...body,
  };
}

/**
 * A v1alpha1 field v1alpha2 cannot hold, from the converted object's
 * `llamastack.io/v1alpha1-fields` annotation (`path` like
 * `spec.server.containerSpec.name`); undefined when absent or the annotation is broken.
 *
 * @public
 */
export function v1alpha1Field(
  obj: { metadata?: { annotations?: Record<string, string> } },
  path: string,
): unknown {
  const fields = isRecord<Json>(obj.metadata)
    ? readFieldsAnnotation(obj.metadata as Json, V1ALPHA1_FIELDS_ANNOTATION)
    : undefined;
  return fields ? get(fields, path) : undefined;
}

/**
 * Where the override config's ConfigMap lives: v1alpha1's
 * `userConfig.configMapNamespace` (v1alpha2 has no such field: conversion
 * keeps it in the annotation), else the stack's own namespace.
 *
 * @public
 */
export function overrideConfigNamespace(
  stack: {
    metadata?: { namespace?: string; annotations?: Record<string, string> };
  },
  fallback = stack.metadata?.namespace ?? 'default',
): string {
  const ns = v1alpha1Field(stack, 'spec.server.userConfig.configMapNamespace');
  return typeof ns === 'string' && ns ? ns : fallback;
}

/** @public */
export function convertStackToV1alpha2(obj: StackV1alpha1): StackV1alpha2 {
  return convert(obj as Json, 0) as StackV1alpha2;
}

/** @public */
export function convertStackToV1alpha1(obj: StackV1alpha2): StackV1alpha1 {
  return convert(obj as Json, 1) as StackV1alpha1;
}

/**
 * Converts an object to `desiredApiVersion`, as a ConversionReview asks.
 * Throws (with a message the webhook returns) for versions it does not know.
 *
 * @public
 */
export function convertStack(obj: unknown, desiredApiVersion: string): Json {
  if (!isRecord<Json>(obj))
    throw new Error(
      'the object to convert must be a LlamaStackDistribution object',
    );
  const known = [STACK_V1ALPHA1, STACK_V1ALPHA2];
  if (!known.includes(obj.apiVersion)) {
    throw new Error(
      `cannot convert from apiVersion "${
        obj.apiVersion
      }": expected one of ${known.join(', ')}`,
    );
  }
  if (!known.includes(desiredApiVersion)) {
    throw new Error(
      `cannot convert to apiVersion "${desiredApiVersion}": expected one of ${known.join(
        ', ',
      )}`,
    );
  }
  if (obj.apiVersion === desiredApiVersion) return cloneJson(obj);
  return obj.apiVersion === STACK_V1ALPHA1 ? convert(obj, 0) : convert(obj, 1);
}

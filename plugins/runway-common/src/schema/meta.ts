/**
 * Kubernetes metadata and status building blocks shared by every resource.
 */
import { Type } from '@sinclair/typebox';
import { DateTime, Int64, StringEnum, StringMap } from './kinds';
import { EnvVarSchema, TolerationSchema } from './kube';

/**
 * The part of ObjectMeta this project reads or writes. In a CRD, `metadata`
 * is always rendered as `{type: object}` (the API server owns its schema);
 * this schema types it for TypeScript and form validation only.
 *
 * @public
 */
export const ObjectMetaSchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    generateName: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String()),
    labels: Type.Optional(StringMap()),
    annotations: Type.Optional(StringMap()),
    uid: Type.Optional(Type.String()),
    resourceVersion: Type.Optional(Type.String()),
    generation: Type.Optional(Int64()),
    creationTimestamp: Type.Optional(DateTime()),
    deletionTimestamp: Type.Optional(DateTime()),
    finalizers: Type.Optional(Type.Array(Type.String())),
    ownerReferences: Type.Optional(
      Type.Array(
        Type.Object({
          apiVersion: Type.String(),
          kind: Type.String(),
          name: Type.String(),
          uid: Type.String(),
          controller: Type.Optional(Type.Boolean()),
          blockOwnerDeletion: Type.Optional(Type.Boolean()),
        }),
      ),
    ),
  },
  {
    $id: 'ObjectMeta',
    description: 'Standard Kubernetes object metadata (subset).',
    // The API server owns metadata: fields not listed here are legitimate.
    additionalProperties: true,
  },
);

/** metav1.Condition, exactly as Kubernetes defines it. @public */
export const ConditionSchema = Type.Object(
  {
    type: Type.String({
      description: 'Type of condition in CamelCase.',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    }),
    status: StringEnum(['True', 'False', 'Unknown'] as const, {
      description: 'Status of the condition: True, False or Unknown.',
    }),
    observedGeneration: Type.Optional(
      Int64({
        minimum: 0,
        description: 'The .metadata.generation the condition was set for.',
      }),
    ),
    lastTransitionTime: DateTime({
      description:
        'Last time the condition changed from one status to another.',
    }),
    reason: Type.String({
      description: 'Machine-readable reason in CamelCase.',
      maxLength: 1024,
      minLength: 1,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    }),
    message: Type.String({
      description: 'Human-readable details about the transition.',
      maxLength: 32768,
    }),
  },
  {
    $id: 'Condition',
    description: 'A condition of a resource (metav1.Condition).',
  },
);

/** `status.conditions`: a list keyed by `type`, as server-side apply merges it. @public */
export function ConditionList(
  description = 'Latest observations of the resource state.',
) {
  return Type.Array(ConditionSchema, {
    description,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['type'],
  });
}

/** Top-level `apiVersion` and `kind` properties every resource schema has. @public */
export function typeMetaProperties() {
  return {
    apiVersion: Type.Optional(
      Type.String({
        description:
          'APIVersion defines the versioned schema of this representation of an object.',
      }),
    ),
    kind: Type.Optional(
      Type.String({
        description:
          'Kind is a string value representing the REST resource this object represents.',
      }),
    ),
    metadata: Type.Optional(ObjectMetaSchema),
  };
}

/**
 * Schemas shared by every resource. The type generator emits them once, in
 * `src/generated/common.ts`, and every generated resource file imports them.
 *
 * @public
 */
export const SHARED_SCHEMAS = [
  ObjectMetaSchema,
  ConditionSchema,
  EnvVarSchema,
  TolerationSchema,
];

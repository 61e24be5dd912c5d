/**
 * Kubernetes core types that several resources embed, written to match what
 * controller-gen emits for them (so the CRDs accept what upstream's accept).
 * They carry a `$id`, so the type generator emits them once, in
 * `src/generated/common.ts`.
 */
import { Type } from '@sinclair/typebox';
import { Int64, Quantity } from './kinds';

const atomic = { 'x-kubernetes-map-type': 'atomic' } as const;

function keyRef(what: string) {
  return Type.Object(
    {
      key: Type.String({ description: `The key to select in the ${what}.` }),
      name: Type.Optional(
        Type.String({ default: '', description: `Name of the ${what}.` }),
      ),
      optional: Type.Optional(
        Type.Boolean({
          description: `Whether the ${what} or its key may be missing.`,
        }),
      ),
    },
    { ...atomic, description: `Selects a key of a ${what}.` },
  );
}

/** core/v1 EnvVar. @public */
export const EnvVarSchema = Type.Object(
  {
    name: Type.String({ description: 'Name of the environment variable.' }),
    value: Type.Optional(
      Type.String({ description: 'Literal value of the variable.' }),
    ),
    valueFrom: Type.Optional(
      Type.Object(
        {
          configMapKeyRef: Type.Optional(keyRef('ConfigMap')),
          secretKeyRef: Type.Optional(keyRef('Secret')),
          fieldRef: Type.Optional(
            Type.Object(
              {
                apiVersion: Type.Optional(
                  Type.String({ description: 'Schema version of fieldPath.' }),
                ),
                fieldPath: Type.String({
                  description: 'Path of the field to select.',
                }),
              },
              { ...atomic, description: 'Selects a field of the pod.' },
            ),
          ),
          resourceFieldRef: Type.Optional(
            Type.Object(
              {
                containerName: Type.Optional(
                  Type.String({ description: 'Container name.' }),
                ),
                divisor: Type.Optional(
                  Quantity({
                    description: 'Output format of the exposed resource.',
                  }),
                ),
                resource: Type.String({ description: 'Resource to select.' }),
              },
              {
                ...atomic,
                description: 'Selects a resource of the container.',
              },
            ),
          ),
          fileKeyRef: Type.Optional(
            Type.Object(
              {
                key: Type.String({
                  description: 'The key within the env file.',
                }),
                optional: Type.Optional(
                  Type.Boolean({
                    default: false,
                    description: 'Whether the file or key may be missing.',
                  }),
                ),
                path: Type.String({
                  description: 'Path of the env file within the volume.',
                }),
                volumeName: Type.String({
                  description: 'Name of the volume holding the env file.',
                }),
              },
              { ...atomic, description: 'Selects a key of an env file.' },
            ),
          ),
        },
        { description: "Source for the variable's value." },
      ),
    ),
  },
  {
    $id: 'EnvVar',
    description: 'An environment variable of a container (core/v1 EnvVar).',
  },
);

/** core/v1 Toleration. @public */
export const TolerationSchema = Type.Object(
  {
    effect: Type.Optional(
      Type.String({
        description:
          'Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; empty matches all.',
      }),
    ),
    key: Type.Optional(
      Type.String({
        description:
          'Taint key the toleration applies to; empty matches all keys.',
      }),
    ),
    operator: Type.Optional(
      Type.String({ description: 'Exists or Equal (default Equal).' }),
    ),
    tolerationSeconds: Type.Optional(
      Int64({ description: 'How long a NoExecute taint is tolerated.' }),
    ),
    value: Type.Optional(
      Type.String({ description: 'Taint value the toleration matches.' }),
    ),
  },
  {
    $id: 'Toleration',
    description: 'A toleration of a pod (core/v1 Toleration).',
  },
);

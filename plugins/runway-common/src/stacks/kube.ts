/**
 * The Kubernetes core types a LlamaStackDistribution embeds (env vars,
 * resources, volumes, topology spread, PDB), as much of them as the released
 * upstream v1alpha1 CRD declares. Where upstream declares a large core type
 * in full (a Volume), this schema keeps its `name` and preserves the rest, so
 * everything upstream accepts is accepted; the Deployment the operator writes
 * is checked by the API server in full.
 */
import { Type } from '@sinclair/typebox';
import { Int32, Int64, IntOrString, Quantity } from '../schema';

export { EnvVarSchema } from '../schema';

const atomic = { 'x-kubernetes-map-type': 'atomic' } as const;

export const ResourceRequirementsSchema = Type.Object(
  {
    claims: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String(),
          request: Type.Optional(Type.String()),
        }),
        {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
        },
      ),
    ),
    limits: Type.Optional(Type.Record(Type.String(), Quantity())),
    requests: Type.Optional(Type.Record(Type.String(), Quantity())),
  },
  {
    $id: 'ResourceRequirements',
    description:
      'CPU, memory and other resources (core/v1 ResourceRequirements).',
  },
);

export const VolumeMountSchema = Type.Object(
  {
    mountPath: Type.String(),
    mountPropagation: Type.Optional(Type.String()),
    name: Type.String(),
    readOnly: Type.Optional(Type.Boolean()),
    recursiveReadOnly: Type.Optional(Type.String()),
    subPath: Type.Optional(Type.String()),
    subPathExpr: Type.Optional(Type.String()),
  },
  {
    $id: 'VolumeMount',
    description:
      'A volume mounted into the server container (core/v1 VolumeMount).',
  },
);

export const VolumeSchema = Type.Object(
  {
    name: Type.String({
      description: 'Name of the volume, referenced by volumeMounts.',
    }),
  },
  {
    $id: 'Volume',
    description:
      'A pod volume (core/v1 Volume): its source fields are kept as written and checked by the API server when the operator writes the Deployment.',
    additionalProperties: true,
  },
);

export const LabelSelectorSchema = Type.Object(
  {
    matchExpressions: Type.Optional(
      Type.Array(
        Type.Object({
          key: Type.String(),
          operator: Type.String(),
          values: Type.Optional(
            Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic' }),
          ),
        }),
        { 'x-kubernetes-list-type': 'atomic' },
      ),
    ),
    matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { $id: 'LabelSelector', ...atomic },
);

export const TopologySpreadConstraintSchema = Type.Object(
  {
    labelSelector: Type.Optional(LabelSelectorSchema),
    matchLabelKeys: Type.Optional(
      Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic' }),
    ),
    maxSkew: Int32(),
    minDomains: Type.Optional(Int32()),
    nodeAffinityPolicy: Type.Optional(Type.String()),
    nodeTaintsPolicy: Type.Optional(Type.String()),
    topologyKey: Type.String(),
    whenUnsatisfiable: Type.String(),
  },
  {
    $id: 'TopologySpreadConstraint',
    description: 'How server pods spread over topology domains (core/v1).',
  },
);

export const AutoscalingSchema = (strict: boolean) =>
  Type.Object(
    {
      maxReplicas: Int32(strict ? { minimum: 1 } : {}),
      minReplicas: Type.Optional(Int32(strict ? { minimum: 1 } : {})),
      targetCPUUtilizationPercentage: Type.Optional(
        Int32(strict ? { minimum: 1, maximum: 100 } : {}),
      ),
      targetMemoryUtilizationPercentage: Type.Optional(
        Int32(strict ? { minimum: 1, maximum: 100 } : {}),
      ),
    },
    { description: 'HorizontalPodAutoscaler settings.' },
  );

export const PodDisruptionBudgetSchema = Type.Object(
  {
    minAvailable: Type.Optional(IntOrString()),
    maxUnavailable: Type.Optional(IntOrString()),
  },
  { description: 'PodDisruptionBudget of the server pods.' },
);

export const CaBundleSchema = Type.Object(
  {
    configMapName: Type.String({
      description: 'ConfigMap holding the CA certificates.',
    }),
    configMapNamespace: Type.Optional(
      Type.String({
        description:
          'Namespace of the ConfigMap; defaults to the resource namespace.',
      }),
    ),
    configMapKeys: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 50,
        description:
          'Keys to concatenate into one bundle; defaults to ["ca-bundle.crt"].',
      }),
    ),
  },
  { description: 'Custom CA certificates, from a ConfigMap.' },
);

export const TerminationGracePeriodSeconds = () =>
  Int64({ description: 'Pod termination grace period.' });

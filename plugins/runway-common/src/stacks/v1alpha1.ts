/**
 * LlamaStackDistribution v1alpha1, wire-compatible with the released
 * llama-stack-k8s-operator CRD: same fields, same defaults, same CEL rule,
 * and nothing stricter, so every object the upstream CRD accepts is accepted
 * here (a test compares the two schemas).
 */
import { Type } from '@sinclair/typebox';
import {
  ConditionSchema,
  DateTime,
  Int32,
  Quantity,
  StringEnum,
  celRules,
  typeMetaProperties,
} from '../schema';
import {
  AutoscalingSchema,
  CaBundleSchema,
  EnvVarSchema,
  PodDisruptionBudgetSchema,
  ResourceRequirementsSchema,
  TerminationGracePeriodSeconds,
  TopologySpreadConstraintSchema,
  VolumeMountSchema,
  VolumeSchema,
} from './kube';

/** @public */
export const STACK_GROUP = 'llamastack.io';
/** @public */
export const STACK_KIND = 'LlamaStackDistribution';
/** @public */
export const STACK_V1ALPHA1 = `${STACK_GROUP}/v1alpha1`;
/** @public */
export const STACK_V1ALPHA2 = `${STACK_GROUP}/v1alpha2`;

/** @public */
export const STACK_PHASES = [
  'Pending',
  'Initializing',
  'Ready',
  'Failed',
  'Terminating',
] as const;
/** @public */
export type StackPhase = (typeof STACK_PHASES)[number];

/** @public */
export const DEFAULT_CONTAINER_NAME = 'llama-stack';
/** @public */
export const DEFAULT_SERVER_PORT = 8321;
/** @public */
export const DEFAULT_STORAGE_MOUNT_PATH = '/.llama';
/** @public */
export const DEFAULT_STORAGE_SIZE = '10Gi';

/** @public */
export const DistributionSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        description:
          'Name of a distribution the operator knows, e.g. "starter".',
      }),
    ),
    image: Type.Optional(
      Type.String({ description: 'Container image to run directly.' }),
    ),
  },
  {
    description:
      'Which llama-stack server to run: a named distribution or an image.',
    ...celRules({
      rule: '!(has(self.name) && has(self.image))',
      message: 'Only one of name or image can be specified',
    }),
  },
);

const ContainerSpecSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ default: DEFAULT_CONTAINER_NAME })),
    port: Type.Optional(Int32()),
    resources: Type.Optional(ResourceRequirementsSchema),
    env: Type.Optional(Type.Array(EnvVarSchema)),
    command: Type.Optional(Type.Array(Type.String())),
    args: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'The llama-stack server container.' },
);

const PodOverridesSchema = Type.Object(
  {
    serviceAccountName: Type.Optional(Type.String()),
    terminationGracePeriodSeconds: Type.Optional(
      TerminationGracePeriodSeconds(),
    ),
    volumes: Type.Optional(Type.Array(VolumeSchema)),
    volumeMounts: Type.Optional(Type.Array(VolumeMountSchema)),
  },
  { description: 'Pod-level overrides.' },
);

const UserConfigSchema = Type.Object(
  {
    configMapName: Type.String({
      description: 'ConfigMap holding config.yaml (or run.yaml).',
    }),
    configMapNamespace: Type.Optional(
      Type.String({
        description:
          'Namespace of the ConfigMap; defaults to the resource namespace.',
      }),
    ),
  },
  { description: 'A user-provided server configuration.' },
);

const ServerStorageSchema = Type.Object(
  {
    size: Type.Optional(
      Quantity({
        description: `Size of the PVC; the operator defaults it to ${DEFAULT_STORAGE_SIZE}.`,
      }),
    ),
    mountPath: Type.Optional(
      Type.String({
        description: `Where the PVC is mounted; the operator defaults it to ${DEFAULT_STORAGE_MOUNT_PATH}.`,
      }),
    ),
  },
  { description: 'Persistent storage for the server.' },
);

const ServerSchema = Type.Object(
  {
    distribution: DistributionSchema,
    containerSpec: Type.Optional(ContainerSpecSchema),
    podOverrides: Type.Optional(PodOverridesSchema),
    podDisruptionBudget: Type.Optional(PodDisruptionBudgetSchema),
    topologySpreadConstraints: Type.Optional(
      Type.Array(TopologySpreadConstraintSchema),
    ),
    autoscaling: Type.Optional(AutoscalingSchema(false)),
    workers: Type.Optional(
      Int32({ minimum: 1, description: 'Number of uvicorn workers.' }),
    ),
    storage: Type.Optional(ServerStorageSchema),
    userConfig: Type.Optional(UserConfigSchema),
    tlsConfig: Type.Optional(
      Type.Object(
        { caBundle: Type.Optional(CaBundleSchema) },
        { description: 'TLS settings of outgoing connections.' },
      ),
    ),
  },
  { description: 'The llama-stack server.' },
);

const NetworkSchema = Type.Object(
  {
    exposeRoute: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Expose the service with an Ingress/Route.',
      }),
    ),
    allowedFrom: Type.Optional(
      Type.Object({
        namespaces: Type.Optional(Type.Array(Type.String())),
        labels: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  { description: 'Network exposure and access control.' },
);

/** @public */
export const StackSpecV1alpha1Schema = Type.Object(
  {
    replicas: Type.Optional(Int32({ default: 1 })),
    server: ServerSchema,
    network: Type.Optional(NetworkSchema),
  },
  { description: 'Desired state of a LlamaStackDistribution (v1alpha1).' },
);

const ProviderHealthSchema = Type.Object({
  message: Type.String(),
  status: Type.String(),
});

/** @public */
export const DistributionConfigStatusSchema = Type.Object({
  activeDistribution: Type.Optional(Type.String()),
  availableDistributions: Type.Optional(
    Type.Record(Type.String(), Type.String()),
  ),
  providers: Type.Optional(
    Type.Array(
      Type.Object({
        api: Type.String(),
        config: Type.Unknown({ 'x-kubernetes-preserve-unknown-fields': true }),
        health: ProviderHealthSchema,
        provider_id: Type.String(),
        provider_type: Type.String(),
      }),
    ),
  ),
});

/** @public */
export const VersionStatusSchema = Type.Object({
  lastUpdated: Type.Optional(DateTime()),
  llamaStackServerVersion: Type.Optional(Type.String()),
  operatorVersion: Type.Optional(Type.String()),
});

/** Status fields both versions share. @public */
export const commonStatusProperties = () => ({
  phase: Type.Optional(StringEnum(STACK_PHASES)),
  availableReplicas: Type.Optional(Int32()),
  distributionConfig: Type.Optional(DistributionConfigStatusSchema),
  version: Type.Optional(VersionStatusSchema),
  serviceURL: Type.Optional(Type.String()),
  routeURL: Type.Optional(Type.String()),
});

/** @public */
export const StackStatusV1alpha1Schema = Type.Object(
  {
    ...commonStatusProperties(),
    // Upstream keeps conditions as a plain list; a list-map would reject duplicates it accepts.
    conditions: Type.Optional(Type.Array(ConditionSchema)),
  },
  { description: 'Observed state of a LlamaStackDistribution (v1alpha1).' },
);

/** @public */
export const StackV1alpha1Schema = Type.Object(
  {
    ...typeMetaProperties(),
    spec: StackSpecV1alpha1Schema,
    status: Type.Optional(StackStatusV1alpha1Schema),
  },
  { description: 'A llama-stack server (v1alpha1, as released upstream).' },
);

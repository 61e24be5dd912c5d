/**
 * LlamaStackDistribution v1alpha2 (seed 004), the storage version. This is
 * the wire form the CRD stores: provider lists, model objects and an
 * `expose` object. The seed's shorthand forms (a single provider object, a
 * model given as a string, `expose: true`) are accepted by
 * `normalizeStackV1alpha2` and rewritten to this form before anything is
 * sent to a cluster (see README: a structural CRD cannot hold a value that is
 * "an object or a list" and still run CEL rules on it).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import {
  ConditionList,
  DateTime,
  FreeForm,
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
import {
  DEFAULT_SERVER_PORT,
  DEFAULT_STORAGE_MOUNT_PATH,
  DistributionConfigStatusSchema,
  STACK_PHASES,
  VersionStatusSchema,
} from './v1alpha1';

/** The provider APIs of `spec.providers` (FR-003), in the order config generation uses. @public */
export const PROVIDER_APIS = [
  'inference',
  'safety',
  'vectorIo',
  'toolRuntime',
  'telemetry',
] as const;
/** @public */
export type ProviderApi = (typeof PROVIDER_APIS)[number];

/**
 * API names `spec.disabled` accepts (FR-009), spelled like the seed
 * (`postTraining`) and like the keys of `spec.providers`.
 *
 * @public
 */
export const STACK_APIS = [
  'agents',
  'batches',
  'datasetio',
  'eval',
  'fileProcessors',
  'files',
  'inference',
  'postTraining',
  'responses',
  'safety',
  'scoring',
  'telemetry',
  'toolRuntime',
  'vectorIo',
] as const;
/** @public */
export type StackApi = (typeof STACK_APIS)[number];

/** At most this many providers per API: bounds the cost of the CRD's CEL rules. @public */
export const MAX_PROVIDERS_PER_API = 16;
/** @public */
export const MAX_PROVIDER_ID_LENGTH = 63;
/** Provider IDs become env var names (`LLSD_<ID>_<FIELD>`, FR-032), so only these characters. @public */
export const PROVIDER_ID_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?$';

/** @public */
export const SecretKeySelectorSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 253,
      description: 'Name of the Secret, in the same namespace.',
    }),
    key: Type.String({ minLength: 1, description: 'Key within the Secret.' }),
  },
  { description: 'A key of a Secret in the same namespace.' },
);

/** The CEL rule of a secret reference: the seed's form or upstream's flat form, not both. @public */
export const SECRET_REF_RULE = {
  rule: 'has(self.secretKeyRef) ? !has(self.name) && !has(self.key) : has(self.name) && has(self.key)',
  message: 'set either secretKeyRef: {name, key} or name and key',
};

/**
 * A reference to a secret value. Seed 004 writes it `{secretKeyRef: {name,
 * key}}`; upstream's v1alpha2 proposal writes `{name, key}`. Both are
 * accepted; `normalizeStackV1alpha2` rewrites the flat form to the seed's.
 *
 * @public
 */
export const SecretRefSchema = Type.Object(
  {
    secretKeyRef: Type.Optional(SecretKeySelectorSchema),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description: 'Flat form: name of the Secret.',
      }),
    ),
    key: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Flat form: key within the Secret.',
      }),
    ),
  },
  {
    $id: 'StackSecretRef',
    description: 'A value read from a Secret.',
    ...celRules(SECRET_REF_RULE),
  },
);

/** @public */
export const ProviderSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        maxLength: MAX_PROVIDER_ID_LENGTH,
        pattern: PROVIDER_ID_PATTERN,
        description:
          'Unique provider ID (provider_id). Required when several providers are listed for one API; defaults to `provider`.',
        errorMessage: `must be letters, digits, "-" or "_", at most ${MAX_PROVIDER_ID_LENGTH} characters, starting and ending with a letter or digit (it becomes part of env var names)`,
      }),
    ),
    provider: Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        'Provider type, e.g. "vllm" (becomes provider_type "remote::vllm").',
    }),
    endpoint: Type.Optional(
      Type.String({ description: 'URL of the provider (config.url).' }),
    ),
    apiKey: Type.Optional(SecretRefSchema),
    secretRefs: Type.Optional(
      Type.Record(Type.String(), SecretKeySelectorSchema, {
        description:
          'Named secret references: each key becomes config.<key>, read from an env var.',
      }),
    ),
    settings: Type.Optional(
      FreeForm({
        description:
          'Extra provider config, merged into config.yaml. A top-level value {secretKeyRef: {name, key}} is read from a Secret.',
      }),
    ),
  },
  { $id: 'StackProvider', description: 'One provider of an API.' },
);

/** FR-071: a list of several providers needs explicit ids. @public */
export function explicitIdRule(api: ProviderApi) {
  return {
    rule: 'self.size() <= 1 || self.all(p, has(p.id))',
    message: `providers.${api} lists several providers: give each one an explicit id`,
  };
}

/** FR-035: a provider without id takes its provider name as id, so that name must make a valid id. @public */
export function generatedIdRule(api: ProviderApi) {
  return {
    rule: `self.all(p, has(p.id) || p.provider.matches('${PROVIDER_ID_PATTERN}'))`,
    message: `providers.${api}: a provider without id uses its provider name as id, which must be letters, digits, "-" or "_": set an explicit id`,
  };
}

/** The CEL expression of the effective ids of one API's providers (FR-035: id, else provider). */
function idsOf(api: ProviderApi): string {
  return `(has(self.${api}) ? self.${api}.map(p, has(p.id) ? p.id : p.provider) : [])`;
}

/**
 * FR-072: provider ids are unique across all APIs. The message cannot list
 * the repeated ids: a `messageExpression` doing so exceeds the API server's
 * cost budget by far; `validateStackV1alpha2` names them, field by field.
 *
 * @public
 */
export const UNIQUE_PROVIDER_IDS_RULE = (() => {
  const all = `(${PROVIDER_APIS.map(idsOf).join(' + ')})`;
  return {
    rule: `${all}.all(x, ${all}.exists_one(y, y == x))`,
    message:
      'provider ids must be unique across all provider types (a provider without id uses its provider name as id): give the duplicates distinct ids',
  };
})();

const providerList = (api: ProviderApi) =>
  Type.Optional(
    Type.Array(ProviderSchema, {
      minItems: 1,
      maxItems: MAX_PROVIDERS_PER_API,
      description: `${api} providers: one provider, or several with explicit ids.`,
      ...celRules(explicitIdRule(api), generatedIdRule(api)),
    }),
  );

/** @public */
export const ProvidersSchema = Type.Object(
  {
    inference: providerList('inference'),
    safety: providerList('safety'),
    vectorIo: providerList('vectorIo'),
    toolRuntime: providerList('toolRuntime'),
    telemetry: providerList('telemetry'),
  },
  {
    description: 'Providers per API (FR-003).',
    ...celRules(UNIQUE_PROVIDER_IDS_RULE),
  },
);

/** @public */
export const ModelResourceSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      description: 'Model identifier, e.g. "llama3.2-8b".',
    }),
    provider: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Provider ID to register with; defaults to the first inference provider.',
      }),
    ),
    contextLength: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Context window size in tokens.',
      }),
    ),
    modelType: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Model type, e.g. "llm" or "embedding".',
      }),
    ),
    quantization: Type.Optional(
      Type.String({ minLength: 1, description: 'Quantization method.' }),
    ),
  },
  { $id: 'StackModelResource', description: 'A model to register.' },
);

/** @public */
export const ResourcesSchema = Type.Object(
  {
    models: Type.Optional(
      Type.Array(ModelResourceSchema, { description: 'Models to register.' }),
    ),
    tools: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'Tool groups to register with the toolRuntime provider.',
      }),
    ),
    shields: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'Shields to register with the safety provider.',
      }),
    ),
  },
  { description: 'Resources registered when the server starts (FR-006).' },
);

/** @public */
export const KV_STORAGE_TYPES = ['sqlite', 'redis'] as const;
/** @public */
export const SQL_STORAGE_TYPES = ['sqlite', 'postgres'] as const;

/** @public */
export const REDIS_ENDPOINT_RULE = {
  rule: "self.type != 'redis' || has(self.endpoint)",
  message: 'storage.kv.endpoint is required when storage.kv.type is redis',
};
/** @public */
export const POSTGRES_CONNECTION_RULE = {
  rule: "self.type != 'postgres' || has(self.connectionString)",
  message:
    'storage.sql.connectionString is required when storage.sql.type is postgres',
};

/** @public */
export const StorageSchema = Type.Object(
  {
    kv: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(
            StringEnum(KV_STORAGE_TYPES, {
              default: 'sqlite',
              description: 'sqlite or redis.',
            }),
          ),
          endpoint: Type.Optional(
            Type.String({
              minLength: 1,
              description: 'Redis endpoint, e.g. redis://redis:6379.',
            }),
          ),
          password: Type.Optional(SecretRefSchema),
        },
        { description: 'Key-value store.', ...celRules(REDIS_ENDPOINT_RULE) },
      ),
    ),
    sql: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(
            StringEnum(SQL_STORAGE_TYPES, {
              default: 'sqlite',
              description: 'sqlite or postgres.',
            }),
          ),
          connectionString: Type.Optional(SecretRefSchema),
        },
        {
          description: 'Relational store.',
          ...celRules(POSTGRES_CONNECTION_RULE),
        },
      ),
    ),
  },
  {
    description:
      'State storage (FR-008); without it the distribution defaults stay.',
  },
);

/** @public */
export const TLS_SECRET_RULE = {
  rule: '!has(self.enabled) || !self.enabled || has(self.secretName)',
  message:
    'networking.tls.secretName is required when networking.tls.enabled is true',
};

/** @public */
export const NetworkingSchema = Type.Object(
  {
    port: Type.Optional(
      Int32({
        minimum: 1,
        maximum: 65535,
        default: DEFAULT_SERVER_PORT,
        description: 'Server port.',
      }),
    ),
    tls: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({ description: 'Serve TLS (FR-061).' }),
          ),
          secretName: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'kubernetes.io/tls Secret with the server certificate.',
            }),
          ),
          caBundle: Type.Optional(CaBundleSchema),
        },
        {
          description:
            'TLS of the server, and custom CAs for its outgoing connections.',
          ...celRules(TLS_SECRET_RULE),
        },
      ),
    ),
    expose: Type.Optional(
      Type.Object(
        {
          hostname: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'Hostname of the Ingress/Route; generated when omitted.',
            }),
          ),
        },
        {
          description:
            'Expose the server outside the cluster (an empty object means expose with defaults).',
        },
      ),
    ),
    allowedFrom: Type.Optional(
      Type.Object(
        {
          namespaces: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), {
              description: 'Namespaces allowed ("*" for all).',
            }),
          ),
          labels: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), {
              description: 'Namespace label keys allowed.',
            }),
          ),
        },
        { description: 'NetworkPolicy: who may reach the server.' },
      ),
    ),
  },
  { description: 'Port, TLS, exposure and access (FR-010).', default: {} },
);

/** @public */
export const AUTOSCALING_RANGE_RULE = {
  rule: '!has(self.minReplicas) || self.maxReplicas >= self.minReplicas',
  message:
    'workload.autoscaling.maxReplicas must be greater than or equal to minReplicas',
};
/** @public */
export const PDB_EXCLUSIVE_RULE = {
  rule: '!(has(self.minAvailable) && has(self.maxUnavailable))',
  message:
    'workload.podDisruptionBudget: set minAvailable or maxUnavailable, not both',
};

/** @public */
export const WorkloadSchema = Type.Object(
  {
    replicas: Type.Optional(
      Int32({ minimum: 0, default: 1, description: 'Number of server pods.' }),
    ),
    workers: Type.Optional(
      Int32({ minimum: 1, description: 'Uvicorn workers per pod.' }),
    ),
    resources: Type.Optional(ResourceRequirementsSchema),
    autoscaling: Type.Optional(
      Type.Object(AutoscalingSchema(true).properties, {
        description: 'HorizontalPodAutoscaler settings.',
        ...celRules(AUTOSCALING_RANGE_RULE),
      }),
    ),
    storage: Type.Optional(
      Type.Object(
        {
          size: Type.Optional(
            Quantity({ description: 'Size of the PVC, e.g. "10Gi".' }),
          ),
          mountPath: Type.Optional(
            Type.String({
              minLength: 1,
              default: DEFAULT_STORAGE_MOUNT_PATH,
              description: 'Where the PVC is mounted.',
            }),
          ),
        },
        { description: 'Persistent volume for the server.' },
      ),
    ),
    podDisruptionBudget: Type.Optional(
      Type.Object(PodDisruptionBudgetSchema.properties, {
        description: 'PodDisruptionBudget of the server pods.',
        ...celRules(PDB_EXCLUSIVE_RULE),
      }),
    ),
    topologySpreadConstraints: Type.Optional(
      Type.Array(TopologySpreadConstraintSchema),
    ),
    overrides: Type.Optional(
      Type.Object(
        {
          serviceAccountName: Type.Optional(Type.String({ minLength: 1 })),
          terminationGracePeriodSeconds: Type.Optional(
            TerminationGracePeriodSeconds(),
          ),
          env: Type.Optional(Type.Array(EnvVarSchema)),
          command: Type.Optional(Type.Array(Type.String())),
          args: Type.Optional(Type.Array(Type.String())),
          volumes: Type.Optional(Type.Array(VolumeSchema)),
          volumeMounts: Type.Optional(Type.Array(VolumeMountSchema)),
        },
        { description: 'Pod and container overrides.' },
      ),
    ),
  },
  { description: 'Kubernetes Deployment settings (FR-012).', default: {} },
);

const ExternalProviderSchema = Type.Object({
  providerId: Type.String({ minLength: 1 }),
  image: Type.String({ minLength: 1 }),
});

/** @public */
export const ExternalProvidersSchema = Type.Object(
  Object.fromEntries(
    PROVIDER_APIS.map(api => [
      api,
      Type.Optional(Type.Array(ExternalProviderSchema)),
    ]),
  ) as unknown as Record<ProviderApi, TSchema>,
  {
    description:
      'Providers shipped as images (spec 001), merged into the generated config.',
  },
);

/** @public */
export const DISTRIBUTION_RULES = [
  {
    rule: '!(has(self.name) && has(self.image))',
    message: 'spec.distribution: set name or image, not both',
  },
  {
    rule: 'has(self.name) || has(self.image)',
    message: 'spec.distribution: set name (e.g. "starter") or image',
  },
];

/** FR-070: overrideConfig replaces the generated config, so it excludes what generates it. @public */
export const OVERRIDE_EXCLUSIVE_FIELDS = [
  'providers',
  'resources',
  'storage',
  'disabled',
] as const;
/** @public */
export const OVERRIDE_RULES = OVERRIDE_EXCLUSIVE_FIELDS.map(field => ({
  rule: `!has(self.overrideConfig) || !has(self.${field})`,
  message: `spec.overrideConfig and spec.${field} are mutually exclusive: remove one of them`,
}));

/** @public */
export const StackSpecV1alpha2Schema = Type.Object(
  {
    distribution: Type.Object(
      {
        name: Type.Optional(
          Type.String({
            minLength: 1,
            description: 'Named distribution, e.g. "starter".',
          }),
        ),
        image: Type.Optional(
          Type.String({
            minLength: 1,
            description: 'Container image to run directly.',
          }),
        ),
      },
      {
        description: 'Which llama-stack server to run (FR-002).',
        ...celRules(...DISTRIBUTION_RULES),
      },
    ),
    providers: Type.Optional(ProvidersSchema),
    resources: Type.Optional(ResourcesSchema),
    storage: Type.Optional(StorageSchema),
    disabled: Type.Optional(
      Type.Array(StringEnum(STACK_APIS), {
        description: 'APIs to disable (FR-009).',
      }),
    ),
    networking: Type.Optional(NetworkingSchema),
    workload: Type.Optional(WorkloadSchema),
    externalProviders: Type.Optional(ExternalProvidersSchema),
    overrideConfig: Type.Optional(
      Type.Object(
        {
          configMapName: Type.String({
            minLength: 1,
            description: 'ConfigMap (same namespace) with config.yaml.',
          }),
        },
        {
          description:
            'Use this config.yaml instead of generating one (FR-013).',
        },
      ),
    ),
  },
  {
    description: 'Desired state of a LlamaStackDistribution (v1alpha2).',
    ...celRules(...OVERRIDE_RULES),
  },
);

/** Known values of status.resolvedDistribution.configSource (seed 004: embedded, oci-label; overrideConfig: configmap). @public */
export const CONFIG_SOURCES = ['embedded', 'oci-label', 'configmap'] as const;

/** @public */
export const StackStatusV1alpha2Schema = Type.Object(
  {
    phase: Type.Optional(StringEnum(STACK_PHASES)),
    conditions: Type.Optional(ConditionList()),
    availableReplicas: Type.Optional(Int32()),
    resolvedDistribution: Type.Optional(
      Type.Object(
        {
          image: Type.Optional(
            Type.String({
              description: 'Image reference the distribution resolved to.',
            }),
          ),
          configSource: Type.Optional(
            Type.String({
              description: `Where the base config came from: ${CONFIG_SOURCES.join(
                ', ',
              )}.`,
            }),
          ),
          configHash: Type.Optional(
            Type.String({ description: 'Hash of the generated config.' }),
          ),
        },
        { description: 'The resolved image and config (FR-020a).' },
      ),
    ),
    configGeneration: Type.Optional(
      Type.Object(
        {
          configMapName: Type.Optional(Type.String()),
          generatedAt: Type.Optional(DateTime()),
          providerCount: Type.Optional(Type.Integer({ minimum: 0 })),
          resourceCount: Type.Optional(Type.Integer({ minimum: 0 })),
          configVersion: Type.Optional(
            Type.Integer({
              description: 'config.yaml schema version of the base config.',
            }),
          ),
        },
        { description: 'The last generated config.' },
      ),
    ),
    distributionConfig: Type.Optional(DistributionConfigStatusSchema),
    version: Type.Optional(VersionStatusSchema),
    serviceURL: Type.Optional(Type.String()),
    routeURL: Type.Optional(Type.String()),
  },
  { description: 'Observed state of a LlamaStackDistribution (v1alpha2).' },
);

/** @public */
export const StackV1alpha2Schema = Type.Object(
  {
    ...typeMetaProperties(),
    spec: StackSpecV1alpha2Schema,
    status: Type.Optional(StackStatusV1alpha2Schema),
  },
  {
    description:
      'A llama-stack server whose config.yaml the operator generates (v1alpha2).',
  },
);

/**
 * The status conditions of v1alpha2 (seed 004 FR-099 and its status
 * contract), with the reasons each may carry, for the operator that writes
 * them and the views that explain them.
 *
 * @public
 */
export const STACK_CONDITIONS = {
  ConfigGenerated: {
    true: ['ConfigGenerationSucceeded'],
    false: [
      'ConfigGenerationFailed',
      'BaseConfigRequired',
      'UnsupportedConfigVersion',
      'UpgradeConfigFailure',
      'MissingProviderForResource',
    ],
  },
  DeploymentUpdated: {
    true: ['DeploymentUpdateSucceeded'],
    false: ['DeploymentUpdateFailed', 'DeploymentUpdateSkipped'],
  },
  Available: {
    true: ['MinimumReplicasAvailable'],
    false: ['ReplicasUnavailable', 'RolloutInProgress'],
  },
  SecretsResolved: {
    true: ['AllSecretsFound'],
    false: ['SecretNotFound', 'SecretKeyMissing'],
  },
} as const;
/** @public */
export type StackConditionType = keyof typeof STACK_CONDITIONS;

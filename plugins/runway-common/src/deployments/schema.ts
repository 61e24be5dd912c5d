/**
 * The schemas of ModelDeployment and InferenceProviderConfig
 * (airunway.ai/v1alpha1), written once. The CRDs, the generated types, the
 * structural checks and the CEL rules all come from here.
 *
 * Wire compatibility: every field of upstream's CRDs
 * (../shared/upstream/airunway) is here with the same name, type, enum and
 * default; `src/deployments/upstream.test.ts` compares them path by path.
 * Additions are optional fields only (selection rule `reason`, provider
 * `compatibilityRules`, the seeds' flat capability fields), so everything
 * upstream's CRDs accept, ours accept.
 */
import { Type } from '@sinclair/typebox';
import {
  ConditionList,
  DateTime,
  EnvVarSchema,
  FreeForm,
  Int32,
  Int64,
  IntOrString,
  NameOrObject,
  Quantity,
  StringEnum,
  StringMap,
  TolerationSchema,
  celRules,
  typeMetaProperties,
} from '../schema';
import {
  API_FORMATS,
  DEFAULT_GPU_RESOURCE,
  DEPLOYMENT_PHASES,
  ENGINE_TYPES,
  MODEL_SOURCES,
  SERVING_MODES,
  VOLUME_ACCESS_MODES,
  VOLUME_PURPOSES,
} from './constants';

// ---- CEL building blocks for the spec-level rules (self = spec) ----

const DISAGGREGATED =
  "(has(self.serving) && has(self.serving.mode) && self.serving.mode == 'disaggregated')";
const GPU_REQUESTED =
  '(has(self.resources) && has(self.resources.gpu) && has(self.resources.gpu.count) && self.resources.gpu.count > 0)';
const engineIs = (engine: string) =>
  `(has(self.engine) && has(self.engine.type) && self.engine.type == '${engine}')`;
const componentHas = (component: 'prefill' | 'decode', check: string) =>
  `!${DISAGGREGATED} || !has(self.scaling) || !has(self.scaling.${component}) || (${check})`;

/**
 * Seed 000 section 8 / seed 002 rules that the API server can check itself.
 * Messages are the seeds' exact text.
 *
 * @public
 */
export const MODEL_DEPLOYMENT_SPEC_RULES = [
  {
    rule: `!${engineIs('vllm')} || ${DISAGGREGATED} || ${GPU_REQUESTED}`,
    message: 'vLLM engine requires GPU (set resources.gpu.count > 0)',
    fieldPath: '.resources.gpu.count',
  },
  {
    rule: `!${engineIs('sglang')} || ${DISAGGREGATED} || ${GPU_REQUESTED}`,
    message: 'SGLang engine requires GPU (set resources.gpu.count > 0)',
    fieldPath: '.resources.gpu.count',
  },
  {
    rule: `!${engineIs('trtllm')} || ${DISAGGREGATED} || ${GPU_REQUESTED}`,
    message: 'TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)',
    fieldPath: '.resources.gpu.count',
  },
  {
    rule: `!${engineIs(
      'custom',
    )} || (has(self.image) && self.image != '') || (has(self.engine.image) && self.engine.image != '')`,
    message:
      'engine.type custom requires an image: set spec.image to the container that runs your inference server (a custom engine has no default image)',
    fieldPath: '.image',
  },
  {
    rule: `!${DISAGGREGATED} || !${GPU_REQUESTED}`,
    message: 'Cannot specify both resources.gpu and scaling.prefill/decode',
    fieldPath: '.resources.gpu',
  },
  {
    rule: `!${DISAGGREGATED} || (has(self.scaling) && has(self.scaling.prefill) && has(self.scaling.decode))`,
    message: 'Disaggregated mode requires scaling.prefill and scaling.decode',
    fieldPath: '.scaling',
  },
  {
    rule: componentHas(
      'prefill',
      'has(self.scaling.prefill.gpu) && has(self.scaling.prefill.gpu.count) && self.scaling.prefill.gpu.count > 0',
    ),
    message: 'Disaggregated mode requires scaling.prefill.gpu.count',
    fieldPath: '.scaling.prefill.gpu.count',
  },
  {
    rule: componentHas(
      'decode',
      'has(self.scaling.decode.gpu) && has(self.scaling.decode.gpu.count) && self.scaling.decode.gpu.count > 0',
    ),
    message: 'Disaggregated mode requires scaling.decode.gpu.count',
    fieldPath: '.scaling.decode.gpu.count',
  },
  {
    rule: componentHas(
      'prefill',
      "has(self.scaling.prefill.memory) && string(self.scaling.prefill.memory) != ''",
    ),
    message: 'Disaggregated mode requires scaling.prefill.memory',
    fieldPath: '.scaling.prefill.memory',
  },
  {
    rule: componentHas(
      'decode',
      "has(self.scaling.decode.memory) && string(self.scaling.decode.memory) != ''",
    ),
    message: 'Disaggregated mode requires scaling.decode.memory',
    fieldPath: '.scaling.decode.memory',
  },
];

/** @public */
export const MODEL_RULE = {
  rule: "(has(self.source) && self.source == 'custom') || (has(self.id) && self.id != '')",
  message: 'model.id is required when source is huggingface',
  fieldPath: '.id',
};

/** Seed 002: engine.type is immutable once set (a transition rule: runs on update only). @public */
export const ENGINE_TYPE_IMMUTABLE_RULE = {
  rule: '!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)',
  message:
    'engine.type is immutable once set; delete and recreate the ModelDeployment to change the engine',
  fieldPath: '.type',
};

// ---- ModelDeployment ----

const GpuSchema = Type.Object(
  {
    count: Type.Optional(
      Int32({
        minimum: 0,
        default: 0,
        description: 'Number of GPUs per replica; 0 or omitted means CPU only.',
      }),
    ),
    type: Type.Optional(
      Type.String({
        default: DEFAULT_GPU_RESOURCE,
        description:
          'GPU resource name (nvidia.com/gpu; override for AMD or Intel).',
      }),
    ),
  },
  { $id: 'GpuSpec', description: 'GPU requirements.' },
);

const ComponentScalingSchema = Type.Object(
  {
    replicas: Type.Optional(
      Int32({
        minimum: 0,
        default: 1,
        description: 'Number of workers of this component.',
      }),
    ),
    gpu: Type.Optional(GpuSchema),
    memory: Type.Optional(
      IntOrString({
        description:
          'Memory per worker, a quantity such as 64Gi (required in disaggregated mode).',
      }),
    ),
  },
  {
    $id: 'ComponentScalingSpec',
    description: 'A prefill or decode worker group (disaggregated mode).',
  },
);

const StorageVolumeSchema = Type.Object(
  {
    name: Type.String({
      maxLength: 63,
      pattern: '^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$',
      description: 'Volume name, unique in the list (a DNS label).',
    }),
    claimName: Type.Optional(
      Type.String({
        description:
          'Existing PVC to mount; generated as <deployment>-<volume> when size is set.',
      }),
    ),
    mountPath: Type.Optional(
      Type.String({
        description:
          'Absolute mount path; defaults by purpose (/model-cache, /compilation-cache).',
      }),
    ),
    purpose: Type.Optional(
      StringEnum(VOLUME_PURPOSES, {
        default: 'custom',
        description: 'What the volume holds.',
      }),
    ),
    readOnly: Type.Optional(
      Type.Boolean({ default: false, description: 'Mount read-only.' }),
    ),
    size: Type.Optional(
      Quantity({
        description:
          'Size of a PVC the controller creates; omit to mount an existing claim.',
      }),
    ),
    storageClassName: Type.Optional(
      Type.String({
        description: 'Storage class of a controller-created PVC.',
      }),
    ),
    accessMode: Type.Optional(
      StringEnum(VOLUME_ACCESS_MODES, {
        description: 'Access mode of a controller-created PVC.',
      }),
    ),
  },
  { $id: 'StorageVolume', description: 'A persistent volume for model data.' },
);

/** @public */
export const ModelDeploymentSpecSchema = Type.Object(
  {
    model: Type.Object(
      {
        id: Type.Optional(
          Type.String({
            description:
              'Model identifier, e.g. a HuggingFace model ID (required when source is huggingface).',
          }),
        ),
        servedName: Type.Optional(
          Type.String({
            description:
              'API-facing model name; defaults to the model ID basename (not used for source=custom).',
          }),
        ),
        source: Type.Optional(
          StringEnum(MODEL_SOURCES, {
            default: 'huggingface',
            description: 'Where the model comes from.',
          }),
        ),
        storage: Type.Optional(
          Type.Object(
            {
              volumes: Type.Optional(
                Type.Array(StorageVolumeSchema, {
                  maxItems: 8,
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['name'],
                  description: 'Volumes mounted into the model server.',
                }),
              ),
            },
            {
              description:
                'Persistent storage for model data (weights, compilation caches).',
            },
          ),
        ),
      },
      {
        $id: 'ModelSpec',
        description: 'The model to serve.',
        ...celRules(MODEL_RULE),
      },
    ),
    provider: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(
            Type.String({
              description:
                'Provider name (kaito, dynamo, kuberay, llmd, ...); auto-selected when empty.',
            }),
          ),
          overrides: Type.Optional(
            FreeForm({
              description: 'Provider-specific settings (escape hatch).',
            }),
          ),
        },
        { $id: 'ProviderSpec', description: 'Provider selection.' },
      ),
    ),
    engine: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(
            StringEnum(ENGINE_TYPES, {
              description:
                'Inference engine; auto-selected from ready providers when empty.',
            }),
          ),
          contextLength: Type.Optional(
            Int32({
              description:
                'Maximum context length (--max-model-len for vllm, --context-length for sglang, --ctx-size for llama.cpp).',
            }),
          ),
          trustRemoteCode: Type.Optional(
            Type.Boolean({
              default: false,
              description: 'Allow remote code from HuggingFace (vllm, sglang).',
            }),
          ),
          enablePrefixCaching: Type.Optional(
            Type.Boolean({
              default: true,
              description: 'Enable prefix caching (vllm, sglang).',
            }),
          ),
          enforceEager: Type.Optional(
            Type.Boolean({
              default: false,
              description:
                'Force eager execution, no CUDA graphs (vllm, sglang).',
            }),
          ),
          args: Type.Optional(
            StringMap({
              description: 'Engine arguments passed as --key value.',
            }),
          ),
          extraArgs: Type.Optional(
            Type.Array(Type.String(), {
              description: 'Raw engine flags without a structured field.',
            }),
          ),
          image: Type.Optional(
            Type.String({
              description: 'Engine-specific container image override.',
            }),
          ),
        },
        {
          $id: 'EngineSpec',
          description: 'Inference engine configuration.',
          ...celRules(ENGINE_TYPE_IMMUTABLE_RULE),
        },
      ),
    ),
    serving: Type.Optional(
      Type.Object(
        {
          mode: Type.Optional(
            StringEnum(SERVING_MODES, {
              default: 'aggregated',
              description: 'Serving mode.',
            }),
          ),
        },
        {
          $id: 'ServingSpec',
          description: 'Serving mode configuration.',
          // With the nested defaults: the API server fills in mode aggregated, no webhook call needed.
          default: {},
        },
      ),
    ),
    scaling: Type.Optional(
      Type.Object(
        {
          replicas: Type.Optional(
            Int32({
              minimum: 0,
              default: 1,
              description: 'Replicas in aggregated mode (0 scales to zero).',
            }),
          ),
          prefill: Type.Optional(ComponentScalingSchema),
          decode: Type.Optional(ComponentScalingSchema),
        },
        {
          $id: 'ScalingSpec',
          description: 'Scaling configuration.',
          // replicas 1; disaggregated mode needs scaling.prefill and .decode given anyway.
          default: {},
        },
      ),
    ),
    resources: Type.Optional(
      Type.Object(
        {
          gpu: Type.Optional(GpuSchema),
          memory: Type.Optional(
            IntOrString({
              description: 'Memory per replica, a quantity such as 32Gi.',
            }),
          ),
          cpu: Type.Optional(
            IntOrString({
              description: 'CPU per replica, a quantity such as 4 or 500m.',
            }),
          ),
        },
        {
          $id: 'ResourceSpec',
          description:
            'Resources per replica (aggregated mode; use scaling.prefill/decode when disaggregated).',
        },
      ),
    ),
    image: Type.Optional(
      Type.String({ description: 'Custom container image.' }),
    ),
    env: Type.Optional(
      Type.Array(EnvVarSchema, {
        description: 'Environment variables of the model server.',
      }),
    ),
    podTemplate: Type.Optional(
      Type.Object(
        {
          metadata: Type.Optional(
            Type.Object(
              {
                labels: Type.Optional(
                  StringMap({ description: 'Labels for created pods.' }),
                ),
                annotations: Type.Optional(
                  StringMap({ description: 'Annotations for created pods.' }),
                ),
              },
              { description: 'Labels and annotations for created pods.' },
            ),
          ),
        },
        { description: 'Pod customisation.' },
      ),
    ),
    secrets: Type.Optional(
      Type.Object(
        {
          huggingFaceToken: Type.Optional(
            Type.String({
              description: 'Name of the Secret holding HF_TOKEN.',
            }),
          ),
        },
        {
          description: 'Secret references (names only; values are never read).',
        },
      ),
    ),
    nodeSelector: Type.Optional(
      StringMap({ description: 'Node labels the pods must match.' }),
    ),
    tolerations: Type.Optional(
      Type.Array(TolerationSchema, { description: 'Tolerations of the pods.' }),
    ),
    gateway: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({
              description:
                'Create an InferencePool and HTTPRoute; defaults to true when a Gateway exists.',
            }),
          ),
          httpRouteRef: Type.Optional(
            Type.String({
              description:
                'Use this existing HTTPRoute (same namespace) instead of creating one.',
            }),
          ),
          modelName: Type.Optional(
            Type.String({
              description:
                'Model name used in routing; defaults to servedName or model ID.',
            }),
          ),
        },
        { $id: 'GatewaySpec', description: 'Gateway API integration.' },
      ),
    ),
  },
  {
    $id: 'ModelDeploymentSpec',
    description: 'Desired state of a ModelDeployment.',
    ...celRules(...MODEL_DEPLOYMENT_SPEC_RULES),
  },
);

/** @public */
export const ModelDeploymentStatusSchema = Type.Object(
  {
    phase: Type.Optional(
      StringEnum(DEPLOYMENT_PHASES, { description: 'Current phase.' }),
    ),
    message: Type.Optional(
      Type.String({ description: 'Human-readable state.' }),
    ),
    provider: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(
            Type.String({
              description: 'Selected provider (core controller).',
            }),
          ),
          selectedReason: Type.Optional(
            Type.String({
              description: 'Why this provider was selected (core controller).',
            }),
          ),
          resourceName: Type.Optional(
            Type.String({
              description:
                'Name of the upstream resource (provider controller).',
            }),
          ),
          resourceKind: Type.Optional(
            Type.String({
              description:
                'Kind of the upstream resource (provider controller).',
            }),
          ),
        },
        { description: 'Provider information.' },
      ),
    ),
    engine: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(
            StringEnum(ENGINE_TYPES, { description: 'Resolved engine.' }),
          ),
          selectedReason: Type.Optional(
            Type.String({ description: 'Why this engine was selected.' }),
          ),
        },
        { description: 'Resolved engine (core controller).' },
      ),
    ),
    replicas: Type.Optional(
      Type.Object(
        {
          desired: Type.Optional(Int32({ description: 'Desired replicas.' })),
          ready: Type.Optional(Int32({ description: 'Ready replicas.' })),
          available: Type.Optional(
            Int32({ description: 'Available replicas.' }),
          ),
        },
        { description: 'Replica counts (provider controller).' },
      ),
    ),
    endpoint: Type.Optional(
      Type.Object(
        {
          service: Type.Optional(
            Type.String({ description: 'ClusterIP Service name.' }),
          ),
          port: Type.Optional(Int32({ description: 'Service port.' })),
        },
        { description: 'Service endpoint (provider controller).' },
      ),
    ),
    gateway: Type.Optional(
      Type.Object(
        {
          endpoint: Type.Optional(
            Type.String({ description: 'Unified gateway endpoint URL.' }),
          ),
          modelName: Type.Optional(
            Type.String({ description: 'Model name to use in API requests.' }),
          ),
          gatewayNamespace: Type.Optional(
            Type.String({
              description: 'Namespace of the Gateway used for routing.',
            }),
          ),
          apiFormats: Type.Optional(
            Type.Array(StringEnum(API_FORMATS), {
              description: 'API formats the engine supports.',
            }),
          ),
        },
        { description: 'Gateway integration (core controller).' },
      ),
    ),
    image: Type.Optional(
      Type.Object(
        {
          requested: Type.Optional(
            Type.String({
              description: 'Image requested by the user or resolver.',
            }),
          ),
          resolved: Type.Optional(
            Type.String({ description: 'Fully resolved image used.' }),
          ),
          repository: Type.Optional(
            Type.String({ description: 'Image repository.' }),
          ),
          tag: Type.Optional(Type.String({ description: 'Image tag.' })),
          digest: Type.Optional(
            Type.String({ description: 'Immutable image digest.' }),
          ),
          source: Type.Optional(
            Type.String({
              description:
                'How the image was chosen: stable, nightly, launch or custom.',
            }),
          ),
          revision: Type.Optional(
            Type.String({
              description: 'Upstream source revision of the image.',
            }),
          ),
          createdAt: Type.Optional(
            Type.String({ description: 'Image creation time.' }),
          ),
          age: Type.Optional(
            Type.String({ description: 'Human-readable image age.' }),
          ),
          inNightly: Type.Optional(
            Type.Boolean({
              description: 'Whether the image is in the nightly catalog.',
            }),
          ),
          verified: Type.Optional(
            Type.Boolean({
              description: 'Whether the image passed verification.',
            }),
          ),
          verificationMessage: Type.Optional(
            Type.String({ description: 'Verification details.' }),
          ),
          message: Type.Optional(
            Type.String({ description: 'Resolution or verification details.' }),
          ),
        },
        { description: 'Resolved and verified image.' },
      ),
    ),
    conditions: Type.Optional(
      ConditionList(
        'Validated, EngineSelected, ProviderSelected, ProviderCompatible, ResourceCreated, Ready, GatewayReady.',
      ),
    ),
    observedGeneration: Type.Optional(
      Int64({ description: 'Generation last processed.' }),
    ),
  },
  {
    $id: 'ModelDeploymentStatus',
    description: 'Observed state of a ModelDeployment.',
  },
);

/** @public */
export const ModelDeploymentSchema = Type.Object(
  {
    ...typeMetaProperties(),
    spec: ModelDeploymentSpecSchema,
    status: Type.Optional(ModelDeploymentStatusSchema),
  },
  {
    description:
      'A model served on Kubernetes by an inference provider (KAITO, Dynamo, KubeRay, llm-d, ...).',
  },
);

// ---- InferenceProviderConfig ----

/** @public */
export const EngineCapabilitySchema = Type.Object(
  {
    name: StringEnum(ENGINE_TYPES, { description: 'Engine.' }),
    servingModes: Type.Optional(
      Type.Array(StringEnum(SERVING_MODES), {
        description:
          'Serving modes supported with this engine (omitted: aggregated).',
      }),
    ),
    apiFormats: Type.Optional(
      Type.Array(StringEnum(API_FORMATS), {
        description: 'API formats this engine serves (empty: openai-chat).',
      }),
    ),
    cpuSupport: Type.Optional(
      Type.Boolean({ description: 'Supports CPU-only inference.' }),
    ),
    gpuSupport: Type.Optional(
      Type.Boolean({ description: 'Supports GPU inference.' }),
    ),
    requiresCRD: Type.Optional(
      Type.Boolean({
        description: 'Needs an upstream CRD/operator (omitted: true).',
      }),
    ),
    gateway: Type.Optional(
      Type.Object(
        {
          endpointPicker: Type.Optional(
            Type.Object(
              {
                configData: Type.Optional(
                  Type.String({
                    description: 'EndpointPickerConfig YAML for the EPP.',
                  }),
                ),
                image: Type.Optional(
                  Type.String({
                    description: 'EPP image; empty uses the default.',
                  }),
                ),
              },
              {
                description: 'EPP customisation for the default InferencePool.',
              },
            ),
          ),
          ignoresServedName: Type.Optional(
            Type.Boolean({
              description: 'Gateway routing ignores spec.model.servedName.',
            }),
          ),
          inferencePoolNamePattern: Type.Optional(
            Type.String({
              description:
                'Name pattern of provider-created pools ({name}, {namespace}).',
            }),
          ),
          inferencePoolNamespace: Type.Optional(
            Type.String({
              description:
                'Namespace of provider-created pools ({name}, {namespace}).',
            }),
          ),
          managesInferencePool: Type.Optional(
            Type.Boolean({
              description: "The provider's operator owns the InferencePool.",
            }),
          ),
        },
        { description: 'Gateway capabilities of this engine.' },
      ),
    ),
  },
  {
    $id: 'EngineCapability',
    description: 'What a provider offers for one engine.',
  },
);

/** @public */
export const SelectionRuleSchema = Type.Object(
  {
    condition: Type.String({
      description:
        'CEL expression over `spec` (the ModelDeployment spec); true selects this provider.',
    }),
    priority: Type.Optional(
      Int32({
        minimum: 0,
        default: 0,
        description:
          'Higher wins; ties go to the provider name first in alphabetical order.',
      }),
    ),
    reason: Type.Optional(
      Type.String({
        description:
          'Text recorded in status.provider.selectedReason when this rule selects the provider.',
      }),
    ),
  },
  {
    $id: 'SelectionRule',
    description: 'A rule for auto-selecting this provider.',
  },
);

/** @public */
export const CompatibilityRuleSchema = Type.Object(
  {
    rule: Type.String({
      minLength: 1,
      description:
        'CEL expression over `spec`; false means the deployment is not compatible.',
    }),
    message: Type.String({
      minLength: 1,
      description: 'What is incompatible and how to fix it.',
    }),
    fieldPath: Type.Optional(
      Type.String({
        description: 'Field the message is about, e.g. spec.engine.type.',
      }),
    ),
    severity: Type.Optional(
      StringEnum(['error', 'warning'] as const, {
        default: 'error',
        description: 'A warning does not block.',
      }),
    ),
  },
  {
    $id: 'CompatibilityRule',
    description: 'A check a provider applies to deployments it serves.',
  },
);

/** @public */
export const InferenceProviderConfigSpecSchema = Type.Object(
  {
    capabilities: Type.Optional(
      Type.Object(
        {
          engines: Type.Optional(
            Type.Array(
              NameOrObject(ENGINE_TYPES, EngineCapabilitySchema, {
                description:
                  'An engine: its name (seed form, with the flat fields below) or its capabilities (per-engine form).',
              }),
              {
                description:
                  'Engines, each a name (`[vllm, llamacpp]`, seed 000 section 3.9) or an object with per-engine capabilities (`[{name: vllm, gpuSupport: true}]`); readers normalise names to objects (normaliseProviderConfig).',
              },
            ),
          ),
          servingModes: Type.Optional(
            Type.Array(StringEnum(SERVING_MODES), {
              description:
                'Seed form: serving modes of every engine (normalised into engines[]).',
            }),
          ),
          cpuSupport: Type.Optional(
            Type.Boolean({
              description:
                'Seed form: CPU support of every engine (normalised into engines[]).',
            }),
          ),
          gpuSupport: Type.Optional(
            Type.Boolean({
              description:
                'Seed form: GPU support of every engine (normalised into engines[]).',
            }),
          ),
        },
        {
          $id: 'ProviderCapabilities',
          description: 'What this provider supports.',
        },
      ),
    ),
    selectionRules: Type.Optional(
      Type.Array(SelectionRuleSchema, {
        description:
          'Rules for auto-selection; none means explicit selection only.',
      }),
    ),
    compatibilityRules: Type.Optional(
      Type.Array(CompatibilityRuleSchema, {
        description: 'Checks applied to deployments using this provider.',
      }),
    ),
    documentation: Type.Optional(
      Type.String({ description: 'Documentation link.' }),
    ),
  },
  {
    $id: 'InferenceProviderConfigSpec',
    description: 'Capabilities and selection rules of a provider.',
  },
);

/** @public */
export const InferenceProviderConfigStatusSchema = Type.Object(
  {
    ready: Type.Optional(
      Type.Boolean({ description: 'The provider accepts workloads.' }),
    ),
    version: Type.Optional(
      Type.String({ description: 'Version of the provider controller.' }),
    ),
    lastHeartbeat: Type.Optional(
      DateTime({
        description: 'Last time the provider controller updated this status.',
      }),
    ),
    upstreamCRDVersion: Type.Optional(
      Type.String({
        description:
          'API version of the upstream resource the provider creates.',
      }),
    ),
    upstreamSchemaHash: Type.Optional(
      Type.String({ description: 'Hash of the upstream CRD schema.' }),
    ),
    conditions: Type.Optional(ConditionList('Current state of the provider.')),
  },
  {
    $id: 'InferenceProviderConfigStatus',
    description: 'Written by the provider controller.',
  },
);

/** @public */
export const InferenceProviderConfigSchema = Type.Object(
  {
    ...typeMetaProperties(),
    spec: Type.Optional(InferenceProviderConfigSpecSchema),
    status: Type.Optional(InferenceProviderConfigStatusSchema),
  },
  { description: 'A registered inference provider (cluster-scoped).' },
);

/**
 * The built-in provider registrations: KAITO, Dynamo, KubeRay and llm-d, as
 * the InferenceProviderConfig objects their provider controllers register.
 * Everything provider-specific is data here (capabilities, selection rules,
 * compatibility rules); the core only evaluates it.
 *
 * Selection rules and priorities reproduce seed 000 section 4.4 exactly, in
 * its order: no GPU → kaito (100), trtllm/sglang → dynamo (90), llamacpp →
 * kaito (80), disaggregated → dynamo (70), any other GPU deployment → dynamo
 * (10). KubeRay and llm-d have no selection rules: they are only used when
 * named in spec.provider.name (seed 000 section 2.4; upstream's llm-d).
 *
 * "No GPU requested" counts a disaggregated deployment as a GPU deployment:
 * its GPUs are in scaling.prefill/decode (resources.gpu is not allowed there),
 * and reading 4.4 literally would send every disaggregated deployment to
 * KAITO, which does not support that mode, and leave the seed's
 * "mode=disaggregated → dynamo" branch unreachable.
 */
import { DEPLOYMENTS_API_VERSION } from './constants';
import type { CompatibilityRule, InferenceProviderConfig } from './types';

const DISAGGREGATED =
  "(has(spec.serving) && has(spec.serving.mode) && spec.serving.mode == 'disaggregated')";
const GPU_COUNT_POSITIVE =
  '(has(spec.resources) && has(spec.resources.gpu) && has(spec.resources.gpu.count) && spec.resources.gpu.count > 0)';
/** True when the deployment asks for GPUs (resources.gpu in aggregated mode; prefill/decode when disaggregated). @public */
export const CEL_GPU_REQUESTED = `(${DISAGGREGATED} || ${GPU_COUNT_POSITIVE})`;
const engineIs = (engine: string) =>
  `(has(spec.engine) && has(spec.engine.type) && spec.engine.type == '${engine}')`;

const unsupportedEngine = (
  display: string,
  engine: string,
): CompatibilityRule => ({
  rule: `!${engineIs(engine)}`,
  message: `${display} does not support ${engine} engine`,
  fieldPath: 'spec.engine.type',
});

const requiresGpu = (display: string): CompatibilityRule => ({
  rule: CEL_GPU_REQUESTED,
  message: `${display} requires GPU`,
  fieldPath: 'spec.resources.gpu.count',
});

function registration(
  name: string,
  annotations: Record<string, string>,
  spec: InferenceProviderConfig['spec'],
): InferenceProviderConfig {
  return {
    apiVersion: DEPLOYMENTS_API_VERSION,
    kind: 'InferenceProviderConfig',
    metadata: {
      name,
      labels: {
        'app.kubernetes.io/name': 'runway-portal',
        'app.kubernetes.io/component': `${name}-provider`,
      },
      annotations,
    },
    spec,
  };
}

const docs = (name: string) =>
  `https://github.com/ai-runway/airunway/tree/main/docs/providers/${name}.md`;

/** @public */
export const KAITO_PROVIDER = registration(
  'kaito',
  {
    'airunway.ai/display-name': 'KAITO',
    'airunway.ai/description':
      'Kubernetes AI Toolchain Operator for simplified model deployment',
    'airunway.ai/default-namespace': 'kaito-workspace',
    'airunway.ai/documentation-url': docs('kaito'),
  },
  {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
        },
        {
          name: 'llamacpp',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
          cpuSupport: true,
          // KAITO's llama.cpp does not serve under spec.model.servedName: the gateway routes by the model id (as upstream).
          gateway: { ignoresServedName: true },
        },
      ],
    },
    selectionRules: [
      {
        condition: `!${CEL_GPU_REQUESTED}`,
        priority: 100,
        reason: 'no GPU requested → kaito (only CPU provider)',
      },
      {
        condition: engineIs('llamacpp'),
        priority: 80,
        reason: 'engine=llamacpp → kaito (only llamacpp provider)',
      },
    ],
    compatibilityRules: [
      unsupportedEngine('KAITO', 'sglang'),
      unsupportedEngine('KAITO', 'trtllm'),
      unsupportedEngine('KAITO', 'custom'),
      {
        rule: `!${DISAGGREGATED}`,
        message: 'KAITO does not support disaggregated mode',
        fieldPath: 'spec.serving.mode',
      },
    ],
    documentation: docs('kaito'),
  },
);

/** @public */
export const DYNAMO_PROVIDER = registration(
  'dynamo',
  {
    'airunway.ai/display-name': 'Dynamo',
    'airunway.ai/description':
      'NVIDIA Dynamo for high-performance GPU inference',
    'airunway.ai/default-namespace': 'dynamo-system',
    'airunway.ai/documentation-url': docs('dynamo'),
  },
  {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
        },
        {
          name: 'sglang',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'anthropic-messages'],
          gpuSupport: true,
        },
        {
          name: 'trtllm',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat', 'openai-responses'],
          gpuSupport: true,
        },
      ],
    },
    selectionRules: [
      {
        condition: engineIs('trtllm'),
        priority: 90,
        reason: 'engine=trtllm → dynamo (only trtllm provider)',
      },
      {
        condition: engineIs('sglang'),
        priority: 90,
        reason: 'engine=sglang → dynamo (only sglang provider)',
      },
      {
        condition: DISAGGREGATED,
        priority: 70,
        reason: 'mode=disaggregated → dynamo (best disaggregated support)',
      },
      {
        condition: CEL_GPU_REQUESTED,
        priority: 10,
        reason: 'default → dynamo (GPU inference default)',
      },
    ],
    compatibilityRules: [
      unsupportedEngine('Dynamo', 'llamacpp'),
      unsupportedEngine('Dynamo', 'custom'),
      requiresGpu('Dynamo'),
      {
        rule: "!has(spec.provider) || !has(spec.provider.overrides) || !has(spec.provider.overrides.routerMode) || spec.provider.overrides.routerMode in ['kv', 'round-robin', 'none']",
        message: 'Dynamo routerMode must be one of kv, round-robin, none',
        fieldPath: 'spec.provider.overrides.routerMode',
      },
    ],
    documentation: docs('dynamo'),
  },
);

/** @public */
export const KUBERAY_PROVIDER = registration(
  'kuberay',
  {
    'airunway.ai/display-name': 'KubeRay',
    'airunway.ai/description':
      'Ray Serve via KubeRay for distributed Ray-based model serving with vLLM',
    'airunway.ai/default-namespace': 'ray-system',
    'airunway.ai/documentation-url': docs('kuberay'),
  },
  {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
        },
      ],
    },
    // Never auto-selected (seed 000 section 2.4): explicit spec.provider.name only.
    selectionRules: [],
    compatibilityRules: [
      unsupportedEngine('KubeRay', 'llamacpp'),
      unsupportedEngine('KubeRay', 'sglang'),
      unsupportedEngine('KubeRay', 'trtllm'),
      unsupportedEngine('KubeRay', 'custom'),
      requiresGpu('KubeRay'),
    ],
    documentation: docs('kuberay'),
  },
);

/** @public */
export const LLMD_PROVIDER = registration(
  'llmd',
  {
    'airunway.ai/display-name': 'llm-d',
    'airunway.ai/description':
      'llm-d: vLLM Deployments and Services with intelligent inference scheduling',
    'airunway.ai/default-namespace': 'default',
    'airunway.ai/documentation-url': docs('llmd'),
  },
  {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
          requiresCRD: false,
          // llm-d runs its own InferencePool `<name>` and endpoint picker: the core only routes to it.
          gateway: {
            managesInferencePool: true,
            inferencePoolNamePattern: '{name}',
          },
        },
      ],
    },
    // Explicit selection only, as upstream registers it.
    selectionRules: [],
    compatibilityRules: [
      {
        rule: `!has(spec.engine) || !has(spec.engine.type) || spec.engine.type == 'vllm'`,
        message: 'llm-d only supports vllm engine',
        fieldPath: 'spec.engine.type',
      },
      requiresGpu('llm-d'),
    ],
    documentation: docs('llmd'),
  },
);

/** The four built-in registrations, without status (each provider controller reports its own readiness). @public */
export const BUILT_IN_PROVIDERS: InferenceProviderConfig[] = [
  KAITO_PROVIDER,
  DYNAMO_PROVIDER,
  KUBERAY_PROVIDER,
  LLMD_PROVIDER,
];

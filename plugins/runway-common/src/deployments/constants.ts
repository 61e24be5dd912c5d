/**
 * Names and fixed values of the deployments API (airunway.ai/v1alpha1), shared
 * by schemas, validation, selection and the controllers.
 *
 * @public
 */

export const DEPLOYMENTS_GROUP = 'airunway.ai';
/** @public */
export const DEPLOYMENTS_VERSION = 'v1alpha1';
/** @public */
export const DEPLOYMENTS_API_VERSION = `${DEPLOYMENTS_GROUP}/${DEPLOYMENTS_VERSION}`;

/**
 * Inference engines. `custom` (seed 000 section 3.14: a third-party provider
 * registers `engines: [vllm, custom]`) is a server the deployment's own image
 * runs: only providers that list it accept it (none of the built-in ones),
 * it needs `spec.image` (no provider has a default image for it), and it is
 * never auto-selected.
 *
 * @public
 */
export const ENGINE_TYPES = [
  'vllm',
  'sglang',
  'trtllm',
  'llamacpp',
  'custom',
] as const;
/** @public */
export type EngineType = (typeof ENGINE_TYPES)[number];

/** The engines auto-selection may choose, in the order it prefers them (seed 002); `custom` is chosen only by name. @public */
export const AUTO_SELECTED_ENGINES = ENGINE_TYPES.filter(
  (e): e is Exclude<EngineType, 'custom'> => e !== 'custom',
);

/** Human names of the engines, as the seeds' messages spell them. @public */
export const ENGINE_DISPLAY_NAMES: Record<EngineType, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
  llamacpp: 'llama.cpp',
  custom: 'custom (your image)',
};

/** @public */
export const SERVING_MODES = ['aggregated', 'disaggregated'] as const;
/** @public */
export type ServingMode = (typeof SERVING_MODES)[number];

/** @public */
export const MODEL_SOURCES = ['huggingface', 'custom'] as const;
/** @public */
export type ModelSource = (typeof MODEL_SOURCES)[number];

/** @public */
export const DEPLOYMENT_PHASES = [
  'Pending',
  'Deploying',
  'Running',
  'Failed',
  'Terminating',
] as const;
/** @public */
export type DeploymentPhase = (typeof DEPLOYMENT_PHASES)[number];

/** @public */
export const API_FORMATS = [
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
] as const;
/** @public */
export type ApiFormat = (typeof API_FORMATS)[number];

/** @public */
export const VOLUME_PURPOSES = [
  'modelCache',
  'compilationCache',
  'custom',
] as const;
/** @public */
export const VOLUME_ACCESS_MODES = [
  'ReadWriteOnce',
  'ReadWriteMany',
  'ReadOnlyMany',
  'ReadWriteOncePod',
] as const;

/** @public */
export const DEFAULT_GPU_RESOURCE = 'nvidia.com/gpu';

/** Condition types of a ModelDeployment and who sets them (seed 001/002 ownership table). @public */
export const CONDITION_TYPES = {
  /** Core webhook: spec validation result. */
  Validated: 'Validated',
  /** Core controller: engine selection result. */
  EngineSelected: 'EngineSelected',
  /** Core controller: provider selection result. */
  ProviderSelected: 'ProviderSelected',
  /** Provider controller: engine/mode compatibility. */
  ProviderCompatible: 'ProviderCompatible',
  /** Provider controller: upstream resource created. */
  ResourceCreated: 'ResourceCreated',
  /** Provider controller: overall readiness. */
  Ready: 'Ready',
  /** Core controller: gateway route active. */
  GatewayReady: 'GatewayReady',
} as const;

/**
 * Reasons of the GatewayReady condition, all the core sets (`planGateway`):
 * upstream's, plus WaitingForProvider for the waits upstream leaves silent.
 * Upstream's GatewayPatchFailed is not among them: the core never patches a
 * Gateway's allowedRoutes, it reports NoGateway naming them instead.
 *
 * @public
 */
export const GATEWAY_REASONS = [
  'CRDsNotAvailable',
  'NoGateway',
  'WaitingForProvider',
  'InferencePoolFailed',
  'EPPFailed',
  'HTTPRouteFailed',
  'GatewayConfigured',
  'GatewayDisabled',
] as const;
/** @public */
export type GatewayReadyReason = (typeof GATEWAY_REASONS)[number];

/** Annotation that pauses reconciliation of a ModelDeployment (for debugging). @public */
export const RECONCILE_PAUSED_ANNOTATION = 'airunway.ai/reconcile-paused';
/** Label every provider resource gets. @public */
export const MANAGED_BY_LABEL = 'airunway.ai/managed-by';
/** Only metadata labels with this prefix are propagated to provider resources. @public */
export const PROPAGATED_LABEL_PREFIX = 'airunway.ai/';

/** Upstream's admission ceilings (per component). @public */
export const LIMITS = {
  gpuCount: 64,
  replicas: 32,
  cpu: '512',
  memory: '4Ti',
} as const;

/** Keys never accepted in `spec.provider.overrides`, at any depth: they could escalate privileges. @public */
export const BLOCKED_OVERRIDE_KEYS = [
  'securityContext',
  'serviceAccountName',
  'serviceAccount',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'automountServiceAccountToken',
  'nodeName',
  'priorityClassName',
  'runtimeClassName',
] as const;

/** Mount paths a storage volume may not use. @public */
export const SYSTEM_PATHS = [
  '/dev',
  '/proc',
  '/sys',
  '/etc',
  '/var/run',
] as const;

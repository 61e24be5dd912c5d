/**
 * Every default container image the controllers run, in one table (seed 000
 * section 4.15 "Image Defaults", corrected where the seed is wrong). Each
 * provider reads its defaults from here, so a name is checked once and a
 * test can compare every provider's output with this table.
 */

/** Who runs the image: a provider's model server, or a helper component. @public */
export interface DefaultImage {
  provider: 'dynamo' | 'kuberay' | 'llmd' | 'core';
  /** The engine (vllm, sglang, trtllm) or the component (epp, routing-sidecar). */
  engine: string;
  /** Repository without the tag. */
  repository: string;
  version: string;
  /** Where the repository and tag were checked to exist. */
  checked: string;
}

/** Dynamo release of the runtime images (seed 000 example 1 uses 0.7.1). @public */
export const DYNAMO_RUNTIME_VERSION = '0.7.1';
/** Ray release of the default KubeRay image; `rayClusterConfig.rayVersion` must match it. @public */
export const RAY_VERSION = '2.52.0';
/** llm-d release of the model server, routing sidecar and inference scheduler. @public */
export const LLMD_VERSION = 'v0.4.0';
/** Gateway API Inference Extension release whose EPP the core runs by default (the InferencePool CRD we test with). @public */
export const DEFAULT_GAIE_VERSION = 'v1.6.0';

const DYNAMO_CHECKED =
  "Dynamo's release artifacts list (docs, ai-dynamo/dynamo): vllm-runtime, sglang-runtime and tensorrtllm-runtime at 0.7.1";

/** @public */
export const DEFAULT_IMAGES: readonly DefaultImage[] = [
  {
    provider: 'dynamo',
    engine: 'vllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime',
    version: DYNAMO_RUNTIME_VERSION,
    checked: DYNAMO_CHECKED,
  },
  {
    provider: 'dynamo',
    engine: 'sglang',
    repository: 'nvcr.io/nvidia/ai-dynamo/sglang-runtime',
    version: DYNAMO_RUNTIME_VERSION,
    checked: DYNAMO_CHECKED,
  },
  // The seed's table says trtllm-runtime: NGC publishes TensorRT-LLM as tensorrtllm-runtime.
  {
    provider: 'dynamo',
    engine: 'trtllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime',
    version: DYNAMO_RUNTIME_VERSION,
    checked: DYNAMO_CHECKED,
  },
  // The seed's table says rayproject/ray-ml: Ray stopped publishing ray-ml after 2.49 (ray-project/ray#57070; tags 2.31.0 and
  // later answer 404, :latest is frozen at 2.30.0, before Ray Serve LLM existed); ray-llm carries Ray Serve LLM.
  {
    provider: 'kuberay',
    engine: 'vllm',
    repository: 'rayproject/ray-llm',
    version: `${RAY_VERSION}-py311-cu128`,
    checked:
      'KubeRay samples ray-service.llm-serve.yaml and ray-service.deepseek.yaml (../shared/upstream/samples)',
  },
  {
    provider: 'llmd',
    engine: 'vllm',
    repository: 'ghcr.io/llm-d/llm-d-cuda',
    version: LLMD_VERSION,
    checked:
      'repository: llm-d-modelservice examples values-pd.yaml (../shared/upstream/samples, at :latest); tag v0.4.0: used by public llm-d deployments (search index)',
  },
  {
    provider: 'llmd',
    engine: 'routing-sidecar',
    repository: 'ghcr.io/llm-d/llm-d-routing-sidecar',
    version: LLMD_VERSION,
    checked:
      'repository: llm-d-modelservice examples output-pd.yaml (../shared/upstream/samples, at :latest); tag v0.4.0 NOT confirmed (only v0.4.0-rc.1 found in public deployments)',
  },
  {
    provider: 'llmd',
    engine: 'epp',
    repository: 'ghcr.io/llm-d/llm-d-inference-scheduler',
    version: LLMD_VERSION,
    checked:
      'tag v0.4.0: used by public llm-d deployments and operators (search index)',
  },
  {
    provider: 'core',
    engine: 'epp',
    repository: 'registry.k8s.io/gateway-api-inference-extension/epp',
    version: DEFAULT_GAIE_VERSION,
    checked:
      'Gateway API Inference Extension v1.6.0 (its conformance base.yaml in ../shared/upstream/samples runs registry.k8s.io/gateway-api-inference-extension/* at v1.6.0)',
  },
];

/** The default image `repository:version` of a provider's engine or component; throws for a pair the table lacks (a programming error). @public */
export function defaultImage(
  provider: DefaultImage['provider'],
  engine: string,
): string {
  const entry = DEFAULT_IMAGES.find(
    i => i.provider === provider && i.engine === engine,
  );
  if (!entry)
    throw new Error(
      `no default image for provider ${provider}, engine ${engine}: add it to DEFAULT_IMAGES`,
    );
  return `${entry.repository}:${entry.version}`;
}

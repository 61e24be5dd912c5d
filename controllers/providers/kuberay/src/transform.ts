/**
 * KubeRay's transform: a ModelDeployment becomes a `RayService` (see
 * definition.ts for the whole provider). Pure.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  type ModelDeployment,
  type ModelDeploymentSpec,
  type PodStorage,
  RAY_VERSION,
  containerVolumeMounts,
  defaultImage,
  managedClaims,
  resolveServedName,
} from '@runway-portal/plugin-runway-common';
import {
  type TransformContext,
  TransformError,
  type TransformResult,
  huggingFaceTokenEnvFrom,
  podStorageOf,
  podTemplateMetadataFields,
  podVolumeFields,
} from '@runway-portal/provider-shared';
import { stringify } from 'yaml';
import type { HeadOverrides } from './overrides';

export { RAY_VERSION } from '@runway-portal/plugin-runway-common';
/**
 * Default image, from runway-common's image table. Seed 000 names
 * `rayproject/ray-ml:<version>`; Ray stopped publishing ray-ml images and
 * ships Ray Serve LLM in `ray-llm`, so that is the default here (users set
 * `spec.image` to choose another).
 */
export const DEFAULT_RAY_IMAGE = defaultImage('kuberay', 'vllm');
/** Ray Serve's HTTP port; KubeRay's serve Service is `<name>-serve-svc`. */
export const SERVE_PORT = 8000;

export const HEAD_DEFAULTS = { cpu: '2', memory: '4Gi' } as const;

/** engine.args values are strings in the API; vLLM's engine arguments want numbers and booleans typed. */
export function typed(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/**
 * The container's `env` (the given env, then the cache environment) and
 * `volumeMounts`, or nothing. Not provider-shared's `modelContainerFields`:
 * KubeRay's containers have always put `envFrom` after the mounts, and the
 * written objects stay byte-identical.
 */
function containerStorage(
  storage: PodStorage,
  env: unknown[] = [],
): Record<string, unknown> {
  const allEnv = [...env, ...storage.env];
  return {
    ...(allEnv.length > 0 ? { env: allEnv } : {}),
    ...(storage.volumes.length > 0
      ? { volumeMounts: containerVolumeMounts(storage.volumes) }
      : {}),
  };
}

/**
 * vLLM's KV transfer settings for prefill/decode disaggregation: Ray Serve
 * LLM's P/D builder (`build_pd_openai_app`) needs one in both engines'
 * `engine_kwargs` (Ray's P/D guide uses NIXL, kv_role kv_both on each side).
 * The default image carries RAY_VERSION.
 */
export const PD_KV_TRANSFER_CONFIG = {
  kv_connector: 'NixlConnector',
  kv_role: 'kv_both',
} as const;
/**
 * The first Ray release with Ray Serve LLM's P/D builder (ray-project/ray
 * #53092, merged May 2025); older images cannot run disaggregated mode.
 */
export const MIN_PD_RAY_VERSION = '2.47.0';

/** `engine.args` keys as Ray's engine_kwargs (snake_case), values kept as given. */
function engineKwargs(
  spec: ModelDeploymentSpec,
  gpus: number,
  disaggregated: boolean,
): Record<string, unknown> {
  const kwargs: Record<string, unknown> = {};
  if (disaggregated) kwargs.kv_transfer_config = { ...PD_KV_TRANSFER_CONFIG };
  if (gpus > 1) kwargs.tensor_parallel_size = gpus;
  if (spec.engine?.contextLength)
    kwargs.max_model_len = spec.engine.contextLength;
  if (spec.engine?.trustRemoteCode) kwargs.trust_remote_code = true;
  for (const k of Object.keys(spec.engine?.args ?? {}).sort())
    kwargs[k.replace(/-/g, '_')] = typed(spec.engine!.args![k]);
  return kwargs;
}

function llmConfig(
  spec: ModelDeploymentSpec,
  replicas: number,
  gpus: number,
  disaggregated = false,
): Record<string, unknown> {
  const env = Object.fromEntries(
    (spec.env ?? [])
      .filter(e => e.value !== undefined)
      .map(e => [e.name, e.value]),
  );
  const kwargs = engineKwargs(spec, gpus, disaggregated);
  return {
    model_loading_config: {
      model_id: resolveServedName(spec),
      model_source: spec.model.id,
    },
    ...(Object.keys(kwargs).length > 0 ? { engine_kwargs: kwargs } : {}),
    deployment_config: {
      autoscaling_config: { min_replicas: replicas, max_replicas: replicas },
    },
    ...(Object.keys(env).length > 0 ? { runtime_env: { env_vars: env } } : {}),
  };
}

function workerGroup(
  spec: ModelDeploymentSpec,
  storage: PodStorage,
  image: string,
  groupName: string,
  replicas: number,
  gpu: { count: number; type: string },
  memory: string | number | undefined,
  cpu: string | number | undefined,
): Record<string, unknown> {
  const requests: Record<string, string | number> = {};
  const limits: Record<string, string | number> = {};
  if (cpu !== undefined) requests.cpu = String(cpu);
  if (memory !== undefined) {
    requests.memory = String(memory);
    limits.memory = String(memory);
  }
  requests[gpu.type] = gpu.count;
  limits[gpu.type] = gpu.count;
  const envFrom = huggingFaceTokenEnvFrom(spec);
  return {
    groupName,
    replicas,
    minReplicas: replicas,
    maxReplicas: replicas,
    numOfHosts: 1,
    rayStartParams: {},
    template: {
      ...podTemplateMetadataFields(spec),
      spec: {
        containers: [
          {
            name: 'ray-worker',
            image,
            ...containerStorage(storage, spec.env),
            ...(envFrom ? { envFrom } : {}),
            resources: { requests, limits },
          },
        ],
        ...podVolumeFields(storage),
        ...(spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0
          ? { nodeSelector: spec.nodeSelector }
          : {}),
        ...(spec.tolerations?.length ? { tolerations: spec.tolerations } : {}),
      },
    },
  };
}

function headGroup(
  image: string,
  head: HeadOverrides,
  storage: PodStorage,
): Record<string, unknown> {
  const cpu = head.resources?.cpu ?? HEAD_DEFAULTS.cpu;
  const memory = head.resources?.memory ?? HEAD_DEFAULTS.memory;
  return {
    rayStartParams: head.rayStartParams ?? {},
    template: {
      spec: {
        containers: [
          {
            name: 'ray-head',
            image,
            ports: [
              { containerPort: 6379, name: 'gcs' },
              { containerPort: 8265, name: 'dashboard' },
              { containerPort: 10001, name: 'client' },
              { containerPort: SERVE_PORT, name: 'serve' },
            ],
            ...containerStorage(storage),
            resources: { requests: { cpu, memory }, limits: { memory } },
          },
        ],
        ...podVolumeFields(storage),
      },
    },
  };
}

export function transformKubeRay(
  md: ModelDeployment,
  ctx: TransformContext,
): TransformResult {
  const spec = md.spec;
  const name = md.metadata?.name ?? '';
  if (spec.model.source === 'custom' || !spec.model.id) {
    throw new TransformError(
      'spec.model.id',
      'KubeRay serves HuggingFace models through Ray Serve LLM: set spec.model.id and source huggingface',
    );
  }
  const image = spec.image ?? spec.engine?.image ?? DEFAULT_RAY_IMAGE;
  const head = ((
    spec.provider?.overrides as { head?: HeadOverrides } | undefined
  )?.head ?? {}) as HeadOverrides;
  const gpuType = (g?: { type?: string }) => g?.type ?? 'nvidia.com/gpu';
  const storage = podStorageOf(md, { runsVllm: true });

  let application: Record<string, unknown>;
  let workers: Array<Record<string, unknown>>;
  if (spec.serving?.mode === 'disaggregated') {
    const prefill = spec.scaling?.prefill;
    const decode = spec.scaling?.decode;
    const pGpus = prefill?.gpu?.count ?? 0;
    const dGpus = decode?.gpu?.count ?? 0;
    if (!prefill || !decode || pGpus < 1 || dGpus < 1) {
      throw new TransformError(
        'spec.scaling',
        'Disaggregated mode requires scaling.prefill and scaling.decode with gpu.count > 0',
      );
    }
    const pReplicas = prefill.replicas ?? 1;
    const dReplicas = decode.replicas ?? 1;
    application = {
      name: 'llm',
      import_path: 'ray.serve.llm:build_pd_openai_app',
      route_prefix: '/',
      args: {
        prefill_config: llmConfig(spec, pReplicas, pGpus, true),
        decode_config: llmConfig(spec, dReplicas, dGpus, true),
      },
    };
    workers = [
      workerGroup(
        spec,
        storage,
        image,
        'prefill-workers',
        pReplicas,
        { count: pGpus, type: gpuType(prefill.gpu) },
        prefill.memory,
        undefined,
      ),
      workerGroup(
        spec,
        storage,
        image,
        'decode-workers',
        dReplicas,
        { count: dGpus, type: gpuType(decode.gpu) },
        decode.memory,
        undefined,
      ),
    ];
  } else {
    const replicas = spec.scaling?.replicas ?? 1;
    const gpus = spec.resources?.gpu?.count ?? 0;
    application = {
      name: 'llm',
      import_path: 'ray.serve.llm:build_openai_app',
      route_prefix: '/',
      args: { llm_configs: [llmConfig(spec, replicas, gpus)] },
    };
    workers = [
      workerGroup(
        spec,
        storage,
        image,
        'gpu-workers',
        replicas,
        { count: gpus, type: gpuType(spec.resources?.gpu) },
        spec.resources?.memory,
        spec.resources?.cpu,
      ),
    ];
  }

  const rayService: KubeObject = {
    apiVersion: ctx.apiVersion,
    kind: 'RayService',
    metadata: { name },
    spec: {
      serveConfigV2: stringify({ applications: [application] }),
      rayClusterConfig: {
        rayVersion: RAY_VERSION,
        headGroupSpec: headGroup(image, head, storage),
        workerGroupSpecs: workers,
      },
    },
  };
  // PVCs of `size` volumes after the RayService (the loop's primary object comes first).
  return { objects: [rayService, ...managedClaims(md)] };
}

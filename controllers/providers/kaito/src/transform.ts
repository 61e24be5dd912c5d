/**
 * KAITO's transform: a ModelDeployment becomes a KAITO `Workspace` (see
 * definition.ts for the whole provider). Pure.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  type ModelDeployment,
  type ModelDeploymentSpec,
  type PodStorage,
  DEFAULT_GPU_RESOURCE,
  gpuRequested,
  gpuResourceName,
  managedClaims,
  resolveServedName,
} from '@runway-portal/plugin-runway-common';
import {
  type TransformContext,
  modelContainerFields,
  modelServerEnv,
  podStorageOf,
  podTemplateMetadataFields,
  podVolumeFields,
  TransformError,
  type TransformResult,
} from '@runway-portal/provider-shared';
import { stringify } from 'yaml';
import { isGgufPath, QUANTIZATION_ARG } from './gguf';
import { choosePreset } from './presets';

/** Port of the model server in the pod; KAITO's Service exposes it on port 80. */
export const MODEL_PORT = 5000;
export const SERVICE_PORT = 80;
/** Label telling where the model comes from (seed 000 example 2). */
export const MODEL_SOURCE_LABEL = 'airunway.ai/model-source';

/** The label GPU feature discovery puts on NVIDIA GPU nodes (KAITO's chart installs it without node auto-provisioning). */
export const GPU_PRESENT_LABEL = 'nvidia.com/gpu.present';

/**
 * The Workspace's node selector: `spec.nodeSelector`, else any Linux node,
 * and for NVIDIA GPU deployments only GPU nodes (KAITO places the pods on
 * the nodes this selects, GPU or not).
 */
export function workspaceNodeSelector(
  spec: ModelDeploymentSpec,
): Record<string, string> {
  if (spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0)
    return spec.nodeSelector;
  const gpu =
    gpuRequested(spec) && gpuResourceName(spec) === DEFAULT_GPU_RESOURCE;
  return {
    'kubernetes.io/os': 'linux',
    ...(gpu ? { [GPU_PRESENT_LABEL]: 'true' } : {}),
  };
}

/**
 * The GGUF file of a llama.cpp model: the ID's own `.gguf` path when it has
 * one, else the file `prepare` chose from the hub's file list (gguf.ts).
 * Without one (a caller that ran no `prepare`, such as the preview) it is
 * derived from the repository name as seed 000 example 2 names it
 * (`gemma-3-1b-it-qat-q8_0-gguf` → `gemma-3-1b-it-q8_0.gguf`), which holds
 * only for repositories named like that one.
 */
export function ggufModelUri(modelId: string, file?: string): string {
  if (isGgufPath(modelId)) return `huggingface://${modelId}`;
  if (file) return `huggingface://${modelId}/${file}`;
  const repo = modelId.split('/').filter(Boolean).pop() ?? modelId;
  const derived = repo.replace(/-gguf$/i, '').replace(/-qat(?=-|$)/i, '');
  return `huggingface://${modelId}/${derived}.gguf`;
}

/** `engine.args` as `--key=value` flags, in a stable order. */
function argFlags(args: Record<string, string> | undefined): string[] {
  return Object.keys(args ?? {})
    .sort()
    .map(k => `--${k}=${args![k]}`);
}

function llamaCppArgs(spec: ModelDeploymentSpec, ggufFile?: string): string[] {
  const model =
    spec.model.source === 'custom' || !spec.model.id
      ? []
      : [ggufModelUri(spec.model.id, ggufFile)];
  // The quantisation picked the GGUF file; llama.cpp has no such flag.
  const { [QUANTIZATION_ARG]: _quantization, ...args } =
    spec.engine?.args ?? {};
  const ctx = spec.engine?.contextLength
    ? [`--ctx-size=${spec.engine.contextLength}`]
    : [];
  return [
    ...model,
    `--address=:${MODEL_PORT}`,
    ...ctx,
    ...argFlags(args),
    ...(spec.engine?.extraArgs ?? []),
  ];
}

function vllmArgs(spec: ModelDeploymentSpec): string[] {
  const served = resolveServedName(spec);
  return [
    ...(spec.model.source === 'custom' || !spec.model.id
      ? []
      : ['--model', spec.model.id]),
    ...(served ? ['--served-model-name', served] : []),
    `--port=${MODEL_PORT}`,
    ...(spec.engine?.contextLength
      ? [`--max-model-len=${spec.engine.contextLength}`]
      : []),
    ...(spec.engine?.trustRemoteCode ? ['--trust-remote-code'] : []),
    ...argFlags(spec.engine?.args),
    ...(spec.engine?.extraArgs ?? []),
  ];
}

function resources(
  spec: ModelDeploymentSpec,
): Record<string, unknown> | undefined {
  const requests: Record<string, string | number> = {};
  const limits: Record<string, string | number> = {};
  if (spec.resources?.memory !== undefined)
    requests.memory = String(spec.resources.memory);
  if (spec.resources?.cpu !== undefined)
    requests.cpu = String(spec.resources.cpu);
  const gpus = spec.resources?.gpu?.count ?? 0;
  if (gpus > 0) {
    const type = spec.resources?.gpu?.type ?? 'nvidia.com/gpu';
    requests[type] = gpus;
    limits[type] = gpus;
  }
  if (Object.keys(requests).length === 0) return undefined;
  return Object.keys(limits).length > 0 ? { requests, limits } : { requests };
}

/** The deployment's volumes and cache environment (VLLM_CACHE_ROOT only for vLLM). */
const storageOf = (md: ModelDeployment): PodStorage =>
  podStorageOf(md, { runsVllm: md.spec.engine?.type === 'vllm' });

/** The pod template of template-mode Workspaces. */
function podTemplate(
  spec: ModelDeploymentSpec,
  image: string,
  args: string[],
  storage: PodStorage,
): Record<string, unknown> {
  const container: Record<string, unknown> = {
    name: 'model',
    image,
    args,
    ports: [{ containerPort: MODEL_PORT }],
    ...modelContainerFields({
      env: modelServerEnv(spec, storage),
      spec,
      resources: resources(spec),
      storage,
    }),
  };
  return {
    ...podTemplateMetadataFields(spec),
    spec: {
      containers: [container],
      ...podVolumeFields(storage),
      ...(spec.tolerations?.length ? { tolerations: spec.tolerations } : {}),
    },
  };
}

/** The inference ConfigMap of a vLLM preset (KAITO's `inference_config.yaml`), when there are flags to pass. */
function presetConfig(
  md: ModelDeployment,
  name: string,
): KubeObject | undefined {
  const spec = md.spec;
  const vllm: Record<string, string | number | boolean> = {};
  if (spec.engine?.contextLength)
    vllm['max-model-len'] = spec.engine.contextLength;
  if (spec.engine?.trustRemoteCode) vllm['trust-remote-code'] = true;
  // Always explicit: KAITO would otherwise serve the preset's own name, not the one the gateway advertises.
  const served = resolveServedName(spec);
  if (served) vllm['served-model-name'] = served;
  for (const k of Object.keys(spec.engine?.args ?? {}).sort())
    vllm[k] = spec.engine!.args![k];
  if (Object.keys(vllm).length === 0) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { 'inference_config.yaml': stringify({ vllm }) },
  };
}

export function transformKaito(
  md: ModelDeployment,
  ctx: TransformContext,
): TransformResult {
  const spec = md.spec;
  const name = md.metadata?.name ?? '';
  const engine = spec.engine?.type;
  const image = spec.image ?? spec.engine?.image;
  const warnings: string[] = [];
  const workspace: KubeObject = {
    apiVersion: ctx.apiVersion,
    kind: 'Workspace',
    metadata: {
      name,
      labels: { [MODEL_SOURCE_LABEL]: spec.model.source ?? 'huggingface' },
    },
    resource: {
      count: spec.scaling?.replicas ?? 1,
      labelSelector: { matchLabels: workspaceNodeSelector(spec) },
    },
  };
  const objects: KubeObject[] = [workspace];
  const storage = storageOf(md);

  if (engine === 'llamacpp') {
    if (!image) {
      throw new TransformError(
        'spec.image',
        'KAITO has no default llama.cpp image: set spec.image to a llama.cpp server image, e.g. ghcr.io/sozercan/llama-cpp-runner:latest',
      );
    }
    workspace.inference = {
      template: podTemplate(
        spec,
        image,
        llamaCppArgs(spec, ctx.inputs?.ggufFile),
        storage,
      ),
    };
  } else if (engine === 'vllm') {
    if (image) {
      workspace.inference = {
        template: podTemplate(spec, image, vllmArgs(spec), storage),
      };
    } else {
      if (spec.model.source === 'custom' || !spec.model.id) {
        throw new TransformError(
          'spec.image',
          'a custom model on KAITO needs its own image: set spec.image',
        );
      }
      if (storage.volumes.length > 0) {
        throw new TransformError(
          'spec.model.storage.volumes',
          'KAITO presets build their own pods and cannot mount volumes: set spec.image to run vLLM in a pod template that mounts them, remove the volumes, or choose another provider (dynamo, llmd, kuberay)',
        );
      }
      // Without a detected release (the preview), v1alpha1 alone means a KAITO older than v1beta1.
      const release =
        ctx.upstreamRelease ??
        (ctx.apiVersion.endsWith('/v1alpha1') ? '0.2.0' : undefined);
      const preset = choosePreset(spec.model.id, release);
      if (!preset.ok) throw new TransformError('spec.model.id', preset.message);
      if (preset.warning) warnings.push(preset.warning);
      const configName = `${name}-inference-config`;
      const config = presetConfig(md, configName);
      const secret = spec.secrets?.huggingFaceToken;
      const v1alpha1 = ctx.apiVersion.endsWith('/v1alpha1');
      if (secret && v1alpha1) {
        warnings.push(
          `KAITO ${ctx.apiVersion} presets take no model access secret: secrets.huggingFaceToken '${secret}' is not passed; upgrade KAITO to v1beta1 for gated models`,
        );
      }
      workspace.inference = {
        preset: {
          name: preset.name,
          ...(secret && !v1alpha1
            ? { presetOptions: { modelAccessSecret: secret } }
            : {}),
        },
        ...(config ? { config: configName } : {}),
      };
      if (config) objects.push(config);
      if (
        spec.env?.length ||
        spec.podTemplate?.metadata ||
        spec.tolerations?.length
      ) {
        warnings.push(
          'KAITO presets take no env, podTemplate or tolerations: set spec.image to run a pod template instead',
        );
      }
    }
  } else {
    // Compatibility rules reject other engines before transform; this guards direct calls.
    throw new TransformError(
      'spec.engine.type',
      `KAITO does not support ${
        engine ?? 'an unset'
      } engine: use vllm or llamacpp`,
    );
  }
  // PVCs of `size` volumes (template mode only: presets with volumes failed above).
  objects.push(...managedClaims(md));
  return { objects, warnings };
}

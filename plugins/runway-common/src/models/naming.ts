/**
 * Seed 003's naming conventions, used by the model operator (PVC, Job), the
 * injection webhook (volume, env vars) and the portal (to show them).
 */
import type { Model } from '../generated/model';
import type { ModelSourceType } from './schema';

/** @public */
export function modelPvcName(modelName: string): string {
  return `model-${modelName}`;
}

/** @public */
export function modelDownloadJobName(modelName: string): string {
  return `model-download-${modelName}`;
}

/** @public */
export function modelVolumeName(modelName: string): string {
  return `model-${modelName}`;
}

/** `llama-3-8b` → `MODEL_LLAMA_3_8B`: the prefix of the injected env vars. @public */
export function modelEnvPrefix(modelName: string): string {
  return `MODEL_${modelName.toUpperCase().replace(/-/g, '_')}`;
}

/** Which source a Model uses, or undefined when none or several are set. @public */
export function modelSourceType(
  source: Partial<Model['spec']['source']> | undefined,
): ModelSourceType | undefined {
  if (!source) return undefined;
  const set: ModelSourceType[] = [];
  if (source.huggingFace !== undefined) set.push('huggingface');
  if (source.s3 !== undefined) set.push('s3');
  if (source.url !== undefined) set.push('url');
  return set.length === 1 ? set[0] : undefined;
}

/**
 * Seed 003's pod annotations for model injection (the seed's placeholder
 * `models.example.com/` prefix is `models.airunway.ai/` here), and the label
 * the injection webhook sets on a pod it has handled.
 *
 * @public
 */
export const MODEL_ANNOTATIONS = {
  /** Required: comma-separated Model names to inject. */
  inject: 'models.airunway.ai/inject',
  /** Mount path (one model) or base path (several); default `/models/<name>`. */
  mountPath: 'models.airunway.ai/mount-path',
  /** `"true"` (default) mounts read-only. */
  readOnly: 'models.airunway.ai/read-only',
  /** Target container name; default the first container. */
  container: 'models.airunway.ai/container',
  /** `"true"` (default) injects the MODEL_* environment variables. */
  injectEnv: 'models.airunway.ai/inject-env',
} as const;

/** @public */
export const MODEL_INJECTED_LABEL = 'models.airunway.ai/injected';

/**
 * The injection webhook's match condition: the API server calls it only
 * for a pod that asks for a model. Every other pod of the cluster (the
 * webhook's answer for them is "allowed, unchanged") is created without a
 * round trip to the model operator, and without waiting for it when it is
 * slow or down.
 *
 * @public
 */
export const INJECTION_REQUESTED_CONDITION = {
  name: 'injection-requested',
  expression: `has(object.metadata.annotations) && '${MODEL_ANNOTATIONS.inject}' in object.metadata.annotations`,
} as const;

/** Where a model is mounted when no mount-path annotation says otherwise. @public */
export function defaultModelMountPath(modelName: string): string {
  return `/models/${modelName}`;
}

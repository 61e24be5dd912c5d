/**
 * What every provider writes into its model-server pods the same way: the
 * deployment's storage (volumes, mounts and cache environment), the user's
 * environment and the Hugging Face token Secret. Resources and probes stay
 * with each provider: their upstream schemas differ (numbers or strings,
 * limits or not, Dynamo's own fields, Ray's actor options).
 */
import {
  containerVolumeMounts,
  type ModelDeployment,
  type ModelDeploymentSpec,
  type PodStorage,
  podStorage,
  podVolumes,
} from '@runway-portal/plugin-runway-common';
import { TransformError } from './definition';

/**
 * The deployment's volumes and their cache environment (`HF_HOME`, and
 * `VLLM_CACHE_ROOT` when the pod runs vLLM itself); a volume that cannot be
 * mounted fails the transform naming its field.
 *
 * @public
 */
export function podStorageOf(
  md: ModelDeployment,
  opts: { runsVllm: boolean },
): PodStorage {
  const { issues, ...storage } = podStorage(md, opts);
  if (issues.length > 0)
    throw new TransformError(issues[0].path, issues[0].message);
  return storage;
}

/** A model server's environment: the user's `spec.env`, then what storage implies, then the provider's own. @public */
export function modelServerEnv(
  spec: ModelDeploymentSpec,
  storage: PodStorage,
  own: unknown[] = [],
): unknown[] {
  return [...(spec.env ?? []), ...storage.env, ...own];
}

/** `envFrom` for the Hugging Face token Secret (`spec.secrets.huggingFaceToken`), or undefined. @public */
export function huggingFaceTokenEnvFrom(
  spec: ModelDeploymentSpec,
): Array<{ secretRef: { name: string } }> | undefined {
  const secret = spec.secrets?.huggingFaceToken;
  return secret ? [{ secretRef: { name: secret } }] : undefined;
}

/**
 * A model-server container's `env`, `envFrom` (the token Secret),
 * `resources` and `volumeMounts`, in this order, each only when there is
 * one: spread it into the container after name, image, command, args and ports.
 *
 * @public
 */
export function modelContainerFields(parts: {
  env: unknown[];
  spec: ModelDeploymentSpec;
  resources?: unknown;
  storage: Pick<PodStorage, 'volumes'>;
}): Record<string, unknown> {
  const envFrom = huggingFaceTokenEnvFrom(parts.spec);
  return {
    ...(parts.env.length > 0 ? { env: parts.env } : {}),
    ...(envFrom ? { envFrom } : {}),
    ...(parts.resources ? { resources: parts.resources } : {}),
    ...(parts.storage.volumes.length > 0
      ? { volumeMounts: containerVolumeMounts(parts.storage.volumes) }
      : {}),
  };
}

/** A pod spec's `volumes` for the storage, or nothing. @public */
export function podVolumeFields(storage: Pick<PodStorage, 'volumes'>): {
  volumes?: ReturnType<typeof podVolumes>;
} {
  return storage.volumes.length > 0
    ? { volumes: podVolumes(storage.volumes) }
    : {};
}

/**
 * A pod template's `metadata` from `spec.podTemplate.metadata` (its labels
 * and annotations as given), or nothing when it has neither.
 *
 * @public
 */
export function podTemplateMetadataFields(spec: ModelDeploymentSpec): {
  metadata?: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
} {
  const meta = spec.podTemplate?.metadata;
  if (!meta?.labels && !meta?.annotations) return {};
  return {
    metadata: {
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
  };
}

/**
 * "Use a cached model": a deployment that mounts a Model's PVC instead of
 * downloading the weights itself. Written once for the deployment wizard
 * (and anything else that links a deployment to a Model).
 *
 * The download Job writes the repository's files flat at the PVC root (not
 * the Hugging Face cache layout), so the volume is a read-only `custom`
 * mount at `/models/<name>`, the path the injection webhook uses too; a
 * `modelCache` volume would point `HF_HOME` at it, and a read-only `HF_HOME`
 * without the hub layout makes the engine fail to download into it. For
 * the same reason `spec.model.id` is the mount path (vLLM, SGLang and
 * TensorRT-LLM load a local directory given as the model) and the served
 * name is the Hugging Face repository id clients would use otherwise.
 */
import type { Model } from '../generated/model';
import type { StorageVolume } from '../generated/modelDeployment';
import {
  defaultModelMountPath,
  modelPvcName,
  modelSourceType,
  modelVolumeName,
} from './naming';

/** @public */
export interface CachedModelChoice {
  /** The Model's name. */
  model: string;
  /** The `spec.model.storage.volumes` entry that mounts the Model's PVC. */
  volume: StorageVolume;
  /** What `spec.model.id` becomes: the mount path, where the files are. */
  modelId: string;
  /** The Hugging Face repository id the files are from (hub sources only): the served name. */
  repoId?: string;
  /** Why the Model cannot be used yet (phase and message); undefined when `Ready`. */
  notReady?: string;
  /** Set when the PVC cannot be mounted on several nodes (no ReadOnlyMany or ReadWriteMany access mode). */
  singleNode?: string;
}

/** The volume, model id and readiness of a Model chosen as a deployment's cached model. @public */
export function cachedModelChoice(model: Model): CachedModelChoice {
  const name = model.metadata?.name ?? '';
  const mountPath = defaultModelMountPath(name);
  const volume: StorageVolume = {
    name: modelVolumeName(name),
    claimName: model.status?.pvcName || modelPvcName(name),
    mountPath,
    purpose: 'custom',
    readOnly: true,
  };
  const repoId =
    modelSourceType(model.spec?.source) === 'huggingface'
      ? model.spec.source.huggingFace!.repoId
      : undefined;
  const phase = model.status?.phase;
  const notReady =
    phase === 'Ready'
      ? undefined
      : `Model ${name} is not Ready yet (phase ${phase ?? 'Pending'}${
          model.status?.message ? `: ${model.status.message}` : ''
        }): deploy once it is Ready, until then its volume holds no or partial files`;
  const modes = model.spec?.storage?.accessModes ?? ['ReadWriteOnce'];
  const singleNode = modes.some(
    m => m === 'ReadOnlyMany' || m === 'ReadWriteMany',
  )
    ? undefined
    : `PVC ${volume.claimName} is ${modes.join(
        ', ',
      )}: every replica must run on the node that mounts it; for replicas on several nodes, give Model ${name} spec.storage.accessModes ReadOnlyMany or ReadWriteMany`;
  return {
    model: name,
    volume,
    modelId: mountPath,
    repoId,
    notReady,
    singleNode,
  };
}

/** The name of the Model whose PVC a volume list mounts as its cached model, if any. @public */
export function cachedModelName(
  volumes: readonly StorageVolume[] | undefined,
): string | undefined {
  for (const v of volumes ?? []) {
    const name = v.name.startsWith('model-') ? v.name.slice(6) : undefined;
    if (name && v.mountPath === defaultModelMountPath(name)) return name;
  }
  return undefined;
}

/**
 * The volume list with `choice`'s volume in place of any cached-model volume
 * it had (none when `choice` is undefined: un-choosing removes it). Other
 * volumes are kept as they are, in order.
 *
 * @public
 */
export function withCachedModel(
  volumes: readonly StorageVolume[] | undefined,
  choice: CachedModelChoice | undefined,
): StorageVolume[] {
  const current = cachedModelName(volumes);
  const kept = (volumes ?? []).filter(
    v =>
      v.name !== (current && modelVolumeName(current)) &&
      v.name !== choice?.volume.name,
  );
  return choice ? [...kept, choice.volume] : kept;
}

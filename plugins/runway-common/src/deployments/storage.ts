/**
 * `spec.model.storage.volumes` as Kubernetes pod volumes, container mounts,
 * environment and the PVCs of `size` volumes: the one translation every
 * provider whose upstream takes a pod spec (llm-d's model-server
 * Deployments, Dynamo's components, KubeRay's head and worker groups,
 * KAITO's pod templates) uses.
 *
 * Input is a deployment with defaults applied (`applyModelDeploymentDefaults`
 * fills `mountPath` by purpose and `claimName` for controller-created PVCs).
 */
import { error, type ValidationIssue } from '../schema/issues';
import type { ModelDeployment, ModelDeploymentSpec } from './types';

/** Hugging Face's cache root: a modelCache volume mounted there keeps downloaded weights across restarts. @public */
export const MODEL_CACHE_ENV = 'HF_HOME';

/** A storage volume ready to mount. @public */
export interface MountableVolume {
  /** The volume's name in the pod (the spec's volume name, a DNS label). */
  name: string;
  claimName: string;
  mountPath: string;
  purpose: 'modelCache' | 'compilationCache' | 'custom';
  readOnly: boolean;
}

/** @public */
export interface PodVolume {
  name: string;
  persistentVolumeClaim: { claimName: string; readOnly?: boolean };
}

/** @public */
export interface ContainerVolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}

/**
 * The deployment's volumes, and the issues that keep one from being mounted
 * (a volume the validator would have refused: no claim or no mount path).
 * Messages say what to do; `path` names the field.
 *
 * @public
 */
export function mountableVolumes(md: ModelDeployment): {
  volumes: MountableVolume[];
  issues: ValidationIssue[];
} {
  const volumes: MountableVolume[] = [];
  const issues: ValidationIssue[] = [];
  (md.spec?.model?.storage?.volumes ?? []).forEach((v, i) => {
    const at = (field: string) => `spec.model.storage.volumes[${i}].${field}`;
    if (!v.claimName) {
      issues.push(
        error(
          at('claimName'),
          'is required when size is not set: name an existing PVC, or set size',
        ),
      );
    }
    if (!v.mountPath)
      issues.push(
        error(
          at('mountPath'),
          'is required when purpose is custom: set an absolute path',
        ),
      );
    if (!v.claimName || !v.mountPath) return;
    volumes.push({
      name: v.name,
      claimName: v.claimName,
      mountPath: v.mountPath,
      purpose: v.purpose ?? 'custom',
      readOnly: v.readOnly === true,
    });
  });
  return { volumes, issues };
}

/** Pod `volumes` entries: one PVC volume each, read-only where the spec says. @public */
export function podVolumes(volumes: MountableVolume[]): PodVolume[] {
  return volumes.map(v => ({
    name: v.name,
    persistentVolumeClaim: v.readOnly
      ? { claimName: v.claimName, readOnly: true }
      : { claimName: v.claimName },
  }));
}

/** Container `volumeMounts` entries for the same volumes. @public */
export function containerVolumeMounts(
  volumes: MountableVolume[],
): ContainerVolumeMount[] {
  return volumes.map(v =>
    v.readOnly
      ? { name: v.name, mountPath: v.mountPath, readOnly: true }
      : { name: v.name, mountPath: v.mountPath },
  );
}

/**
 * `HF_HOME` at the modelCache volume, so the engine downloads into (or, read-only,
 * loads from) the PVC, unless the user's `spec.env` sets it already.
 *
 * @public
 */
export function modelCacheEnv(
  volumes: MountableVolume[],
  env: ModelDeploymentSpec['env'],
): Array<{ name: string; value: string }> {
  const cache = volumes.find(v => v.purpose === 'modelCache');
  if (!cache || (env ?? []).some(e => e.name === MODEL_CACHE_ENV)) return [];
  return [{ name: MODEL_CACHE_ENV, value: cache.mountPath }];
}

/** vLLM's cache root (torch.compile artefacts live under it): pointed at a compilationCache volume. @public */
export const COMPILATION_CACHE_ENV = 'VLLM_CACHE_ROOT';

/**
 * `VLLM_CACHE_ROOT` at the compilationCache volume, for providers that run
 * vLLM themselves (llm-d, KubeRay's Ray Serve LLM), unless `spec.env` sets it.
 *
 * @public
 */
export function compilationCacheEnv(
  volumes: MountableVolume[],
  env: ModelDeploymentSpec['env'],
): Array<{ name: string; value: string }> {
  const cache = volumes.find(v => v.purpose === 'compilationCache');
  if (!cache || (env ?? []).some(e => e.name === COMPILATION_CACHE_ENV))
    return [];
  return [{ name: COMPILATION_CACHE_ENV, value: cache.mountPath }];
}

/** What a model-server pod gets from the deployment's volumes: the volumes to mount and the cache environment. @public */
export interface PodStorage {
  volumes: MountableVolume[];
  env: Array<{ name: string; value: string }>;
}

/**
 * The volumes and their cache environment (`HF_HOME`, and `VLLM_CACHE_ROOT`
 * when the pod runs vLLM itself), or the issues that keep a volume from
 * being mounted (the provider fails naming the field).
 *
 * @public
 */
export function podStorage(
  md: ModelDeployment,
  opts: { runsVllm: boolean },
): PodStorage & { issues: ValidationIssue[] } {
  const { volumes, issues } = mountableVolumes(md);
  const compile = opts.runsVllm
    ? compilationCacheEnv(volumes, md.spec?.env)
    : [];
  return {
    volumes,
    env: [...modelCacheEnv(volumes, md.spec?.env), ...compile],
    issues,
  };
}

/** A PersistentVolumeClaim as a provider creates it (namespace, owner and labels come from the provider's loop). @public */
export interface ManagedClaim {
  apiVersion: 'v1';
  kind: 'PersistentVolumeClaim';
  metadata: { name: string };
  spec: {
    accessModes: string[];
    resources: { requests: { storage: string } };
    storageClassName?: string;
  };
  [field: string]: unknown;
}

/**
 * The PVCs the controller creates: one per volume with `size` (named
 * `claimName`, `<deployment>-<volume>` by default; access mode
 * ReadWriteMany unless set; the cluster's default storage class unless
 * `storageClassName` is set). Volumes without `size` name a claim that exists.
 *
 * @public
 */
export function managedClaims(md: ModelDeployment): ManagedClaim[] {
  return (md.spec?.model?.storage?.volumes ?? [])
    .filter(v => v.size !== undefined && v.size !== '' && v.claimName)
    .map(v => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: v.claimName! },
      spec: {
        accessModes: [v.accessMode ?? 'ReadWriteMany'],
        resources: { requests: { storage: String(v.size) } },
        // '' is Kubernetes' "no class", kept; absent means the cluster's default class.
        ...(v.storageClassName !== undefined
          ? { storageClassName: v.storageClassName }
          : {}),
      },
    }));
}

import { applyModelDeploymentDefaults } from './defaults';
import {
  compilationCacheEnv,
  containerVolumeMounts,
  managedClaims,
  modelCacheEnv,
  mountableVolumes,
  podStorage,
  podVolumes,
} from './storage';
import { deployment } from './testing';
import type { ModelDeployment } from './types';

/** Defaults applied, as providers receive it. */
function withVolumes(
  volumes: unknown[],
  env?: Array<{ name: string; value: string }>,
): ModelDeployment {
  const md = deployment({
    model: {
      id: 'meta-llama/Llama-3.1-8B-Instruct',
      storage: { volumes },
    } as any,
    env,
  });
  return applyModelDeploymentDefaults(md);
}

describe('storage volumes', () => {
  const md = withVolumes([
    { name: 'weights', purpose: 'modelCache', size: '100Gi' },
    {
      name: 'compile',
      purpose: 'compilationCache',
      claimName: 'shared-compile',
    },
    {
      name: 'datasets',
      claimName: 'team-data',
      mountPath: '/data',
      readOnly: true,
    },
  ]);

  it('resolves claims and mount paths from the defaults', () => {
    const { volumes, issues } = mountableVolumes(md);
    expect(issues).toEqual([]);
    expect(volumes).toEqual([
      {
        name: 'weights',
        claimName: 'llama-weights',
        mountPath: '/model-cache',
        purpose: 'modelCache',
        readOnly: false,
      },
      {
        name: 'compile',
        claimName: 'shared-compile',
        mountPath: '/compilation-cache',
        purpose: 'compilationCache',
        readOnly: false,
      },
      {
        name: 'datasets',
        claimName: 'team-data',
        mountPath: '/data',
        purpose: 'custom',
        readOnly: true,
      },
    ]);
  });

  it('mounts each claim, read-only only where the spec says', () => {
    const { volumes } = mountableVolumes(md);
    expect(podVolumes(volumes)).toEqual([
      {
        name: 'weights',
        persistentVolumeClaim: { claimName: 'llama-weights' },
      },
      {
        name: 'compile',
        persistentVolumeClaim: { claimName: 'shared-compile' },
      },
      {
        name: 'datasets',
        persistentVolumeClaim: { claimName: 'team-data', readOnly: true },
      },
    ]);
    expect(containerVolumeMounts(volumes)).toEqual([
      { name: 'weights', mountPath: '/model-cache' },
      { name: 'compile', mountPath: '/compilation-cache' },
      { name: 'datasets', mountPath: '/data', readOnly: true },
    ]);
  });

  it('points HF_HOME at the model cache unless the user set it', () => {
    expect(modelCacheEnv(mountableVolumes(md).volumes, md.spec.env)).toEqual([
      { name: 'HF_HOME', value: '/model-cache' },
    ]);
    const own = withVolumes(
      [{ name: 'weights', purpose: 'modelCache', claimName: 'w' }],
      [{ name: 'HF_HOME', value: '/x' }],
    );
    expect(modelCacheEnv(mountableVolumes(own).volumes, own.spec.env)).toEqual(
      [],
    );
    const none = withVolumes([
      { name: 'data', claimName: 'd', mountPath: '/d' },
    ]);
    expect(
      modelCacheEnv(mountableVolumes(none).volumes, none.spec.env),
    ).toEqual([]);
  });

  it('points VLLM_CACHE_ROOT at the compilation cache unless spec.env sets it', () => {
    expect(
      compilationCacheEnv(mountableVolumes(md).volumes, md.spec.env),
    ).toEqual([{ name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' }]);
    const own = withVolumes(
      [{ name: 'compile', purpose: 'compilationCache', claimName: 'c' }],
      [{ name: 'VLLM_CACHE_ROOT', value: '/x' }],
    );
    expect(
      compilationCacheEnv(mountableVolumes(own).volumes, own.spec.env),
    ).toEqual([]);
    const none = withVolumes([
      { name: 'weights', purpose: 'modelCache', claimName: 'w' },
    ]);
    expect(
      compilationCacheEnv(mountableVolumes(none).volumes, none.spec.env),
    ).toEqual([]);
  });

  it("gathers a pod's volumes and cache environment, VLLM_CACHE_ROOT only for vLLM pods", () => {
    const hf = { name: 'HF_HOME', value: '/model-cache' };
    const vllm = podStorage(md, { runsVllm: true });
    expect(vllm.volumes.map(v => v.name)).toEqual([
      'weights',
      'compile',
      'datasets',
    ]);
    expect(vllm.env).toEqual([
      hf,
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ]);
    expect(vllm.issues).toEqual([]);
    expect(podStorage(md, { runsVllm: false }).env).toEqual([hf]);
    const bad = podStorage(withVolumes([{ name: 'a', claimName: 'a' }]), {
      runsVllm: true,
    });
    expect(bad.issues.map(i => i.path)).toEqual([
      'spec.model.storage.volumes[0].mountPath',
    ]);
  });

  it('names the field of a volume that cannot be mounted', () => {
    const bad = withVolumes([
      { name: 'a', mountPath: '/a' },
      { name: 'b', claimName: 'b' },
    ]);
    const { volumes, issues } = mountableVolumes(bad);
    expect(volumes).toEqual([]);
    expect(issues.map(i => i.path)).toEqual([
      'spec.model.storage.volumes[0].claimName',
      'spec.model.storage.volumes[1].mountPath',
    ]);
  });

  it('has nothing to mount without storage', () => {
    expect(mountableVolumes(deployment())).toEqual({ volumes: [], issues: [] });
  });

  it('creates a PVC for each volume with a size only', () => {
    expect(managedClaims(md)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'llama-weights' },
        spec: {
          accessModes: ['ReadWriteMany'],
          resources: { requests: { storage: '100Gi' } },
        },
      },
    ]);
    const classed = withVolumes([
      {
        name: 'c',
        purpose: 'compilationCache',
        size: '10Gi',
        storageClassName: 'fast',
        accessMode: 'ReadWriteOnce',
      },
    ]);
    expect(managedClaims(classed)[0].spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '10Gi' } },
      storageClassName: 'fast',
    });
    expect(managedClaims(deployment())).toEqual([]);
  });
});

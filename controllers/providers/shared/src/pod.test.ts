import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { TransformError } from './definition';
import {
  modelContainerFields,
  modelServerEnv,
  podStorageOf,
  podTemplateMetadataFields,
  podVolumeFields,
} from './pod';

const md = (spec: Record<string, unknown>): ModelDeployment =>
  ({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'm', namespace: 'ns' },
    spec: { model: { id: 'org/model', source: 'huggingface' }, ...spec },
  } as unknown as ModelDeployment);

const withVolumes = md({
  model: {
    id: 'org/model',
    source: 'huggingface',
    storage: {
      volumes: [
        {
          name: 'cache',
          purpose: 'modelCache',
          claimName: 'c1',
          mountPath: '/cache',
        },
        {
          name: 'compile',
          purpose: 'compilationCache',
          claimName: 'c2',
          mountPath: '/compile',
          readOnly: true,
        },
      ],
    },
  },
  env: [{ name: 'A', value: 'b' }],
  secrets: { huggingFaceToken: 'hf' },
});

describe('the shared pod builder', () => {
  it('gives the cache environment, with VLLM_CACHE_ROOT only for pods that run vLLM', () => {
    expect(podStorageOf(withVolumes, { runsVllm: true }).env).toEqual([
      { name: 'HF_HOME', value: '/cache' },
      { name: 'VLLM_CACHE_ROOT', value: '/compile' },
    ]);
    expect(podStorageOf(withVolumes, { runsVllm: false }).env).toEqual([
      { name: 'HF_HOME', value: '/cache' },
    ]);
  });

  it('fails a volume that cannot be mounted, naming its field', () => {
    const broken = md({
      model: {
        id: 'org/model',
        source: 'huggingface',
        storage: { volumes: [{ name: 'v', purpose: 'custom' }] },
      },
    });
    const thrown = (() => {
      try {
        podStorageOf(broken, { runsVllm: true });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(TransformError);
    expect((thrown as TransformError).field).toMatch(
      /^spec\.model\.storage\.volumes\[0\]/,
    );
  });

  it('writes env, envFrom, resources and volumeMounts in this order, each only when present', () => {
    const storage = podStorageOf(withVolumes, { runsVllm: true });
    const fields = modelContainerFields({
      env: modelServerEnv(withVolumes.spec, storage, [
        { name: 'OWN', value: '1' },
      ]),
      spec: withVolumes.spec,
      resources: { limits: { 'nvidia.com/gpu': 1 } },
      storage,
    });
    expect(Object.keys(fields)).toEqual([
      'env',
      'envFrom',
      'resources',
      'volumeMounts',
    ]);
    expect((fields.env as Array<{ name: string }>).map(e => e.name)).toEqual([
      'A',
      'HF_HOME',
      'VLLM_CACHE_ROOT',
      'OWN',
    ]);
    expect(fields.envFrom).toEqual([{ secretRef: { name: 'hf' } }]);
    expect(fields.volumeMounts).toEqual([
      { name: 'cache', mountPath: '/cache' },
      { name: 'compile', mountPath: '/compile', readOnly: true },
    ]);
    expect(podVolumeFields(storage)).toEqual({
      volumes: [
        { name: 'cache', persistentVolumeClaim: { claimName: 'c1' } },
        {
          name: 'compile',
          persistentVolumeClaim: { claimName: 'c2', readOnly: true },
        },
      ],
    });
    const bare = md({});
    const none = podStorageOf(bare, { runsVllm: true });
    expect(
      modelContainerFields({ env: [], spec: bare.spec, storage: none }),
    ).toEqual({});
    expect(podVolumeFields(none)).toEqual({});
  });

  it("copies the pod template's labels and annotations, and writes no metadata without them", () => {
    expect(
      podTemplateMetadataFields(
        md({ podTemplate: { metadata: { labels: { team: 'ml' } } } }).spec,
      ),
    ).toEqual({ metadata: { labels: { team: 'ml' } } });
    expect(
      podTemplateMetadataFields(
        md({ podTemplate: { metadata: { annotations: { a: 'b' } } } }).spec,
      ),
    ).toEqual({ metadata: { annotations: { a: 'b' } } });
    expect(podTemplateMetadataFields(md({}).spec)).toEqual({});
  });
});

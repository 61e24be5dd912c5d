import type { Model } from '../generated/model';
import {
  cachedModelChoice,
  cachedModelName,
  withCachedModel,
} from './cachedModel';

function model(
  name: string,
  status: Model['status'] = { phase: 'Ready', pvcName: `model-${name}` },
  source: Model['spec']['source'] = {
    huggingFace: { repoId: 'Qwen/Qwen2.5-0.5B-Instruct' },
  },
): Model {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name, namespace: 'ml' },
    spec: { source, storage: { storageClass: 'standard', size: '5Gi' } },
    status,
  };
}

describe('cachedModelChoice', () => {
  it('mounts a Ready Model read-only at /models/<name> and serves it as its repository id', () => {
    expect(cachedModelChoice(model('qwen'))).toEqual({
      model: 'qwen',
      volume: {
        name: 'model-qwen',
        claimName: 'model-qwen',
        mountPath: '/models/qwen',
        purpose: 'custom',
        readOnly: true,
      },
      modelId: '/models/qwen',
      repoId: 'Qwen/Qwen2.5-0.5B-Instruct',
      notReady: undefined,
      singleNode:
        'PVC model-qwen is ReadWriteOnce: every replica must run on the node that mounts it; for replicas on several nodes, give Model qwen spec.storage.accessModes ReadOnlyMany or ReadWriteMany',
    });
  });

  it('says nothing about nodes when the PVC can be mounted on several', () => {
    const m = model('a');
    m.spec.storage.accessModes = ['ReadWriteOnce', 'ReadOnlyMany'];
    expect(cachedModelChoice(m).singleNode).toBeUndefined();
  });

  it('uses the PVC the status names, and the naming convention before there is one', () => {
    expect(
      cachedModelChoice(model('a', { phase: 'Ready', pvcName: 'other' })).volume
        .claimName,
    ).toBe('other');
    expect(cachedModelChoice(model('a', {})).volume.claimName).toBe('model-a');
  });

  it('says why a Model that is not Ready cannot be used yet, with its phase and message', () => {
    expect(
      cachedModelChoice(
        model('a', { phase: 'Downloading', message: '40% (2.0 GiB)' }),
      ).notReady,
    ).toBe(
      'Model a is not Ready yet (phase Downloading: 40% (2.0 GiB)): deploy once it is Ready, until then its volume holds no or partial files',
    );
    expect(cachedModelChoice(model('a', {})).notReady).toMatch(
      /phase Pending\)/,
    );
  });

  it('has no repository id for S3 and URL sources: the model id is the path', () => {
    const choice = cachedModelChoice(
      model('s', { phase: 'Ready' }, { s3: { bucket: 'b', key: 'k' } }),
    );
    expect(choice.modelId).toBe('/models/s');
    expect(choice.repoId).toBeUndefined();
  });
});

describe('withCachedModel', () => {
  const cache = {
    name: 'cache',
    purpose: 'compilationCache' as const,
    size: '10Gi',
  };

  it('adds the volume after the others, replaces a previous choice and removes it on un-choosing', () => {
    const first = withCachedModel([cache], cachedModelChoice(model('a')));
    expect(first.map(v => v.name)).toEqual(['cache', 'model-a']);
    expect(cachedModelName(first)).toBe('a');

    const second = withCachedModel(first, cachedModelChoice(model('b')));
    expect(second.map(v => v.name)).toEqual(['cache', 'model-b']);
    expect(cachedModelName(second)).toBe('b');

    expect(withCachedModel(second, undefined)).toEqual([cache]);
    expect(withCachedModel(undefined, undefined)).toEqual([]);
  });

  it('does not take a user volume that only looks like a model volume for the choice', () => {
    const own = { name: 'model-x', claimName: 'mine', mountPath: '/data' };
    expect(cachedModelName([own])).toBeUndefined();
    expect(withCachedModel([own], undefined)).toEqual([own]);
  });
});

import { KubeClient } from '../kube/client';
import type { KubeObject } from '../kube/types';
import { ConfigMaps, Pods } from '../kube/wellKnown';
import { SharedInformerFactory } from './sharedInformers';
import { keepFields, LAST_APPLIED_ANNOTATION, trimForCache } from './transform';

const pod = (annotations?: Record<string, string>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'ns',
      annotations,
      managedFields: [{ manager: 'kubectl' }],
    },
    spec: { containers: [{ name: 'c', image: 'i' }] },
    status: { phase: 'Running' },
  } as KubeObject);

describe('trimForCache', () => {
  it('drops managedFields and the last-applied annotation, keeping other annotations, without touching the input', () => {
    const input = pod({ [LAST_APPLIED_ANNOTATION]: '{"big":1}', keep: 'me' });
    const out = trimForCache(input);
    expect(out.metadata).toEqual({
      name: 'p',
      namespace: 'ns',
      annotations: { keep: 'me' },
    });
    expect(input.metadata?.managedFields).toHaveLength(1);
    expect(input.metadata?.annotations?.[LAST_APPLIED_ANNOTATION]).toBe(
      '{"big":1}',
    );
  });

  it('drops the annotations object when the last-applied one was all of it', () => {
    const out = trimForCache(pod({ [LAST_APPLIED_ANNOTATION]: '{}' }));
    expect(out.metadata).not.toHaveProperty('annotations');
  });

  it('returns an object with nothing to drop as it is', () => {
    const plain: KubeObject = {
      metadata: { name: 'a', annotations: { x: 'y' } },
    };
    expect(trimForCache(plain)).toBe(plain);
  });
});

describe('keepFields', () => {
  it('keeps type, metadata and the named fields only', () => {
    const out = keepFields('status')(pod());
    expect(Object.keys(out).sort()).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'status',
    ]);
    expect((out as { status?: unknown }).status).toEqual({ phase: 'Running' });
  });
});

describe('SharedInformerFactory transforms', () => {
  // No request is sent: informers are created but never started.
  const client = { connectivity: {} } as unknown as KubeClient;

  it('shares one informer between callers with the same transform, or none after the first', () => {
    const factory = new SharedInformerFactory(client);
    const onlyStatus = keepFields('status');
    const first = factory.informerFor(Pods, {}, { transform: onlyStatus });
    expect(factory.informerFor(Pods, {}, { transform: onlyStatus })).toBe(
      first,
    );
    expect(factory.informerFor(Pods)).toBe(first);
    expect(factory.count()).toBe(1);
  });

  it('refuses a second, different transform for a shared informer, naming it', () => {
    const factory = new SharedInformerFactory(client);
    factory.informerFor(Pods, { namespace: 'a' }, { transform: keepFields() });
    expect(() =>
      factory.informerFor(
        Pods,
        { namespace: 'a' },
        { transform: keepFields('status') },
      ),
    ).toThrow(
      'the informer of pods./v1 ({"namespace":"a"}) has another transform: its objects are shared, so pass the same transform wherever it is requested, first included',
    );
    factory.informerFor(ConfigMaps);
    expect(() =>
      factory.informerFor(ConfigMaps, {}, { transform: keepFields('data') }),
    ).toThrow('was created without a transform');
  });
});

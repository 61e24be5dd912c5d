import type { KubeObject } from '../kube/types';
import {
  and,
  annotationsChanged,
  generationChanged,
  labelsChanged,
  not,
  objectMatches,
  or,
  passes,
  resourceVersionChanged,
} from './predicates';
import { ownerRequests, requestFor } from './requests';

const obj = (meta: KubeObject['metadata']): KubeObject => ({
  metadata: { name: 'a', namespace: 'ns', ...meta },
});

describe('predicates', () => {
  it('generationChanged passes spec changes only, and always passes create/delete', () => {
    const g1 = obj({ generation: 1, resourceVersion: '1' });
    const g1status = obj({ generation: 1, resourceVersion: '2' });
    const g2 = obj({ generation: 2, resourceVersion: '3' });
    expect(passes([generationChanged], 'update', g1status, g1)).toBe(false);
    expect(passes([generationChanged], 'update', g2, g1status)).toBe(true);
    expect(passes([generationChanged], 'create', g1)).toBe(true);
    expect(passes([generationChanged], 'delete', g1)).toBe(true);
  });

  it('labelsChanged and annotationsChanged compare maps by content', () => {
    expect(
      passes(
        [labelsChanged],
        'update',
        obj({ labels: { a: '1' } }),
        obj({ labels: { a: '1' } }),
      ),
    ).toBe(false);
    expect(
      passes(
        [labelsChanged],
        'update',
        obj({ labels: { a: '2' } }),
        obj({ labels: { a: '1' } }),
      ),
    ).toBe(true);
    expect(
      passes([labelsChanged], 'update', obj({}), obj({ labels: {} })),
    ).toBe(false);
    expect(
      passes(
        [annotationsChanged],
        'update',
        obj({ annotations: { x: 'y' } }),
        obj({}),
      ),
    ).toBe(true);
  });

  it('resourceVersionChanged drops no-op updates', () => {
    expect(
      passes(
        [resourceVersionChanged],
        'update',
        obj({ resourceVersion: '5' }),
        obj({ resourceVersion: '5' }),
      ),
    ).toBe(false);
  });

  it('combines with and/or/not and objectMatches', () => {
    const isGpu = objectMatches(o => o.metadata?.labels?.tier === 'gpu');
    const gpu = obj({ labels: { tier: 'gpu' }, generation: 1 });
    const cpu = obj({ labels: { tier: 'cpu' }, generation: 1 });
    expect(passes([isGpu], 'create', cpu)).toBe(false);
    expect(passes([and(isGpu, generationChanged)], 'update', gpu, gpu)).toBe(
      false,
    );
    expect(passes([or(isGpu, generationChanged)], 'update', gpu, gpu)).toBe(
      true,
    );
    expect(passes([not(isGpu)], 'delete', cpu)).toBe(true);
    expect(passes([], 'update', cpu, gpu)).toBe(true);
  });
});

describe('requests', () => {
  const owned = obj({
    ownerReferences: [
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'md',
        uid: '1',
        controller: true,
      },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'other', uid: '2' },
      {
        apiVersion: 'bad/api/version',
        kind: 'ModelDeployment',
        name: 'x',
        uid: '3',
        controller: true,
      },
    ],
  });

  it('maps an owned object to its controlling owner of the right group and kind', () => {
    expect(
      ownerRequests(owned, { group: 'airunway.ai', kind: 'ModelDeployment' }),
    ).toEqual([{ namespace: 'ns', name: 'md' }]);
    expect(ownerRequests(owned, { group: 'apps', kind: 'Deployment' })).toEqual(
      [],
    );
    expect(
      ownerRequests(owned, { group: 'apps', kind: 'Deployment' }, false),
    ).toEqual([{ namespace: 'ns', name: 'other' }]);
  });

  it('requestFor uses the object key', () => {
    expect(requestFor(owned)).toEqual([{ namespace: 'ns', name: 'a' }]);
    expect(requestFor({ metadata: {} })).toEqual([]);
  });
});

import {
  DEFAULT_NODES,
  GPU_RESOURCE,
  nodeManifest,
  validateNodeSpec,
} from './nodes';

describe('nodeManifest', () => {
  it('marks the node for kwok and advertises GPU capacity', () => {
    const node = nodeManifest({
      name: 'gpu-0',
      gpus: 4,
      cpu: '32',
      memory: '128Gi',
    });
    expect(node.metadata?.annotations).toEqual({
      'kwok.x-k8s.io/node': 'fake',
    });
    expect(node.metadata?.labels?.type).toBe('kwok');
    expect(node.status?.capacity).toEqual({
      cpu: '32',
      memory: '128Gi',
      pods: '110',
      [GPU_RESOURCE]: '4',
    });
    expect(node.status?.allocatable).toEqual(node.status?.capacity);
    expect(node.spec?.taints).toBeUndefined();
  });

  it('gives CPU nodes no GPU resource', () => {
    const node = nodeManifest({ name: 'cpu-0' });
    expect(node.status?.capacity?.[GPU_RESOURCE]).toBeUndefined();
    expect(node.status?.capacity?.cpu).toBe('32');
  });

  it('defaults to one GPU node and one CPU node', () => {
    expect(DEFAULT_NODES.map(node => Boolean(node.gpus))).toEqual([
      true,
      false,
    ]);
  });
});

describe('validateNodeSpec', () => {
  it('names the field and the fix', () => {
    expect(() => validateNodeSpec({ name: 'GPU_0' }, 2)).toThrow(
      /nodes\[2\]\.name "GPU_0" is not a valid node name: use lower-case/,
    );
    expect(() => validateNodeSpec({ name: 'a', gpus: -1 }, 0)).toThrow(
      /nodes\[0\]\.gpus must be a whole number >= 0/,
    );
    expect(() => validateNodeSpec({ name: 'a', gpus: 1.5 }, 0)).toThrow(/gpus/);
    expect(() => validateNodeSpec({ name: 'a', memory: '128 GB' }, 1)).toThrow(
      /nodes\[1\]\.memory "128 GB" is not a Kubernetes quantity: use a string such as "128Gi"/,
    );
    expect(() =>
      validateNodeSpec({ name: 'a', cpu: 32 as unknown as string }, 0),
    ).toThrow(/nodes\[0\]\.cpu 32 is not a Kubernetes quantity/);
    expect(() => validateNodeSpec({ name: 'a', pods: 0 }, 0)).toThrow(
      /pods must be a whole number >= 1/,
    );
  });

  it('accepts valid specs', () => {
    expect(() =>
      validateNodeSpec(
        {
          name: 'gpu-0.rack1',
          gpus: 8,
          cpu: '500m',
          memory: '1.5Ti',
          pods: 10,
        },
        0,
      ),
    ).not.toThrow();
  });
});

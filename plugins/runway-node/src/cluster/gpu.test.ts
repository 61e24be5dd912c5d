import { gpuCapacity, isGpuResource, podRequest } from './gpu';

const node = (
  name: string,
  allocatable: Record<string, string>,
  unschedulable = false,
) => ({
  metadata: { name },
  spec: { unschedulable },
  status: { allocatable },
});

const pod = (
  nodeName: string | undefined,
  containers: Array<Record<string, string>>,
  extra: {
    phase?: string;
    init?: Array<{ limits: Record<string, string>; restartPolicy?: string }>;
  } = {},
) => ({
  spec: {
    nodeName,
    containers: containers.map(limits => ({ resources: { limits } })),
    initContainers: extra.init?.map(c => ({
      resources: { limits: c.limits },
      restartPolicy: c.restartPolicy,
    })),
  },
  status: { phase: extra.phase ?? 'Running' },
});

describe('isGpuResource', () => {
  it('recognises device-plugin accelerator resources and nothing else', () => {
    expect(
      [
        'nvidia.com/gpu',
        'nvidia.com/mig-1g.10gb',
        'amd.com/gpu',
        'gpu.intel.com/i915',
        'google.com/tpu',
      ].every(isGpuResource),
    ).toBe(true);
    expect(
      [
        'cpu',
        'memory',
        'pods',
        'ephemeral-storage',
        'example.com/gpu-ish',
      ].some(isGpuResource),
    ).toBe(false);
  });
});

describe('podRequest', () => {
  it('sums app containers, takes the largest init container, adds sidecars', () => {
    const p = pod('n', [{ 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '2' }], {
      init: [
        { limits: { 'nvidia.com/gpu': '4' } },
        { limits: { 'nvidia.com/gpu': '1' }, restartPolicy: 'Always' },
      ],
    });
    // app: 1 + 2 + sidecar 1 = 4; init: 4 + sidecar 1 = 5
    expect(podRequest(p, 'nvidia.com/gpu')).toBe(5);
  });

  it('takes the request when set, the limit otherwise', () => {
    const p = {
      spec: {
        containers: [
          {
            resources: {
              requests: { 'amd.com/gpu': '2' },
              limits: { 'amd.com/gpu': '3' },
            },
          },
        ],
      },
    };
    expect(podRequest(p, 'amd.com/gpu')).toBe(2);
  });
});

describe('gpuCapacity', () => {
  it('adds allocatable per resource type and splits requested from pending', () => {
    const nodes = [
      node('gpu-0', { cpu: '32', 'nvidia.com/gpu': '4' }),
      node('gpu-1', { 'nvidia.com/gpu': '8', 'amd.com/gpu': '2' }),
      node('cpu-0', { cpu: '16' }),
      node('cordoned', { 'nvidia.com/gpu': '8' }, true),
    ];
    const pods = [
      pod('gpu-0', [{ 'nvidia.com/gpu': '2' }]),
      pod('gpu-1', [{ 'nvidia.com/gpu': '3', 'amd.com/gpu': '1' }]),
      pod(undefined, [{ 'nvidia.com/gpu': '4' }], { phase: 'Pending' }),
      pod('gpu-0', [{ 'nvidia.com/gpu': '2' }], { phase: 'Succeeded' }),
      pod('cpu-0', [{ cpu: '1' }]),
    ];
    expect(gpuCapacity(nodes, pods)).toEqual([
      {
        resource: 'amd.com/gpu',
        allocatable: 2,
        requested: 1,
        pending: 0,
        nodes: 1,
      },
      {
        resource: 'nvidia.com/gpu',
        allocatable: 12,
        requested: 5,
        pending: 4,
        nodes: 2,
      },
    ]);
  });

  it('is empty for a cluster without accelerators', () => {
    expect(
      gpuCapacity(
        [node('cpu-0', { cpu: '16' })],
        [pod('cpu-0', [{ cpu: '1' }])],
      ),
    ).toEqual([]);
  });
});

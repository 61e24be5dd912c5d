import { GPU_NODE_LABELS } from '@runway-portal/plugin-runway-common';
import { gpuCapacity, gpuTypes, isGpuResource, podRequest } from './gpu';

const node = (
  name: string,
  allocatable: Record<string, string>,
  unschedulable = false,
  labels?: Record<string, string>,
) => ({
  metadata: { name, labels },
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

describe('gpuTypes', () => {
  const MiB = 1024 * 1024;
  const labelled = (
    name: string,
    gpus: string,
    memoryMiB: string,
    product?: string,
  ) =>
    node(name, { 'nvidia.com/gpu': gpus }, false, {
      [GPU_NODE_LABELS.memoryMiB]: memoryMiB,
      ...(product ? { [GPU_NODE_LABELS.product]: product } : {}),
    });

  it('groups GPUs by product and memory from the feature-discovery labels, free per node', () => {
    const nodes = [
      labelled('a100-0', '4', '81920', 'NVIDIA-A100-SXM4-80GB'),
      labelled('a100-1', '4', '81920', 'NVIDIA-A100-SXM4-80GB'),
      labelled('t4-0', '2', '15360', 'Tesla-T4'),
      node('unlabelled', { 'nvidia.com/gpu': '8' }),
      labelled('bad-label', '8', 'lots'),
    ];
    const pods = [
      pod('a100-0', [{ 'nvidia.com/gpu': '3' }]),
      pod('a100-1', [{ 'nvidia.com/gpu': '1' }]),
      pod('a100-1', [{ 'nvidia.com/gpu': '3' }], { phase: 'Succeeded' }),
      pod(undefined, [{ 'nvidia.com/gpu': '4' }], { phase: 'Pending' }),
    ];
    expect(gpuTypes(nodes, pods, 'nvidia.com/gpu')).toEqual([
      {
        product: 'NVIDIA-A100-SXM4-80GB',
        memoryBytes: 81920 * MiB,
        nodes: 2,
        allocatable: 8,
        free: 4,
        largestFreeOnNode: 3,
      },
      {
        product: 'Tesla-T4',
        memoryBytes: 15360 * MiB,
        nodes: 1,
        allocatable: 2,
        free: 2,
        largestFreeOnNode: 2,
      },
    ]);
    // gpuCapacity carries them for the resource; types are absent without labels.
    expect(gpuCapacity(nodes, pods)[0].types).toHaveLength(2);
    expect(
      gpuCapacity([node('gpu-0', { 'nvidia.com/gpu': '4' })], [])[0],
    ).not.toHaveProperty('types');
  });
});

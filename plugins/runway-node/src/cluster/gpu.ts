/**
 * GPU capacity of a cluster: per GPU resource type, what the nodes can give
 * (allocatable), what running pods hold (requested) and what unscheduled pods
 * wait for (pending). Pure functions of Node and Pod objects.
 */
import {
  GPU_NODE_LABELS,
  type GpuCapacity,
  type GpuType,
  parseQuantity,
} from '@runway-portal/plugin-runway-common';

/** Extended resources that are accelerators, as device plugins name them. */
const GPU_RESOURCE = new RegExp(
  [
    '^nvidia\\.com/(gpu|mig-.+)$',
    '^amd\\.com/gpu$',
    '^gpu\\.intel\\.com/.+$',
    '^habana\\.ai/gaudi$',
    '^google\\.com/tpu$',
    '^aws\\.amazon\\.com/neuron(core|device)?$',
  ].join('|'),
);

/** @public */
export function isGpuResource(name: string): boolean {
  return GPU_RESOURCE.test(name);
}

/** The REST contract's shape (runway-common). */
export type { GpuCapacity } from '@runway-portal/plugin-runway-common';

type ResourceList = Record<string, string | number | undefined>;

interface ContainerLike {
  resources?: { requests?: ResourceList; limits?: ResourceList };
  restartPolicy?: string;
}

export interface NodeLike {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean };
  status?: { allocatable?: ResourceList };
}

export interface PodLike {
  spec?: {
    nodeName?: string;
    containers?: ContainerLike[];
    initContainers?: ContainerLike[];
    overhead?: ResourceList;
  };
  status?: { phase?: string };
}

/**
 * A container's request for a resource. For extended resources such as GPUs
 * Kubernetes requires requests == limits, and a limit alone implies the request.
 */
function containerRequest(c: ContainerLike, resource: string): number {
  const value =
    c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource];
  return parseQuantity(value) ?? 0;
}

/**
 * What a pod requests of `resource`, as the scheduler counts it: the larger
 * of the app containers (plus sidecars) and the largest regular init
 * container (plus sidecars), plus the pod overhead.
 *
 * @public
 */
export function podRequest(pod: PodLike, resource: string): number {
  const containers = pod.spec?.containers ?? [];
  const inits = pod.spec?.initContainers ?? [];
  const sidecars = inits.filter(c => c.restartPolicy === 'Always');
  const regularInits = inits.filter(c => c.restartPolicy !== 'Always');
  const sidecarSum = sum(sidecars.map(c => containerRequest(c, resource)));
  const appSum =
    sum(containers.map(c => containerRequest(c, resource))) + sidecarSum;
  const initMax =
    Math.max(0, ...regularInits.map(c => containerRequest(c, resource))) +
    sidecarSum;
  const overhead = parseQuantity(pod.spec?.overhead?.[resource]) ?? 0;
  return Math.max(appSum, initMax) + overhead;
}

function isFinished(pod: PodLike): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function gpuResourcesOf(list: ResourceList | undefined): string[] {
  return Object.keys(list ?? {}).filter(isGpuResource);
}

function podGpuResources(pod: PodLike): string[] {
  const all = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []),
  ];
  const names = new Set<string>();
  for (const c of all) {
    for (const r of [
      ...gpuResourcesOf(c.resources?.requests),
      ...gpuResourcesOf(c.resources?.limits),
    ]) {
      names.add(r);
    }
  }
  return [...names];
}

/** GPU capacity per resource type, sorted by resource name. @public */
export function gpuCapacity(nodes: NodeLike[], pods: PodLike[]): GpuCapacity[] {
  const byResource = new Map<string, GpuCapacity>();
  const entry = (resource: string) => {
    let e = byResource.get(resource);
    if (!e) {
      e = { resource, allocatable: 0, requested: 0, pending: 0, nodes: 0 };
      byResource.set(resource, e);
    }
    return e;
  };
  for (const node of nodes) {
    if (node.spec?.unschedulable) continue;
    for (const resource of gpuResourcesOf(node.status?.allocatable)) {
      const amount = parseQuantity(node.status?.allocatable?.[resource]) ?? 0;
      if (amount <= 0) continue;
      const e = entry(resource);
      e.allocatable += amount;
      e.nodes += 1;
    }
  }
  for (const pod of pods) {
    if (isFinished(pod)) continue;
    for (const resource of podGpuResources(pod)) {
      const amount = podRequest(pod, resource);
      if (amount <= 0) continue;
      const e = entry(resource);
      if (pod.spec?.nodeName) e.requested += amount;
      else e.pending += amount;
    }
  }
  for (const e of byResource.values()) {
    const types = gpuTypes(nodes, pods, e.resource);
    if (types.length) e.types = types;
  }
  return [...byResource.values()].sort((a, b) =>
    a.resource.localeCompare(b.resource),
  );
}

/** One GPU's memory in bytes from the node's `nvidia.com/gpu.memory` label (MiB); undefined without a valid one. @public */
export function gpuMemoryBytes(node: NodeLike): number | undefined {
  const mib = Number(node.metadata?.labels?.[GPU_NODE_LABELS.memoryMiB]);
  return Number.isFinite(mib) && mib > 0 ? mib * 1024 * 1024 : undefined;
}

/**
 * The GPUs of `resource` by model (product and memory, from the node labels
 * NVIDIA GPU feature discovery sets), with what pods bound to each node
 * hold subtracted per node; nodes without the memory label are left out.
 * Largest memory first.
 *
 * @public
 */
export function gpuTypes(
  nodes: NodeLike[],
  pods: PodLike[],
  resource: string,
): GpuType[] {
  const held = new Map<string, number>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (!node || isFinished(pod)) continue;
    held.set(node, (held.get(node) ?? 0) + podRequest(pod, resource));
  }
  const byType = new Map<string, GpuType>();
  for (const node of nodes) {
    if (node.spec?.unschedulable) continue;
    const memoryBytes = gpuMemoryBytes(node);
    const amount = parseQuantity(node.status?.allocatable?.[resource]) ?? 0;
    if (!memoryBytes || amount <= 0) continue;
    const product = node.metadata?.labels?.[GPU_NODE_LABELS.product];
    const key = `${product ?? ''}|${memoryBytes}`;
    let t = byType.get(key);
    if (!t) {
      t = {
        ...(product ? { product } : {}),
        memoryBytes,
        nodes: 0,
        allocatable: 0,
        free: 0,
        largestFreeOnNode: 0,
      };
      byType.set(key, t);
    }
    const free = Math.max(
      0,
      amount - (held.get(node.metadata?.name ?? '') ?? 0),
    );
    t.nodes += 1;
    t.allocatable += amount;
    t.free += free;
    t.largestFreeOnNode = Math.max(t.largestFreeOnNode, free);
  }
  return [...byType.values()].sort(
    (a, b) =>
      b.memoryBytes - a.memoryBytes ||
      (a.product ?? '').localeCompare(b.product ?? ''),
  );
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

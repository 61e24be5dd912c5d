import type { V1Node } from '@kubernetes/client-node';
import { KWOK_NODE_ANNOTATION } from './layout';

/** A simulated (kwok) node. */
export interface NodeSpec {
  /** DNS-1123 name, e.g. `gpu-0`. */
  name: string;
  /** `nvidia.com/gpu` capacity; 0 or absent for a CPU-only node. */
  gpus?: number;
  /** Quantity, default `'32'`. */
  cpu?: string;
  /** Quantity, default `'128Gi'`. */
  memory?: string;
  /** Default 110, as a kubelet. */
  pods?: number;
  labels?: Record<string, string>;
}

export const GPU_RESOURCE = 'nvidia.com/gpu';

export const DEFAULT_NODES: readonly NodeSpec[] = [
  { name: 'gpu-0', gpus: 4, cpu: '32', memory: '128Gi' },
  { name: 'cpu-0', cpu: '16', memory: '64Gi' },
];

const DNS_1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

/** Checks a node spec; throws an error naming the field and the fix. */
export function validateNodeSpec(spec: NodeSpec, index: number): void {
  const where = `nodes[${index}]`;
  if (typeof spec.name !== 'string' || !DNS_1123_SUBDOMAIN.test(spec.name)) {
    throw new Error(
      `${where}.name ${JSON.stringify(
        spec.name,
      )} is not a valid node name: use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit (e.g. "gpu-0")`,
    );
  }
  if (
    spec.gpus !== undefined &&
    (!Number.isInteger(spec.gpus) || spec.gpus < 0)
  ) {
    throw new Error(
      `${where}.gpus must be a whole number >= 0, got ${JSON.stringify(
        spec.gpus,
      )}`,
    );
  }
  if (
    spec.pods !== undefined &&
    (!Number.isInteger(spec.pods) || spec.pods < 1)
  ) {
    throw new Error(
      `${where}.pods must be a whole number >= 1, got ${JSON.stringify(
        spec.pods,
      )}`,
    );
  }
  for (const field of ['cpu', 'memory'] as const) {
    const value = spec[field];
    if (
      value !== undefined &&
      (typeof value !== 'string' || !QUANTITY.test(value))
    ) {
      throw new Error(
        `${where}.${field} ${JSON.stringify(
          value,
        )} is not a Kubernetes quantity: use a string such as ${
          field === 'cpu' ? '"32" or "500m"' : '"128Gi"'
        }`,
      );
    }
  }
}

/** The Node object for a spec; kwok keeps the capacity given here. */
export function nodeManifest(spec: NodeSpec): V1Node {
  const capacity: Record<string, string> = {
    cpu: spec.cpu ?? '32',
    memory: spec.memory ?? '128Gi',
    pods: String(spec.pods ?? 110),
  };
  if (spec.gpus) {
    capacity[GPU_RESOURCE] = String(spec.gpus);
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake' },
      labels: {
        type: 'kwok',
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        ...(spec.gpus ? { 'nvidia.com/gpu.present': 'true' } : {}),
        ...spec.labels,
      },
    },
    status: { capacity, allocatable: { ...capacity } },
  };
}

/**
 * Cluster facts the pages need: GPU capacity per resource and the provider
 * registrations selection runs against. Pure.
 */
import {
  DEFAULT_GPU_RESOURCE,
  type InferenceProviderConfig,
} from '@runway-portal/plugin-runway-common';
import type { ClusterOverview, GpuCapacity } from '../api/types';

export interface GpuSummary {
  resource: string;
  allocatable: number;
  requested: number;
  pending: number;
  /** allocatable − requested − pending, never below 0. */
  free: number;
  nodes: number;
}

export function summariseGpus(gpus: GpuCapacity[]): GpuSummary[] {
  return gpus.map(g => ({
    ...g,
    free: Math.max(0, g.allocatable - g.requested - g.pending),
  }));
}

/** Free GPUs of one resource type in a cluster (0 when it has none of that type). */
export function freeGpus(
  cluster: ClusterOverview | undefined,
  resource = DEFAULT_GPU_RESOURCE,
): number | undefined {
  if (!cluster) return undefined;
  const entry = summariseGpus(cluster.gpus).find(g => g.resource === resource);
  return entry ? entry.free : 0;
}

export function providersReady(cluster: ClusterOverview): {
  ready: number;
  total: number;
} {
  return {
    ready: cluster.providers.filter(p => p.ready).length,
    total: cluster.providers.length,
  };
}

/**
 * The provider registrations of a cluster, for live engine and provider
 * selection in the form: each one as the cluster holds it (the backend
 * serves its spec: capabilities, selection and compatibility rules), with
 * the readiness its controller reports. The preview step shows the
 * backend's answer for the same registrations.
 */
export function providerConfigsFor(
  cluster: ClusterOverview | undefined,
): InferenceProviderConfig[] {
  if (!cluster) return [];
  return cluster.providers.map(p => ({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name: p.name },
    spec: p.spec,
    status: { ready: p.ready },
  }));
}

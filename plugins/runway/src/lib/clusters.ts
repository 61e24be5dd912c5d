/**
 * Cluster facts the pages need: GPU capacity per resource and the provider
 * registrations selection runs against. Pure.
 */
import {
  DEFAULT_GPU_RESOURCE,
  formatBytes,
  type InferenceProviderConfig,
} from '@runway-portal/plugin-runway-common';
import type {
  ClusterError,
  ClusterFreshness,
  ClusterOverview,
  ClusterState,
  GpuCapacity,
  GpuType,
} from '../api/types';

export interface GpuSummary {
  resource: string;
  allocatable: number;
  requested: number;
  pending: number;
  /** allocatable − requested − pending, never below 0. */
  free: number;
  nodes: number;
  /** By GPU model and memory, when the nodes carry the feature-discovery labels. */
  types?: GpuType[];
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

/** One GPU model of a cluster for people: `NVIDIA-A100-SXM4-80GB, 80.0 GiB each: 3 of 4 free`. */
export function gpuTypeText(t: GpuType): string {
  return `${t.product ?? 'GPU'}, ${formatBytes(t.memoryBytes)} each: ${
    t.free
  } of ${t.allocatable} free`;
}

/** The GPUs of one resource type by model and memory (from the nodes' feature-discovery labels); undefined when the cluster does not say. */
export function gpuTypesOf(
  cluster: ClusterOverview | undefined,
  resource = DEFAULT_GPU_RESOURCE,
): GpuType[] | undefined {
  return cluster?.gpus.find(g => g.resource === resource)?.types;
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

/** How a cluster's state is shown: the words and the colour by meaning. */
export interface ClusterStateView {
  state: ClusterState;
  label: string;
  color: 'success' | 'warning' | 'error' | 'info';
  /** Why, and the fix; '' when ok. */
  message: string;
  /** The data shown is the last known, not current. */
  stale: boolean;
  /** How long ago the API server last answered; undefined when it never did. */
  lastSeenAgoMs?: number;
  /** How long the data has been stale; undefined when it is current. */
  staleForMs?: number;
}

const STATE_LOOK: Record<
  ClusterState,
  Pick<ClusterStateView, 'label' | 'color'>
> = {
  ok: { label: 'ok', color: 'success' },
  degraded: { label: 'degraded', color: 'warning' },
  unreachable: { label: 'unreachable', color: 'error' },
  'not-installed': { label: 'Runway not installed', color: 'info' },
};

/** A cluster's state from an answer's `clusters` entry, at `now` (browser time). */
export function clusterStateView(
  freshness: ClusterFreshness | undefined,
  now: number,
): ClusterStateView | undefined {
  // An answer without a state (an older backend) says nothing about it.
  if (!freshness?.state) return undefined;
  const ago = (iso: string | null | undefined) => {
    const t = iso ? Date.parse(iso) : NaN;
    return Number.isFinite(t) ? Math.max(0, now - t) : undefined;
  };
  return {
    state: freshness.state,
    ...STATE_LOOK[freshness.state],
    message: freshness.message,
    stale: freshness.stale,
    lastSeenAgoMs: ago(freshness.lastSeen),
    staleForMs: freshness.stale
      ? ago(freshness.staleSince) ?? freshness.dataAgeMs ?? undefined
      : undefined,
  };
}

/** The `clusters` entry of one cluster in an answer. */
export function freshnessOf(
  answer: { clusters: ClusterFreshness[] } | undefined,
  cluster: string,
): ClusterFreshness | undefined {
  return answer?.clusters.find(c => c.cluster === cluster);
}

/**
 * The errors a cluster's state notice does not already say: while the
 * cluster is unreachable, its own no-answer errors (one per kind it failed to
 * read) are that notice, said once.
 */
export function errorsBeyondState(
  errors: ClusterError[],
  freshness: ClusterFreshness | undefined,
): ClusterError[] {
  if (freshness?.state !== 'unreachable') return errors;
  return errors.filter(
    e =>
      e.cluster !== freshness.cluster ||
      (e.reason !== 'Unreachable' && e.reason !== 'Timeout'),
  );
}

/**
 * Dashboard rows: plain, precomputed values per listed resource, so the table
 * renders and filters without walking Kubernetes objects again. Pure.
 */
import {
  formatBytes,
  modelSourceText,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';
import type {
  ClusterFreshness,
  ListedDeployment,
  ListedObject,
  KubeObject,
} from '../api/types';

/** What every dashboard row has, whatever the kind (deployments, models, stacks). */
export interface ResourceRow {
  /** Unique across clusters and kinds: kind/cluster/namespace/name. */
  key: string;
  kind: RunwayKind;
  cluster: string;
  namespace: string;
  name: string;
  phase: string;
  /** Creation time in ms since the epoch; NaN when unknown. */
  createdMs: number;
  /** Lower-cased text the free-text filter searches. */
  search: string;
  /** One line about the resource, for views that mix kinds. */
  summary: string;
  /** The status message; '' when none. */
  message: string;
  /** Set when the row is its cluster's last known data (the cluster is unreachable): since when, ms since the epoch. */
  staleSinceMs?: number;
}

export interface DeploymentRow extends ResourceRow {
  kind: 'deployments';
  provider: string;
  engine: string;
  model: string;
  replicasReady: number;
  replicasDesired: number;
  endpoint: string;
  /** Reachable through the Gateway: the core controller reported its URL as the endpoint. */
  viaGateway: boolean;
  /** The model name requests through the gateway carry; '' when not reachable through one. */
  gatewayModel: string;
}

export function rowKey(cluster: string, object: KubeObject): string {
  return `${cluster}/${object.metadata?.namespace ?? ''}/${
    object.metadata?.name ?? ''
  }`;
}

/** The in-cluster address of the Service the provider reported; '' before it did. */
export function serviceEndpoint(object: ListedDeployment['object']): string {
  const service = object.status?.endpoint?.service;
  if (!service) return '';
  const port = object.status?.endpoint?.port;
  const host = `${service}.${object.metadata?.namespace ?? 'default'}.svc`;
  return `http://${host}${port ? `:${port}` : ''}`;
}

/**
 * Where a deployment answers: the gateway URL when the core controller set
 * one, else the in-cluster Service address the provider reported.
 */
export function deploymentEndpoint(object: ListedDeployment['object']): string {
  return object.status?.gateway?.endpoint || serviceEndpoint(object);
}

export function toDeploymentRow(item: ListedDeployment): DeploymentRow {
  const { cluster, object } = item;
  const spec = object.spec ?? ({} as ListedDeployment['object']['spec']);
  const status = object.status ?? {};
  const namespace = object.metadata?.namespace ?? '';
  const name = object.metadata?.name ?? '';
  const provider = status.provider?.name ?? spec.provider?.name ?? '';
  const engine = status.engine?.type ?? spec.engine?.type ?? '';
  const phase = object.metadata?.deletionTimestamp
    ? 'Terminating'
    : status.phase ?? 'Pending';
  const model = spec.model?.id ?? '';
  const desired = status.replicas?.desired ?? spec.scaling?.replicas ?? 0;
  const viaGateway = Boolean(status.gateway?.endpoint);
  const gatewayModel = viaGateway ? status.gateway?.modelName ?? '' : '';
  return {
    key: `deployments/${cluster}/${namespace}/${name}`,
    kind: 'deployments',
    cluster,
    namespace,
    name,
    phase,
    provider,
    engine,
    model,
    replicasReady: status.replicas?.ready ?? 0,
    replicasDesired: desired,
    endpoint: deploymentEndpoint(object),
    viaGateway,
    gatewayModel,
    message: status.message ?? '',
    summary: [model, provider, engine].filter(Boolean).join(' · '),
    createdMs: Date.parse(object.metadata?.creationTimestamp ?? ''),
    // "gateway" finds the deployments reachable through it.
    search: [
      cluster,
      namespace,
      name,
      model,
      provider,
      engine,
      phase,
      viaGateway ? `gateway ${gatewayModel}` : '',
    ]
      .join(' ')
      .toLocaleLowerCase('en-US'),
  };
}

function phaseOf(object: KubeObject): string {
  return object.metadata?.deletionTimestamp
    ? 'Terminating'
    : String(object.status?.phase ?? 'Pending');
}

function searchText(parts: unknown[]): string {
  return parts
    .filter(p => p !== undefined && p !== '')
    .join(' ')
    .toLocaleLowerCase('en-US');
}

/** A row with the columns every kind has. */
export function toResourceRow(
  item: ListedObject,
  kind: RunwayKind = 'deployments',
): ResourceRow {
  const { cluster, object } = item;
  const namespace = object.metadata?.namespace ?? '';
  const name = object.metadata?.name ?? '';
  const phase = phaseOf(object);
  return {
    key: `${kind}/${cluster}/${namespace}/${name}`,
    kind,
    cluster,
    namespace,
    name,
    phase,
    createdMs: Date.parse(object.metadata?.creationTimestamp ?? ''),
    search: searchText([kind, cluster, namespace, name, phase]),
    summary: '',
    message: String(object.status?.message ?? ''),
  };
}

export interface ModelRow extends ResourceRow {
  kind: 'models';
  /** `HuggingFace owner/name@rev`, `s3://bucket/key` or the URL; '' when unset. */
  source: string;
  /** The PVC size asked for, e.g. `20Gi`. */
  size: string;
  /** 0-100 while downloading or done; undefined before the download reports any. */
  progress?: number;
  /** `1.2 GiB of 4.0 GiB` while the downloader reports bytes; '' otherwise. */
  bytes: string;
}

/** A Model's row: phase, source, size, progress. */
export function toModelRow(item: ListedObject): ModelRow {
  const base = toResourceRow(item, 'models');
  const spec = item.object.spec ?? {};
  const status = item.object.status ?? {};
  const source = modelSourceText(spec.source) ?? '';
  const size = String(spec.storage?.size ?? '');
  const download = status.download ?? {};
  let progress: number | undefined;
  if (typeof status.progress === 'number') progress = status.progress;
  else if (base.phase === 'Ready') progress = 100;
  let bytes = '';
  if (typeof download.bytesDownloaded === 'number') {
    bytes = download.totalBytes
      ? `${formatBytes(download.bytesDownloaded)} of ${formatBytes(
          download.totalBytes,
        )}`
      : formatBytes(download.bytesDownloaded);
  }
  return {
    ...base,
    kind: 'models',
    source,
    size,
    progress,
    bytes,
    summary: [source, size].filter(Boolean).join(' · '),
    search: `${base.search} ${searchText([source, size])}`,
  };
}

export interface StackRow extends ResourceRow {
  kind: 'stacks';
  /** The named distribution, or '' when the stack runs an image directly. */
  distribution: string;
  /** The image that runs: the resolved one, else the one the spec names; ''. */
  image: string;
  /** The server's URL: the route's when exposed, else the in-cluster Service's; ''. */
  endpoint: string;
}

/** A stack's row: phase, distribution, image, endpoint. */
export function toStackRow(item: ListedObject): StackRow {
  const base = toResourceRow(item, 'stacks');
  const spec = item.object.spec ?? {};
  const status = item.object.status ?? {};
  const distribution = String(spec.distribution?.name ?? '');
  const image = String(
    status.resolvedDistribution?.image ?? spec.distribution?.image ?? '',
  );
  const endpoint = String(status.routeURL || status.serviceURL || '');
  return {
    ...base,
    kind: 'stacks',
    distribution,
    image,
    endpoint,
    summary: [distribution || image, endpoint].filter(Boolean).join(' · '),
    search: `${base.search} ${searchText([distribution, image, endpoint])}`,
  };
}

export type DashboardRow = DeploymentRow | ModelRow | StackRow;

/** The row of a listed object of `kind`. */
export function toRow(kind: RunwayKind, item: ListedObject): DashboardRow {
  switch (kind) {
    case 'models':
      return toModelRow(item);
    case 'stacks':
      return toStackRow(item);
    default:
      return toDeploymentRow(item as ListedDeployment);
  }
}

/** Ages below this are shown in seconds. */
export const AGE_IN_SECONDS_MS = 120_000;

/** "45s", "12m", "3h", "5d" like kubectl; "" when unknown. */
export function formatAge(createdMs: number, nowMs: number): string {
  if (!Number.isFinite(createdMs)) return '';
  const seconds = Math.max(0, Math.floor((nowMs - createdMs) / 1000));
  if (seconds * 1000 < AGE_IN_SECONDS_MS) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/**
 * Marks the rows of clusters whose data in the answer is stale (the last
 * known, not current) with since when; other rows are returned as they are.
 */
export function withStaleness<R extends ResourceRow>(
  rows: R[],
  clusters: ClusterFreshness[] | undefined,
): R[] {
  const since = new Map<string, number>();
  for (const c of clusters ?? []) {
    if (!c.stale) continue;
    const t = Date.parse(c.staleSince ?? '');
    since.set(c.cluster, Number.isFinite(t) ? t : NaN);
  }
  if (since.size === 0) return rows;
  return rows.map(row =>
    since.has(row.cluster)
      ? { ...row, staleSinceMs: since.get(row.cluster) }
      : row,
  );
}

/**
 * Dashboard rows: plain, precomputed values per listed resource, so the table
 * renders and filters without walking Kubernetes objects again. Pure.
 */
import type { ListedDeployment, ListedObject, KubeObject } from '../api/types';

/** What every dashboard row has, whatever the kind (deployments, models, stacks). */
export interface ResourceRow {
  /** Unique across clusters: cluster/namespace/name. */
  key: string;
  cluster: string;
  namespace: string;
  name: string;
  phase: string;
  /** Creation time in ms since the epoch; NaN when unknown. */
  createdMs: number;
  /** Lower-cased text the free-text filter searches. */
  search: string;
}

export interface DeploymentRow extends ResourceRow {
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
  message: string;
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
    key: `${cluster}/${namespace}/${name}`,
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

/** A generic row for kinds without their own columns yet (models, stacks). */
export function toResourceRow(item: ListedObject): ResourceRow {
  const { cluster, object } = item;
  const namespace = object.metadata?.namespace ?? '';
  const name = object.metadata?.name ?? '';
  const phase = object.metadata?.deletionTimestamp
    ? 'Terminating'
    : String(object.status?.phase ?? 'Pending');
  return {
    key: `${cluster}/${namespace}/${name}`,
    cluster,
    namespace,
    name,
    phase,
    createdMs: Date.parse(object.metadata?.creationTimestamp ?? ''),
    search: [cluster, namespace, name, phase]
      .join(' ')
      .toLocaleLowerCase('en-US'),
  };
}

/** "45s", "12m", "3h", "5d" like kubectl; "" when unknown. */
export function formatAge(createdMs: number, nowMs: number): string {
  if (!Number.isFinite(createdMs)) return '';
  const seconds = Math.max(0, Math.floor((nowMs - createdMs) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/**
 * The runway backend's REST contract, as the browser sees it. These types
 * mirror `plugins/runway-backend/src/service/openapi.ts` (the one
 * description of the API); keep them in step with it.
 */
import type {
  ModelDeployment,
  ProviderObjects as CommonProviderObjects,
  SelectionPreview,
  ValidationIssue,
} from '@runway-portal/plugin-runway-common';

/** The preview's shared parts: runway-common's, as the backend builds them. */
export type { ProviderObjectsStatus, SelectionPreview } from '@runway-portal/plugin-runway-common';

/** deployments (ModelDeployment), models (Model) or stacks (LlamaStackDistribution): runway-common's, shared with the backend. */
export type { RunwayKind } from '@runway-portal/plugin-runway-common';

/** A Kubernetes object as the API server returns it (managedFields removed). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
    resourceVersion?: string;
    generation?: number;
    deletionTimestamp?: string;
    ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string }>;
  };
  spec?: any;
  status?: any;
}

export type ClusterErrorReason =
  | 'Unreachable'
  | 'Timeout'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotInstalled'
  | 'Misconfigured'
  | 'Syncing'
  | 'Error';

/** A cluster that could not (fully) answer; its data may be missing or stale. */
export interface ClusterError {
  cluster: string;
  reason: ClusterErrorReason;
  message: string;
}

export interface ClusterFreshness {
  cluster: string;
  synced: boolean;
  /** 0 while healthy; ms since last known current while failing; null before the first list. */
  dataAgeMs: number | null;
}

export interface ProviderEngine {
  name: string;
  servingModes: string[];
  gpuSupport: boolean;
  cpuSupport: boolean;
}

export interface ClusterProvider {
  name: string;
  displayName: string;
  ready: boolean;
  message: string;
  version?: string;
  lastHeartbeat?: string;
  engines: ProviderEngine[];
}

export interface GpuCapacity {
  /** e.g. nvidia.com/gpu */
  resource: string;
  allocatable: number;
  /** Held by pods bound to nodes. */
  requested: number;
  /** Wanted by pods not yet scheduled. */
  pending: number;
  nodes: number;
}

export interface ClusterOverview {
  name: string;
  title: string;
  namespaces?: string[];
  reachable: boolean;
  version?: string;
  providers: ClusterProvider[];
  gpus: GpuCapacity[];
}

/** Every multi-cluster answer carries per-cluster freshness and errors. */
export interface MultiClusterAnswer {
  clusters: ClusterFreshness[];
  errors: ClusterError[];
}

export interface ClustersResponse extends MultiClusterAnswer {
  items: ClusterOverview[];
}

export interface ListedObject<T = KubeObject> {
  cluster: string;
  object: T;
}

export interface ListResponse<T = KubeObject> extends MultiClusterAnswer {
  items: ListedObject<T>[];
}

export interface ListOptions {
  clusters?: string[];
  namespace?: string;
  labelSelector?: string;
  entityRef?: string;
}

export interface DetailResponse<T = KubeObject> extends MultiClusterAnswer {
  cluster: string;
  object: T;
  /** metav1.Condition objects. */
  conditions: KubeCondition[];
  /** core/v1 Event objects of the resource and what it owns. */
  events: KubeObject[];
  /** The upstream objects it owns (KAITO Workspace, DynamoGraphDeployment, ...). */
  owned: KubeObject[];
}

export interface KubeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface WriteResponse<T = KubeObject> {
  cluster: string;
  object: T;
  warnings: ValidationIssue[];
  dryRun: boolean;
}

export interface PreviewResponse {
  cluster: string;
  mode: 'create' | 'update';
  objects: Array<{ action: 'create' | 'update'; object: KubeObject }>;
  warnings: ValidationIssue[];
  selection?: SelectionPreview;
  providerObjects: ProviderObjects;
}

/** The objects the selected provider would write for a ModelDeployment, as the browser receives them. */
export type ProviderObjects = CommonProviderObjects<KubeObject>;

/** A deployment as listed. */
export type ListedDeployment = ListedObject<ModelDeployment & KubeObject>;

/** The data the doctor's checks read; one reader fills it from a cluster. */

/** What should be there: from the bundles (`expectationsFromBundles`) or written down. @public */
export interface Expectations {
  namespace: string;
  /** Our CRDs, with the versions our bundles serve. */
  crds: Array<{ name: string; versions: string[] }>;
  /**
   * `lease`: the leader-election Lease in the namespace (the one its
   * bundle's Role names); a controller running outside the cluster (the
   * local system, a developer's laptop) has no Deployment but renews it.
   */
  controllers: Array<{ component: string; deployment: string; lease?: string }>;
  webhooks: Array<{
    kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
    name: string;
    component: string;
  }>;
  providers: Array<{
    name: string;
    deployment: string;
    lease?: string;
    upstreamCrds: string[];
  }>;
  /** Operators the CLI cannot install yet, looked for by Deployment name. */
  operators: Array<{
    name: string;
    deployment: string;
    lease?: string;
    title: string;
  }>;
}

/** @public */
export interface DeploymentState {
  replicas: number;
  readyReplicas: number;
  ready: boolean;
}

/** A leader-election Lease's record, as read. @public */
export interface LeaseRecord {
  holderIdentity?: string;
  /** ISO (MicroTime); absent: never renewed or released. */
  renewTime?: string;
  leaseDurationSeconds?: number;
}

/** @public */
export interface ProviderState {
  name: string;
  ready: boolean;
  lastHeartbeat?: string;
  upstreamCRDVersion?: string;
  /** Message of a False condition, if any. */
  message?: string;
}

/** @public */
export interface ClusterState {
  serverVersion: string;
  /** When it was read (ISO); heartbeats are judged against it. */
  readAt: string;
  /** By CRD name; absent: not installed. */
  crds: Record<
    string,
    { established: boolean; versions: string[] } | undefined
  >;
  /** By Deployment name in the namespace; absent: not installed. */
  deployments: Record<string, DeploymentState | undefined>;
  /** Leader-election Leases by name in the namespace; absent: none. */
  leases: Record<string, LeaseRecord | undefined>;
  /** By `kind/name`; absent: not registered. */
  webhooks: Record<string, { answered: boolean; message: string } | undefined>;
  providers: ProviderState[];
  gateway: { crdInstalled: boolean; gateways: number; labelled: number };
  /**
   * Parts the reader may not read (403) or chose not to (the backend does
   * not probe webhooks), each with what it would need, e.g. `get on
   * deployments.apps`; their checks report `not-checked`.
   */
  notChecked?: Partial<Record<ReadArea, string>>;
}

/** What `readClusterState` reads, part by part. @public */
export type ReadArea =
  | 'crds'
  | 'deployments'
  | 'leases'
  | 'webhooks'
  | 'webhookProbes'
  | 'providers'
  | 'gateway';

/** A check and its status are the REST contract's (runway-common): the CLI prints what the portal shows. */
export type {
  DoctorCheck as Check,
  DoctorCheckStatus as CheckStatus,
} from '@runway-portal/plugin-runway-common';

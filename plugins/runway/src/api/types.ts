/**
 * The runway backend's REST contract, as the browser sees it: every type
 * here is runway-common's (`src/api`, the schemas the backend's OpenAPI
 * document is derived from), instantiated with the browser's object type.
 * Nothing is written twice: a contract change the UI does not follow fails `tsc`.
 */
import type {
  ApiCondition,
  ApiObject,
  ClustersAnswer,
  DetailAnswer,
  ListAnswer,
  ListedObject as ContractListedObject,
  ModelDeployment,
  PreviewAnswer,
  ProviderObjects as ContractProviderObjects,
  WriteAnswer,
} from '@runway-portal/plugin-runway-common';

export type {
  ClusterError,
  ClusterErrorReason,
  ClusterFreshness,
  ClusterOverview,
  ClusterState,
  DoctorCheck,
  DoctorReport,
  GpuCapacity,
  GpuType,
  ProviderEngine,
  ProviderObjectsStatus,
  ProviderSummary as ClusterProvider,
  RunwayKind,
  SelectionPreview,
  StackDistribution,
} from '@runway-portal/plugin-runway-common';

/**
 * A Kubernetes object as the API server returns it (managedFields removed):
 * the contract's object, with `spec` and `status` left to each view to read.
 *
 * @public
 */
export type KubeObject = ApiObject & { spec?: any; status?: any };

/** @public */
export type ClustersResponse = ClustersAnswer;
/** @public */
export type ListedObject<T = KubeObject> = ContractListedObject<T>;
/** @public */
export type ListResponse<T = KubeObject> = ListAnswer<T>;
/** @public */
export type DetailResponse<T = KubeObject> = DetailAnswer<T>;
/** metav1.Condition. @public */
export type KubeCondition = ApiCondition;
/** @public */
export type WriteResponse<T = KubeObject> = WriteAnswer<T>;
/** @public */
export type PreviewResponse = PreviewAnswer<KubeObject>;
/** The objects the selected provider would write for a ModelDeployment, as the browser receives them. @public */
export type ProviderObjects = ContractProviderObjects<KubeObject>;

/** A multi-cluster answer's per-cluster freshness and errors. @public */
export type MultiClusterAnswer = Pick<ClustersAnswer, 'clusters' | 'errors'>;

/** The list's query (the OpenAPI document's `ListResources` parameters). @public */
export interface ListOptions {
  clusters?: string[];
  namespace?: string;
  labelSelector?: string;
  entityRef?: string;
}

/** A deployment as listed. @public */
export type ListedDeployment = ListedObject<ModelDeployment & KubeObject>;

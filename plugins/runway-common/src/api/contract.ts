/**
 * The runway REST API's request and answer shapes, written once. The OpenAPI
 * document the backend serves is derived from these schemas (`openapi.ts`),
 * and the backend, the ClusterClient and the browser client use the types
 * derived from them, so a change here that one side does not follow is a
 * `tsc` error, not a runtime surprise.
 *
 * Answers that carry Kubernetes objects are generic in the object type `O`:
 * the backend holds controller-runtime's `KubeObject`, the browser a looser
 * one; both must fit `ApiObject`, the shape the document promises.
 */
import {
  type Static,
  type TObject,
  type TOptional,
  type TSchema,
  type TString,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { StringEnum } from '../schema/kinds';
import { ObjectMetaSchema } from '../schema/meta';
import type { ValidationIssue } from '../schema/issues';
import { InferenceProviderConfigSpecSchema } from '../deployments/schema';
import {
  HubSearchAnswerSchema,
  SecretNamesAnswerSchema,
  StorageClassesAnswerSchema,
} from './pickers';

export * from './pickers';
import { DoctorReportSchema } from './doctor';

export * from './doctor';
import type { InferenceProviderConfigSpec } from '../deployments/types';
import {
  LogAnswerSchema,
  PodsAnswerSchema,
  ResourceLogAnswerSchema,
} from './logs';

export * from './logs';
export * from './chat';

const Str = Type.String;
const Bool = Type.Boolean;
const Num = Type.Number;
const Opt = Type.Optional;
/** Every answer object is closed: a field the document does not describe is drift. */
const closed = { additionalProperties: false } as const;

/** A Kubernetes object (apiVersion, kind, metadata, spec, status) as the API server returns it. @public */
export const ApiObjectSchema = Type.Object(
  { apiVersion: Opt(Str()), kind: Opt(Str()), metadata: Opt(ObjectMetaSchema) },
  {
    $id: 'KubeObject',
    description:
      'A Kubernetes object (apiVersion, kind, metadata, spec, status) as the API server returns it, managedFields removed.',
    additionalProperties: true,
  },
);
/** What every answer promises about an object; each side refines it (spec, status). @public */
export type ApiObject = Static<typeof ApiObjectSchema>;
/** An object schema the generic answers below are instantiated with. */
type Obj<O> = TUnsafe<O>;

/** @public */
export const ClusterErrorReasonValues = [
  'Unreachable',
  'Timeout',
  'Unauthorized',
  'Forbidden',
  'NotInstalled',
  'Misconfigured',
  'Syncing',
  'Error',
] as const;
/**
 * Why a cluster could not (fully) answer: `Unreachable` (connection refused,
 * DNS, TLS, a broken connection), `Timeout` (no answer within the configured
 * bound), `Unauthorized` (401: the portal's credentials are wrong or expired),
 * `Forbidden` (403: the portal's service account lacks RBAC), `NotInstalled`
 * (404 on a collection: the CRD is missing), `Misconfigured` (the cluster's
 * configuration entry is broken), `Syncing` (the first list is still running).
 *
 * @public
 */
export type ClusterErrorReason = (typeof ClusterErrorReasonValues)[number];

/** @public */
export const ClusterErrorSchema = Type.Object(
  {
    cluster: Str(),
    reason: StringEnum(ClusterErrorReasonValues),
    message: Str({ description: 'What went wrong and what to do about it.' }),
  },
  {
    $id: 'ClusterError',
    description:
      'A cluster that could not (fully) answer. Its data may be missing or stale.',
    ...closed,
  },
);
/** @public */
export type ClusterError = Static<typeof ClusterErrorSchema>;

/** @public */
export const ClusterStateValues = [
  'ok',
  'degraded',
  'unreachable',
  'not-installed',
] as const;
/**
 * How a cluster is, as the portal sees it: `ok`; `degraded` (it answers, but
 * some providers are not ready, none is registered, or some kinds fail to
 * list); `unreachable` (its API server does not answer: the data shown is
 * the last known, marked stale); `not-installed` (it answers, but Runway's
 * CRDs are not there).
 *
 * @public
 */
export type ClusterState = (typeof ClusterStateValues)[number];

/** @public */
export const ClusterFreshnessSchema = Type.Object(
  {
    cluster: Str(),
    state: StringEnum(ClusterStateValues, {
      description:
        "ok; degraded (answers, but some providers are not ready, none is registered, or some kinds fail to list); unreachable (the API server does not answer: the data is the last known); not-installed (answers, but Runway's CRDs are absent).",
    }),
    message: Str({
      description:
        'Why the cluster is in this state and what to do about it; empty when ok.',
    }),
    lastSeen: Type.Union([Str(), Type.Null()], {
      description:
        'When the API server last answered the portal (ISO 8601); null before it ever did.',
    }),
    stale: Bool({
      description:
        "True when this cluster's data in the answer is its last known, not current (the cluster is unreachable, or this kind's watch is failing).",
    }),
    staleSince: Opt(
      Str({ description: 'Since when the data is stale (ISO 8601).' }),
    ),
    synced: Bool({
      description: 'True once the cluster cache holds a full list.',
    }),
    dataAgeMs: Type.Union([Num(), Type.Null()], {
      description:
        '0 while the watch is healthy; milliseconds since the data was last known current while failing; null before the first list.',
    }),
  },
  { $id: 'ClusterFreshness', ...closed },
);
/** A cluster's state and how old its data is in an answer. @public */
export type ClusterFreshness = Static<typeof ClusterFreshnessSchema>;

/** @public */
export const ValidationIssueSchema = Type.Object(
  {
    path: Str({
      description: 'Dotted path of the field, e.g. spec.resources.gpu.count.',
    }),
    message: Str({ description: 'What is wrong and how to fix it.' }),
    severity: StringEnum(['error', 'warning'] as const),
  },
  { $id: 'ValidationIssue', ...closed },
);

/** Backstage's error body; validation errors add `issues`, apply conflicts add `conflicts`. @public */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object(
      { name: Str(), message: Str() },
      { additionalProperties: true },
    ),
    issues: Opt(Type.Array(ValidationIssueSchema)),
    conflicts: Opt(
      Type.Array(
        Type.Object({
          manager: Opt(Str()),
          field: Opt(Str()),
          message: Opt(Str()),
        }),
      ),
    ),
    request: Opt(Type.Object({}, { additionalProperties: true })),
    response: Opt(Type.Object({}, { additionalProperties: true })),
  },
  {
    $id: 'ErrorBody',
    description:
      "Backstage's error body; validation errors add `issues`, apply conflicts add `conflicts`.",
    additionalProperties: true,
  },
);
/** @public */
export type ErrorBody = Static<typeof ErrorBodySchema>;
/** A field another writer owns, in a 409 answer to an update. @public */
export type FieldConflict = NonNullable<ErrorBody['conflicts']>[number];

/** @public */
export const ProviderEngineSchema = Type.Object(
  {
    name: Str(),
    servingModes: Type.Array(Str()),
    gpuSupport: Bool(),
    cpuSupport: Bool(),
  },
  closed,
);
/** @public */
export type ProviderEngine = Static<typeof ProviderEngineSchema>;

/** @public */
export const ProviderSummarySchema = Type.Object(
  {
    name: Str(),
    displayName: Str({
      description: '`airunway.ai/display-name` annotation, else the name.',
    }),
    ready: Bool({
      description: 'Reported by the provider controller in status.ready.',
    }),
    message: Str({ description: 'Why the provider is (not) ready, in words.' }),
    version: Opt(Str()),
    lastHeartbeat: Opt(Str()),
    engines: Type.Array(ProviderEngineSchema),
    spec: Type.Unsafe<InferenceProviderConfigSpec>({
      ...InferenceProviderConfigSpecSchema,
      description:
        "The provider's registration as the cluster holds it (its InferenceProviderConfig's spec, engines in the per-engine form): capabilities, selection and compatibility rules, so the form selects against the cluster's own rules.",
    }),
  },
  closed,
);
/** A provider registered in a cluster (its InferenceProviderConfig), summarised for people. @public */
export type ProviderSummary = Static<typeof ProviderSummarySchema>;

/** @public */
export const GpuTypeSchema = Type.Object(
  {
    product: Type.Optional(
      Str({
        description: 'nvidia.com/gpu.product, e.g. NVIDIA-A100-SXM4-80GB',
      }),
    ),
    memoryBytes: Num({
      description:
        'Memory of one GPU (nvidia.com/gpu.memory, in MiB on the node), in bytes.',
    }),
    nodes: Num({ description: 'Schedulable nodes with these GPUs.' }),
    allocatable: Num({ description: 'GPUs of this type the nodes can give.' }),
    free: Num({
      description: 'allocatable minus what pods bound to these nodes hold.',
    }),
    largestFreeOnNode: Num({
      description:
        'The most free GPUs of this type on one node: the most one replica can get.',
    }),
  },
  closed,
);
/** One model of GPU in a cluster, with its memory and how many are free. @public */
export type GpuType = Static<typeof GpuTypeSchema>;

/** @public */
export const GpuCapacitySchema = Type.Object(
  {
    resource: Str({ description: 'e.g. nvidia.com/gpu' }),
    allocatable: Num({
      description: 'Sum of status.allocatable over schedulable nodes.',
    }),
    requested: Num({ description: 'Held by pods bound to nodes.' }),
    pending: Num({ description: 'Wanted by pods not yet scheduled.' }),
    nodes: Num({ description: 'Nodes offering this resource.' }),
    types: Type.Optional(
      Type.Array(GpuTypeSchema, {
        description:
          "The resource's GPUs by model and memory, from the node labels NVIDIA GPU feature discovery sets (nvidia.com/gpu.memory, nvidia.com/gpu.product); absent when no node has them.",
      }),
    ),
  },
  closed,
);
/** GPU capacity of a cluster for one resource type. @public */
export type GpuCapacity = Static<typeof GpuCapacitySchema>;

/** @public */
export const ClusterDescriptionSchema = Type.Object(
  {
    name: Str(),
    title: Str(),
    namespaces: Opt(
      Type.Array(Str(), {
        description: 'The namespace allow-list, when configured.',
      }),
    ),
  },
  closed,
);
/** A configured cluster. @public */
export type ClusterDescription = Static<typeof ClusterDescriptionSchema>;

/** @public */
export const ClusterOverviewSchema = Type.Object(
  {
    ...ClusterDescriptionSchema.properties,
    reachable: Bool({ description: 'True when the API server answered.' }),
    version: Opt(
      Str({
        description: 'Kubernetes version (/version gitVersion) when reachable.',
      }),
    ),
    providers: Type.Array(ProviderSummarySchema, {
      description:
        "From the cluster's cache: while it is unreachable, the last known (clusters[].stale says so).",
    }),
    gpus: Type.Array(GpuCapacitySchema, {
      description:
        'While the cluster is unreachable, the last capacity it answered (clusters[].stale says so).',
    }),
    // The doctor's checks (`runway doctor`) as the backend last ran them in the background; absent before its first run.
    doctor: Opt(DoctorReportSchema),
  },
  { $id: 'Cluster', ...closed },
);
/** A configured cluster with reachability, registered providers and GPU capacity. @public */
export type ClusterOverview = Static<typeof ClusterOverviewSchema>;

/** What every multi-cluster answer carries besides its data. */
const multiClusterFields = {
  clusters: Type.Array(ClusterFreshnessSchema, {
    description: 'State and data age per cluster that was asked.',
  }),
  errors: Type.Array(ClusterErrorSchema, {
    description: 'Clusters that failed (fully or partly), with why.',
  }),
};
/** @public */
export type ClusterAnswer = Static<TObject<typeof multiClusterFields>>;

/** @public */
export const StackDistributionSchema = Type.Object(
  {
    name: Str({ description: 'What spec.distribution.name accepts.' }),
    image: Str({ description: 'The image the name resolves to.' }),
  },
  closed,
);
/** A distribution the stack operator embeds (name → image, with its base config.yaml). @public */
export type StackDistribution = Static<typeof StackDistributionSchema>;

/** @public */
export const ClustersAnswerSchema = Type.Object(
  {
    items: Type.Array(ClusterOverviewSchema),
    stackDistributions: Opt(
      Type.Array(StackDistributionSchema, {
        description:
          "The distributions the stack operator embeds (its distributions.json, the release this portal includes): the names a stack form offers for spec.distribution.name. A cluster's operator may map a name to a mirror (image-overrides).",
      }),
    ),
    ...multiClusterFields,
  },
  closed,
);
/** @public */
export type ClustersAnswer = Static<typeof ClustersAnswerSchema>;

const listedObject = <O extends TSchema>(object: O) =>
  Type.Object({ cluster: Str(), object }, { $id: 'ListedResource', ...closed });
/** @public */
export const ListedObjectSchema = listedObject(ApiObjectSchema);
/** A resource and the cluster it is in. @public */
export type ListedObject<O = ApiObject> = Static<
  ReturnType<typeof listedObject<Obj<O>>>
>;

const listAnswer = <O extends TSchema>(object: O) =>
  Type.Object(
    { items: Type.Array(listedObject(object)), ...multiClusterFields },
    closed,
  );
/** @public */
export const ListAnswerSchema = listAnswer(ApiObjectSchema);
/** @public */
export type ListAnswer<O = ApiObject> = Static<
  ReturnType<typeof listAnswer<Obj<O>>>
>;

/**
 * A condition as a resource's controllers wrote it: metav1.Condition's
 * fields, of which upstream operators do not always set reason, message or
 * the transition time, so only type and status are promised.
 *
 * @public
 */
export const ApiConditionSchema = Type.Object(
  {
    type: Str(),
    status: Str({ description: 'True, False or Unknown.' }),
    reason: Opt(Str()),
    message: Opt(Str()),
    lastTransitionTime: Opt(Str()),
    observedGeneration: Opt(Num()),
  },
  { $id: 'ResourceCondition', additionalProperties: true },
);
/** A condition of a resource (metav1.Condition, as much as every writer sets). @public */
export type ApiCondition = Static<typeof ApiConditionSchema>;

const detailAnswer = <O extends TSchema>(object: O) =>
  Type.Object(
    {
      cluster: Str(),
      object,
      conditions: Type.Array(ApiConditionSchema, {
        description: 'status.conditions, as the controllers wrote them.',
      }),
      events: Type.Array(object, {
        description:
          'Events of the resource and of the upstream objects it owns, newest first.',
      }),
      owned: Type.Array(object, {
        description:
          'Upstream objects the resource owns (owner reference), e.g. a KAITO Workspace or a download Job.',
      }),
      ...multiClusterFields,
    },
    { $id: 'ResourceDetail', ...closed },
  );
/** @public */
export const DetailAnswerSchema = detailAnswer(ApiObjectSchema);
/** @public */
export type DetailAnswer<O = ApiObject> = Static<
  ReturnType<typeof detailAnswer<Obj<O>>>
>;

const writeAnswer = <O extends TSchema>(object: O) =>
  Type.Object(
    {
      cluster: Str(),
      object,
      warnings: Type.Array(ValidationIssueSchema, {
        description:
          'Advice that never blocks, e.g. that an identity field change recreates the provider resource.',
      }),
      dryRun: Bool(),
    },
    { $id: 'WriteResponse', ...closed },
  );
/** @public */
export const WriteAnswerSchema = writeAnswer(ApiObjectSchema);
/** @public */
export type WriteAnswer<O = ApiObject> = Static<
  ReturnType<typeof writeAnswer<Obj<O>>>
>;

const choice = <F extends 'engine' | 'provider'>(field: F) =>
  Type.Object(
    {
      ok: Bool(),
      ...({ [field]: Opt(Str()) } as Record<F, TOptional<TString>>),
      reason: Str(),
      auto: Opt(Bool()),
    },
    closed,
  );

/** @public */
export const SelectionPreviewSchema = Type.Object(
  { engine: choice('engine'), provider: Opt(choice('provider')) },
  {
    description:
      'Deployments only: what the core controller would record in status.engine and status.provider.',
    ...closed,
  },
);
/** The engine and provider the core controller would select, with its reason. @public */
export type SelectionPreview = Static<typeof SelectionPreviewSchema>;

/** @public */
export const ProviderObjectsStatusValues = [
  'available',
  'not-applicable',
  'no-provider',
  'provider-unavailable',
  'not-built-in',
  'invalid',
  'error',
] as const;
/**
 * Why there are provider objects or not: `available` (for a stack: the
 * config.yaml ConfigMap, Deployment and the rest the stack operator would
 * write); `not-applicable` (models; a stack that mounts its own config); `no-provider` (no engine or provider can be selected,
 * with the core's reason); `provider-unavailable` (not registered, not ready,
 * or no upstream CRD in that cluster); `not-built-in` (registered there, but
 * this portal does not have its transformation); `invalid` (the provider
 * rejects the spec; `field` names the field when it does); `error` (the
 * provider's transformation failed).
 *
 * @public
 */
export type ProviderObjectsStatus =
  (typeof ProviderObjectsStatusValues)[number];

const providerObjects = <O extends TSchema>(object: O) =>
  Type.Object(
    {
      status: StringEnum(ProviderObjectsStatusValues, {
        description:
          "available (for a stack: what the stack operator would write, its generated config.yaml first); not-applicable (models; a stack with overrideConfig); no-provider (no engine or provider can be selected: the core's reason); provider-unavailable (not registered, not ready, or its upstream CRD missing in that cluster); not-built-in (this portal lacks that provider's transformation); invalid (the provider, or the stack operator, rejects the spec; `field` names the field); error (the transformation failed).",
      }),
      message: Str({
        description:
          'What the provider would write, or why nothing, and what to do about it.',
      }),
      provider: Opt(Str()),
      apiVersion: Opt(
        Str({
          description:
            "The upstream apiVersion the provider reports for the cluster (its InferenceProviderConfig's status.upstreamCRDVersion).",
        }),
      ),
      field: Opt(
        Str({
          description: 'invalid: the spec field at fault, e.g. spec.image.',
        }),
      ),
      objects: Type.Array(object),
      warnings: Type.Array(Str(), {
        description:
          "The provider's notes (unknown override keys, transform warnings): events on the deployment once it runs.",
      }),
    },
    {
      description:
        "The objects the selected provider would write for a ModelDeployment (KAITO Workspace, DynamoGraphDeployment, RayService, llm-d Deployments, ...), from the provider's own transformation, or for a LlamaStackDistribution what the stack operator would write (its generated config.yaml ConfigMap, Deployment, Service, ...), from the operator's own code; or why there are none.",
      ...closed,
    },
  );
/** The objects the selected provider would write for a ModelDeployment. @public */
export type ProviderObjects<O = ApiObject> = Static<
  ReturnType<typeof providerObjects<Obj<O>>>
>;

/** @public */
export const PreviewModeValues = ['create', 'update'] as const;
/** @public */
export type PreviewMode = (typeof PreviewModeValues)[number];

const previewAnswer = <O extends TSchema>(object: O) =>
  Type.Object(
    {
      cluster: Str(),
      mode: StringEnum(PreviewModeValues),
      objects: Type.Array(
        Type.Object({ action: StringEnum(PreviewModeValues), object }, closed),
        {
          description:
            'What the portal itself writes, as the API server would store it.',
        },
      ),
      warnings: Type.Array(ValidationIssueSchema),
      selection: Opt(SelectionPreviewSchema),
      providerObjects: providerObjects(object),
    },
    { $id: 'Preview', ...closed },
  );
/** @public */
export const PreviewAnswerSchema = previewAnswer(ApiObjectSchema);
/** The dry-run preview of a write. @public */
export type PreviewAnswer<O = ApiObject> = Static<
  ReturnType<typeof previewAnswer<Obj<O>>>
>;

/** The request body of every write: any object; runway-common's validation names each field at fault. @public */
export const ObjectBodySchema = Type.Object({}, { additionalProperties: true });

/** The answers of every operation that answers with a body, by operationId: what the router must send. @public */
export const ANSWER_SCHEMAS = {
  ListClusters: ClustersAnswerSchema,
  ListResources: ListAnswerSchema,
  CreateResource: WriteAnswerSchema,
  PreviewResource: PreviewAnswerSchema,
  GetResource: DetailAnswerSchema,
  UpdateResource: WriteAnswerSchema,
  ListStorageClasses: StorageClassesAnswerSchema,
  ListSecretNames: SecretNamesAnswerSchema,
  SearchHub: HubSearchAnswerSchema,
  ListPods: PodsAnswerSchema,
  ReadPodLog: LogAnswerSchema,
  GetClusterDoctor: DoctorReportSchema,
  ReadResourceLog: ResourceLogAnswerSchema,
} as const;
/** @public */
export type RunwayOperationId = keyof typeof ANSWER_SCHEMAS;

// runway-common's ValidationIssue interface and the document's must be the same type.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B
  ? 1
  : 2
  ? true
  : false;
const issueTypesAgree: Same<
  Static<typeof ValidationIssueSchema>,
  ValidationIssue
> = true;
void issueTypesAgree;

/**
 * Where an answer departs from the contract, one line per field (empty when
 * it fits): for tests that hold the router's real answers to the document.
 * `ErrorBody` checks an error answer.
 *
 * @public
 */
export function answerMismatches(
  operationId: RunwayOperationId | 'ErrorBody',
  answer: unknown,
): string[] {
  const schema =
    operationId === 'ErrorBody' ? ErrorBodySchema : ANSWER_SCHEMAS[operationId];
  return [...Value.Errors(schema, answer)].map(
    e => `${e.path || '/'}: ${e.message}`,
  );
}

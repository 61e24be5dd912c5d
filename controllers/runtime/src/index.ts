/**
 * What controller-runtime gives Go operators, in TypeScript: shared
 * informers, a rate-limited work queue, a controller builder, server-side
 * apply, leader election, metrics, probes, events, structured logs, a
 * webhook server with its own certificates, and graceful shutdown.
 *
 * @packageDocumentation
 */

// Kubernetes access
export {
  KubeClient,
  APPLY_CONTENT_TYPE,
  queryString,
  validateFieldManager,
} from './kube/client';
export type {
  ApplyOptions,
  KubeClientOptions,
  ListOptions,
  PatchType,
  RequestOptions,
  WatchOptions,
} from './kube/client';
export {
  ApplyConflictError,
  KubeApiError,
  KubeConnectionError,
  isAlreadyExists,
  isConflict,
  isGone,
  isNotFound,
  parseApplyConflicts,
} from './kube/errors';
export type { FieldConflict } from './kube/errors';
export {
  apiVersionOf,
  keyOf,
  keyOfObject,
  parseApiVersion,
  parseKey,
  resourcePath,
  resourceTypeId,
} from './kube/resource';
export type { ResourceType } from './kube/resource';
export * from './kube/wellKnown';
export type {
  KubeList,
  KubeObject,
  ListMeta,
  ObjectKey,
  ObjectMeta,
  OwnerReference,
  Status,
  WatchEvent,
  WatchEventType,
} from './kube/types';

// Cache
export { Informer, WatchSilentError } from './cache/informer';
export type {
  EventHandler,
  InformerMetrics,
  InformerOptions,
} from './cache/informer';
export { SharedInformerFactory } from './cache/sharedInformers';
export type {
  InformerSelector,
  SharedInformerOptions,
} from './cache/sharedInformers';
export { Store } from './cache/store';
export type { IndexFunc, ReplaceResult } from './cache/store';
export {
  OWNER_INDEX,
  OWNER_UID_INDEX,
  byLabelIndexer,
  byOwnerIndexer,
  byOwnerUidIndexer,
  controllerOf,
  labelIndexName,
  ownerIndexValue,
} from './cache/indexers';
export {
  keepFields,
  LAST_APPLIED_ANNOTATION,
  stripManagedFields,
  trimForCache,
} from './cache/transform';
export type { CacheTransform } from './cache/transform';
export { Backoff } from './cache/backoff';

// Work queue
export { WorkQueue } from './queue/workQueue';
export type { WorkQueueMetrics, WorkQueueOptions } from './queue/workQueue';
export {
  BucketRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  exponentialDelay,
} from './queue/rateLimiter';
export type { RateLimiter } from './queue/rateLimiter';

// Controllers
export { Controller, generationNotObserved } from './controller/controller';
export type {
  ControllerOptions,
  EventSource,
  ReconcileContext,
  Reconciler,
  Result,
  Source,
} from './controller/controller';
export { ControllerBuilder } from './controller/builder';
export type {
  ControllerHost,
  OwnsOptions,
  WatchOptions as SourceOptions,
} from './controller/builder';
export {
  and,
  annotationsChanged,
  generationChanged,
  labelsChanged,
  not,
  objectMatches,
  or,
  passes,
  resourceVersionChanged,
} from './controller/predicates';
export type { EventKind, Predicate } from './controller/predicates';
export { ownerRequests, requestFor } from './controller/requests';
export type { Request } from './controller/requests';

// Server-side apply
export {
  Applier,
  applyConfiguration,
  statusApplyConfiguration,
} from './apply/applier';
export type { ApplyCallOptions } from './apply/applier';

// Leader election
export { LeaderElector } from './leader/leaderElector';
export type { LeaderElectorOptions } from './leader/leaderElector';
export {
  claimedSpec,
  LEADER_ELECTION_ID_ENV,
  leaderIdentity,
  leaseState,
  microTime,
  releasedSpec,
  standbyDelayMs,
  validateTiming,
} from './leader/lease';
export type {
  LeaderElectionTiming,
  LeaseSpec,
  LeaseState,
} from './leader/lease';

// Observability
export { ControllerMetrics } from './metrics/metrics';
export type { ReconcileResultLabel } from './metrics/metrics';
export {
  createLogger,
  formatLogLine,
  parseLevel,
  silentLogger,
} from './observability/logger';
export type {
  LogFields,
  LogLevel,
  Logger,
  LoggerOptions,
} from './observability/logger';
export { EventRecorder } from './observability/eventRecorder';
export type { EventRecorderOptions } from './observability/eventRecorder';
export {
  EventAggregator,
  eventAggregationKey,
  eventName,
  validateEvent,
} from './observability/eventAggregation';
export type { EventRecord, EventType } from './observability/eventAggregation';

// Webhooks
export { WebhookServer } from './webhook/server';
export type { WebhookServerOptions } from './webhook/server';
export {
  conversionWebhook,
  jsonPatch,
  mutatingWebhook,
  SPEC_CHANGED_CONDITION,
  validatingWebhook,
} from './webhook/reviews';
export type {
  AdmissionRequest,
  ValidationResult,
  WebhookHandler,
  WebhookReply,
} from './webhook/reviews';
export { CertManager } from './webhook/certManager';
export type { CertManagerOptions } from './webhook/certManager';
export {
  caBundleAfterRotation,
  generateCA,
  generateServingCert,
  rotationDecision,
  splitPems,
} from './webhook/certs';
export type { CertBundle, CertHosts, RotationDecision } from './webhook/certs';
export {
  crdConversionCaPatch,
  webhookConfigurationCaPatch,
} from './webhook/caBundle';

// Process flags and environment variables
export {
  MANAGER_OPTIONS,
  helpRequested,
  optionErrorsText,
  optionLabel,
  optionParsers,
  parseDuration,
  parseProcessOptions,
  parseWebhookManagerOptions,
  usage,
  webhookManagerOptions,
  webhookProcessOptions,
} from './options';
export type {
  OptionParser,
  OptionSpec,
  OptionSpecs,
  OptionsResult,
  ParsedOptions,
  SettingsOf,
  WebhookManagerOptions,
  WebhookManagerSpecs,
  WebhookProcessSettings,
  WithWebhookHost,
} from './options';

// The process shell around a controller's own parts
export * from './controllerProcess';

// Manager
export {
  Manager,
  LeaderElectionLostError,
  defaultLeaseName,
} from './manager/manager';
export type {
  BindAddress,
  LeaderElectionOptions,
  ManagerOptions,
  WebhookOptions,
} from './manager/manager';
export { secretExists } from './kube/secretExists';
export { LineDecoder } from './kube/lineDecoder';

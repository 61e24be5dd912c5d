/**
 * The loop every inference provider controller shares. A provider supplies a
 * `ProviderDefinition` (pure transform and status mapping, registration
 * data, upstream kind and versions, known overrides); this package does
 * registration and heartbeat, CRD version detection, compatibility,
 * overrides, finalizers, drift and status writes.
 *
 * @packageDocumentation
 */
export type {
  MappedStatus,
  ProviderDefinition,
  TransformContext,
  TransformResult,
  UpstreamKind,
} from './definition';
export { TransformError } from './definition';
export {
  huggingFaceTokenEnvFrom,
  modelContainerFields,
  modelServerEnv,
  podStorageOf,
  podTemplateMetadataFields,
  podVolumeFields,
} from './pod';
export {
  DEFAULT_FINALIZER_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  ProviderController,
  providerFieldManager,
  providerFinalizer,
} from './controller';
export type { ProviderControllerOptions } from './controller';
export {
  crdName,
  crdNotInstalledMessage,
  detectApiVersion,
  schemaHash,
} from './crdVersion';
export {
  DESIRED_ANNOTATION,
  IDENTITY_ANNOTATION,
  MANAGED_BY_VALUE,
  desiredObjects,
  identityHash,
  propagatedLabels,
  resolveDeployment,
} from './desired';
export { applyDecision, containsDesired } from './drift';
export type { ApplyDecision } from './drift';
export { checkOverrides } from './overrides';
export {
  checkProviderInput,
  planProviderObjects,
  unknownOverrideMessage,
} from './plan';
export type { ProviderCheck, ProviderPlan, ProviderProblem } from './plan';
export type { OverrideCheck, OverrideSchema, OverrideType } from './overrides';
export { registrationStatus } from './registration';
export type { RegistrationStatus } from './registration';
export { InferenceProviderConfigs, ModelDeployments } from './resources';
export {
  APPLY_FAILED_REASON,
  PROVIDER_CONDITIONS,
  applyFailedStatus,
  applyFailure,
  deployedStatus,
  incompatibleStatus,
  notCreatedStatus,
  statusUpToDate,
} from './status';
export type { ApplyFailure, StatusContext } from './status';
export {
  PROVIDER_OPTIONS,
  parseProviderOptions,
  providerOptions,
} from './options';
export type { ProviderProcessOptions } from './options';
export { providerLeaseName, runProvider } from './run';

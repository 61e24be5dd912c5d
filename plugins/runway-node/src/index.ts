/**
 * Runway Portal's node library: the ClusterClient service (one watch-cached
 * client per registered cluster) and the runway permission rules (the
 * permissions themselves are in runway-common).
 *
 * @packageDocumentation
 */
export * from './ClusterClient';
export { clusterClientServiceRef } from './service';
export * from './kinds';
export * from './errors';
export * from './validation';
export * from './permissions';
export * from './shared';
export * from './rbac';
export { readClusterSpecs, checkServerUrl } from './config/readClusters';
export type {
  ClusterSpec,
  ClusterAuth,
  ClusterConfigProblem,
  ClusterConfigResult,
} from './config/readClusters';
export {
  readRunwayOptions,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './config/readOptions';
export type { RunwayOptions } from './config/readOptions';
export { kubeConfigFor } from './config/kubeConfigFor';
export type {
  ClusterError,
  ClusterErrorReason,
  ClusterFreshness,
} from './cluster/health';
export { ClusterTimeoutError } from './cluster/health';
export {
  ClusterDoctor,
  doctorReport,
  pendingReport,
  DEFAULT_DOCTOR_INTERVAL_MS,
  DEFAULT_DOCTOR_NAMESPACE,
  DEFAULT_DOCTOR_TIMEOUT_MS,
} from './cluster/doctor';
export type { DoctorOptions, DoctorRun } from './cluster/doctor';
export type { GpuCapacity } from './cluster/gpu';
export {
  gpuCapacity,
  gpuMemoryBytes,
  gpuTypes,
  isGpuResource,
  podRequest,
} from './cluster/gpu';
/** The node labels the cluster overview reads each GPU's memory and product from (runway-common's). */
export { GPU_NODE_LABELS } from '@runway-portal/plugin-runway-common';
export type { ProviderSummary, ProviderEngine } from './cluster/providers';
export { summarizeProviders, providerEngines } from './cluster/providers';
export {
  parseLabelSelector,
  matchesLabels,
  LabelSelectorError,
} from './cluster/labelSelector';
export type { Requirement } from './cluster/labelSelector';

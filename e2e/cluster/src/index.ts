/**
 * Real Kubernetes control planes for integration tests: etcd,
 * kube-apiserver, kube-controller-manager, kube-scheduler and kwok built
 * from Go modules and run as local processes on loopback ports.
 *
 * @packageDocumentation
 */
export { startCluster, startClusters, DEFAULT_CLUSTERS_DIR } from './cluster';
export type { StartClusterOptions, TestCluster } from './cluster';
export type { InstalledCrds } from './crds';
export { ManagedProcess, logTail, PARENT_PID_ENV } from './processes';
export type {
  ExitInfo,
  ManagedProcessOptions,
  ProcessMemory,
} from './processes';
export {
  ensureKubeBinary,
  kubeBinaryLocation,
  cacheRoot,
  KubeBuildError,
} from './binary';
export { DEFAULT_NODES, GPU_RESOURCE, nodeManifest } from './nodes';
export type { NodeSpec } from './nodes';
export { COMPONENTS } from './layout';
export type { Component } from './layout';
export { readManifests, isCrd } from './manifests';
export type { SourcedObject } from './manifests';
export { waitFor, apiErrorMessage } from './wait';
export { freePort } from './ports';
export { kubeletNodeStatus, startKubeletLogStandIn } from './kubeletLogs';
export type {
  KubeletLogFollower,
  KubeletLogRequest,
  KubeletLogSource,
  KubeletLogStandIn,
  KubeletLogStandInOptions,
} from './kubeletLogs';

/**
 * The local Runway Portal: local clusters with kwok GPU and CPU nodes, the
 * CRDs, the controllers and operator test doubles as local processes, and
 * Backstage configured for the clusters.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_CLUSTERS,
  REPO_ROOT,
  RUNWAY_CRDS_DIR,
  assertPortFree,
  startSystem,
  userConfiguredClusters,
} from './system';
export type { RunningSystem, SystemOptions, SystemService } from './system';
/** A free loopback port (e2e/cluster's), for tests that start Backstage or other servers. */
export { freePort } from '@runway-portal/e2e-cluster';
export {
  CONTROLLERS,
  LOCAL_GPU,
  LOCAL_NODES,
  SIMULATORS,
  entryCommand,
} from './plan';
export type { ControllerSpec } from './plan';
export {
  DEFAULT_PORTS,
  configuredClusters,
  portsConfig,
  systemAppConfig,
} from './config';
export type { PortalCluster, PortalPorts } from './config';
export { PORTAL_CLUSTER_ROLE, portalToken } from './portalAccess';
export { parseUpArgs } from './cli';
/** For benchmarks' children: NODE_OPTIONS that make a Node child exit when RUNWAY_KUBE_PARENT_PID is gone. */
export { nodeOptionsWithWatch } from './processes';
/** The API server's request counters, for benchmarks that count requests per object. */
export {
  counterDelta,
  requestsByVerbAndResource,
  snapshot,
  writeSummary,
} from './apiMetrics';

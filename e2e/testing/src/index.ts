/**
 * Test and benchmark helpers shared by every package's tests and benches
 * (the tooling layer: production code must not import it).
 *
 * @packageDocumentation
 */
export { eventually, sleep } from './eventually';
export {
  applyManifests,
  createNamespace,
  eventRecorded,
  eventsAbout,
  eventsOf,
  impersonating,
  reasonsRecorded,
} from './kube';
export type { KubeEvent } from './kube';
export { startControllerForTest } from './controller';
export { installForTest, runRunway } from './install';
export type { InstallTarget, InstalledComponent } from './install';
export {
  CONTROLLER_TOKEN_SECONDS,
  controllerServiceAccount,
  serviceAccountOf,
  serviceAccountToken,
  serviceAccountUser,
  tokenKubeconfig,
} from './serviceAccounts';
export type { ServiceAccountRef } from './serviceAccounts';
export type { ControllerUnderTest } from './controller';
export {
  inParallel,
  cpuSecondsOf,
  memoryOf,
  percentile,
  percentiles,
  pollUntil,
  ratio,
  runBenchmark,
  startBuiltController,
  startTsProcess,
  stopProcesses,
  timed,
} from './bench';

/** The doctor: read a cluster once (`readClusterState`), judge it with pure checks (`runChecks`). */
export * from './types';
export {
  runChecks,
  formatChecks,
  checkCrds,
  checkControllers,
  checkWebhooks,
  checkProviders,
  checkGateway,
  checkOperators,
  runningOutside,
} from './checks';
export type { CheckOptions, OutsideState } from './checks';
export {
  readClusterState,
  expectationsFromBundles,
  READ_NEEDS,
  doctorReadTargets,
  bundleLeaseName,
} from './read';
export type { ReadOptions } from './read';
export { bundledExpectations } from './bundled';

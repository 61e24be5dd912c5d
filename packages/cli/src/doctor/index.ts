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
} from './checks';
export type { CheckOptions } from './checks';
export {
  readClusterState,
  expectationsFromBundles,
  READ_NEEDS,
  doctorReadTargets,
} from './read';
export type { ReadOptions } from './read';
export { bundledExpectations } from './bundled';

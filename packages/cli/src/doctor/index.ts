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
export { readClusterState, expectationsFromBundles } from './read';

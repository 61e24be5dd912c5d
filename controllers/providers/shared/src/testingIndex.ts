/**
 * Test and benchmark helpers, published as `@runway-portal/provider-shared/testing`
 * so the main entry (which production code imports) does not ship them.
 *
 * @packageDocumentation
 */
export {
  TEST_CORE_FIELD_MANAGER,
  conditionOf,
  createModelDeploymentAsCore,
  eventsAbout,
  getProviderConfig,
  isGone,
  loadWithoutStarting,
  modelDeploymentTestHelpers,
  selectProviderAsCore,
  startProviderAsServiceAccount,
  startProviderForTest,
  statusOwners,
} from './testing';
export type { ModelDeploymentObject, RunningProvider } from './testing';
export { describeProviderConformance } from './testing/conformance';
export type { ConformanceOptions } from './testing/conformance';
export {
  baselineReport,
  benchProvider,
  countModelDeployments,
  measureBaselines,
  resourceCreated,
  startProviderProcess,
} from './testing/bench';
export type {
  Baselines,
  ProviderBenchSettings,
  WriteRate,
} from './testing/bench';

/**
 * Scaffolder actions that create and watch Runway resources.
 *
 * @packageDocumentation
 */
export { scaffolderModuleRunway as default } from './module';
export {
  createRunwayApplyAction,
  type RunwayApplyActionOptions,
} from './actions/apply';
export {
  createRunwayWaitAction,
  type RunwayWaitActionOptions,
} from './actions/wait';

/**
 * Scaffolder actions that create and watch Runway resources.
 *
 * @packageDocumentation
 */
export { scaffolderModuleRunway as default } from './module';
export {
  createRunwayApplyAction,
  type RunwayApplyActionOptions,
  type RunwayApplyInput,
  type RunwayApplyOutput,
} from './actions/apply';
export {
  createRunwayWaitAction,
  type RunwayWaitActionOptions,
  type RunwayWaitInput,
  type RunwayWaitOutput,
} from './actions/wait';

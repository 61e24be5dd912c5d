/**
 * Runway Portal's frontend plugin: multi-cluster dashboard, deployment
 * wizard, status views and catalog entity content for deployments, models
 * and stacks. This entry point is the legacy frontend system's plugin; the
 * new frontend system's is `@runway-portal/plugin-runway/alpha`.
 *
 * @packageDocumentation
 */
export {
  runwayPlugin,
  RunwayPage,
  EntityRunwayContent,
  EntityRunwayCard,
  RunwayClusterPickerFieldExtension,
  RunwayNamespacePickerFieldExtension,
  RunwayRunningDeploymentPickerFieldExtension,
  RunwayModelPickerFieldExtension,
  RunwayStorageClassPickerFieldExtension,
} from './plugin';
export {
  RunwayClusterPicker,
  RunwayNamespacePicker,
  RunwayClusterPickerSchema,
  RunwayNamespacePickerSchema,
  validateRunwayCluster,
  validateRunwayNamespace,
} from './components/scaffolder/RunwayPickers';
export {
  RunwayRunningDeploymentPicker,
  RunwayRunningDeploymentPickerSchema,
  validateRunwayRunningDeployment,
  type RunningDeploymentValue,
} from './components/scaffolder/RunningDeploymentPicker';
export {
  RunwayModelPicker,
  RunwayModelPickerSchema,
  validateRunwayModel,
  type ModelPickerValue,
} from './components/scaffolder/ModelPicker';
export {
  RunwayStorageClassPicker,
  RunwayStorageClassPickerSchema,
  validateRunwayStorageClass,
} from './components/scaffolder/StorageClassPicker';
export type {
  RunwayPickerOptions,
  RunwayPickerValidator,
} from './components/scaffolder/pickerShell';
export {
  runwayApiRef,
  RunwayClient,
  RunwayApiError,
  type RunwayApi,
  type ResourceRef,
} from './api/RunwayApi';
export type * from './api/types';
export { rootRouteRef } from './routes';
export { KUBERNETES_ID } from './kubernetesId';

/** The generated types of the deployments API, re-exported under the names the code uses. */
export type {
  ModelDeployment,
  ModelDeploymentSpec,
  ModelDeploymentStatus,
  InferenceProviderConfig,
  InferenceProviderConfigSpec,
  EngineCapability,
  SelectionRule,
  CompatibilityRule,
  StorageVolume,
} from '../generated';

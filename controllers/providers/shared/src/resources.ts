import type { ResourceType } from '@runway-portal/controller-runtime';
import {
  MODEL_DEPLOYMENTS_RESOURCE,
  PROVIDER_CONFIGS_RESOURCE,
} from '@runway-portal/plugin-runway-common';

/** runway-common's, from the CRD definitions: one description of where each kind is served. @public */
export const ModelDeployments: ResourceType = MODEL_DEPLOYMENTS_RESOURCE;

/** @public */
export const InferenceProviderConfigs: ResourceType = PROVIDER_CONFIGS_RESOURCE;

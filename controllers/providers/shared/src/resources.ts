import type { ResourceType } from '@runway-portal/controller-runtime';
import { DEPLOYMENTS_GROUP, DEPLOYMENTS_VERSION } from '@runway-portal/plugin-runway-common';

export const ModelDeployments: ResourceType = {
  group: DEPLOYMENTS_GROUP,
  version: DEPLOYMENTS_VERSION,
  plural: 'modeldeployments',
  kind: 'ModelDeployment',
  namespaced: true,
};

export const InferenceProviderConfigs: ResourceType = {
  group: DEPLOYMENTS_GROUP,
  version: DEPLOYMENTS_VERSION,
  plural: 'inferenceproviderconfigs',
  kind: 'InferenceProviderConfig',
  namespaced: false,
};

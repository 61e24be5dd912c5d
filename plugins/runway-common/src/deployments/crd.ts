/** The CRD definitions of the deployments API. */
import type { CrdDefinition } from '../crd/definition';
import { DEPLOYMENTS_GROUP, DEPLOYMENTS_VERSION } from './constants';
import { InferenceProviderConfigSchema, ModelDeploymentSchema } from './schema';

/** @public */
export const modelDeploymentCrd: CrdDefinition = {
  group: DEPLOYMENTS_GROUP,
  names: {
    kind: 'ModelDeployment',
    plural: 'modeldeployments',
    singular: 'modeldeployment',
    shortNames: ['md'],
    categories: ['runway'],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: DEPLOYMENTS_VERSION,
      served: true,
      storage: true,
      schema: ModelDeploymentSchema,
      subresources: { status: true },
      printerColumns: [
        {
          name: 'Phase',
          type: 'string',
          jsonPath: '.status.phase',
          description: 'Current phase',
        },
        {
          name: 'Provider',
          type: 'string',
          jsonPath: '.status.provider.name',
          description: 'Selected provider',
        },
        {
          name: 'Engine',
          type: 'string',
          jsonPath: '.status.engine.type',
          description: 'Inference engine',
        },
        {
          name: 'Replicas',
          type: 'integer',
          jsonPath: '.status.replicas.ready',
          description: 'Ready replicas',
        },
        {
          name: 'Model',
          type: 'string',
          jsonPath: '.spec.model.id',
          description: 'Model ID',
          priority: 1,
        },
        {
          name: 'Endpoint',
          type: 'string',
          jsonPath: '.status.gateway.endpoint',
          description: 'Gateway endpoint',
          priority: 1,
        },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
};

/** @public */
export const inferenceProviderConfigCrd: CrdDefinition = {
  group: DEPLOYMENTS_GROUP,
  names: {
    kind: 'InferenceProviderConfig',
    plural: 'inferenceproviderconfigs',
    singular: 'inferenceproviderconfig',
    shortNames: ['ipc'],
    categories: ['runway'],
  },
  scope: 'Cluster',
  versions: [
    {
      name: DEPLOYMENTS_VERSION,
      served: true,
      storage: true,
      schema: InferenceProviderConfigSchema,
      subresources: { status: true },
      printerColumns: [
        {
          name: 'Ready',
          type: 'boolean',
          jsonPath: '.status.ready',
          description: 'Provider ready',
        },
        {
          name: 'Version',
          type: 'string',
          jsonPath: '.status.version',
          description: 'Provider version',
        },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
};

/** Where a kind is served, in the shape of controller-runtime's `ResourceType` (this package has no runtime dependency). @public */
export interface ServedResource {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** ModelDeployments, as every controller and the portal's tests read and write them: from the CRD definition. @public */
export const MODEL_DEPLOYMENTS_RESOURCE: ServedResource = {
  group: modelDeploymentCrd.group,
  version: DEPLOYMENTS_VERSION,
  plural: modelDeploymentCrd.names.plural,
  kind: modelDeploymentCrd.names.kind,
  namespaced: true,
};

/** InferenceProviderConfigs (cluster-scoped), from the CRD definition. @public */
export const PROVIDER_CONFIGS_RESOURCE: ServedResource = {
  group: inferenceProviderConfigCrd.group,
  version: DEPLOYMENTS_VERSION,
  plural: inferenceProviderConfigCrd.names.plural,
  kind: inferenceProviderConfigCrd.names.kind,
  namespaced: false,
};

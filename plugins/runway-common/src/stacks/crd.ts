/**
 * The LlamaStackDistribution CRD: v1alpha1 served for compatibility, v1alpha2
 * served and stored (FR-081, FR-082), converted by the stack operator's
 * conversion webhook (FR-080). The install step fills in the webhook's
 * caBundle.
 */
import type { CrdDefinition } from '../crd/definition';
import { STACK_GROUP, STACK_KIND, StackV1alpha1Schema } from './v1alpha1';
import { StackV1alpha2Schema } from './v1alpha2';

/** Where the API server sends ConversionReviews for LlamaStackDistributions. @public */
export const STACK_CONVERSION_SERVICE = {
  namespace: 'airunway-system',
  name: 'airunway-stacks-webhook',
  path: '/convert',
  port: 443,
} as const;

/** @public */
export const stackCrd: CrdDefinition = {
  group: STACK_GROUP,
  names: {
    kind: STACK_KIND,
    listKind: `${STACK_KIND}List`,
    plural: 'llamastackdistributions',
    singular: 'llamastackdistribution',
    shortNames: ['llsd'],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: StackV1alpha1Schema,
      subresources: { status: true },
      printerColumns: [
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        {
          name: 'Operator Version',
          type: 'string',
          jsonPath: '.status.version.operatorVersion',
        },
        {
          name: 'Server Version',
          type: 'string',
          jsonPath: '.status.version.llamaStackServerVersion',
        },
        {
          name: 'Available',
          type: 'integer',
          jsonPath: '.status.availableReplicas',
        },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
    {
      name: 'v1alpha2',
      served: true,
      storage: true,
      schema: StackV1alpha2Schema,
      subresources: { status: true },
      printerColumns: [
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        {
          name: 'Distribution',
          type: 'string',
          jsonPath: '.status.resolvedDistribution.image',
          priority: 1,
        },
        {
          name: 'Config',
          type: 'string',
          jsonPath: '.status.configGeneration.configMapName',
          priority: 1,
        },
        {
          name: 'Providers',
          type: 'integer',
          jsonPath: '.status.configGeneration.providerCount',
        },
        {
          name: 'Available',
          type: 'integer',
          jsonPath: '.status.availableReplicas',
        },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
  conversion: {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: { service: { ...STACK_CONVERSION_SERVICE } },
    },
  },
};

/**
 * The Dynamo provider as the shared provider loop runs it: registration data
 * from runway-common, the upstream kind and versions, known overrides, and
 * the pure transform and status mapping of this package. Besides the DGD it
 * creates the PVCs of storage volumes with a `size` (Dynamo mounts claims
 * that exist; it does not create them from the deployment's volumes).
 */
import { PersistentVolumeClaims } from '@runway-portal/controller-runtime';
import {
  DYNAMO_PROVIDER,
  managedClaims,
} from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from '@runway-portal/provider-shared';
import type { DynamoApiVersion } from './engine';
import { DYNAMO_OVERRIDES } from './overrides';
import { mapDynamoStatus } from './status';
import {
  DGD_KIND,
  DGD_PLURAL,
  DYNAMO_GROUP,
  buildDynamoGraphDeployment,
} from './transform';

/** @public */
export const DYNAMO_PROVIDER_VERSION = 'dynamo-provider:v0.1.0';

/** @public */
export const dynamoProvider: ProviderDefinition = {
  name: 'dynamo',
  registration: DYNAMO_PROVIDER,
  version: DYNAMO_PROVIDER_VERSION,
  // Current Dynamo stores v1beta1; v1.3.0-era Dynamo stores (and may only serve) v1alpha1.
  upstream: {
    group: DYNAMO_GROUP,
    kind: DGD_KIND,
    plural: DGD_PLURAL,
    versions: ['v1beta1', 'v1alpha1'],
  },
  extraKinds: [PersistentVolumeClaims],
  overrides: DYNAMO_OVERRIDES,
  transform(md, ctx) {
    const version = ctx.apiVersion.split('/')[1] as DynamoApiVersion;
    const { object, warnings } = buildDynamoGraphDeployment(md, version);
    return { objects: [object, ...managedClaims(md)], warnings };
  },
  mapStatus: mapDynamoStatus,
};

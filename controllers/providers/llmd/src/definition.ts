/**
 * The llm-d provider as the shared provider loop runs it. Its primary
 * upstream object is the InferencePool (the CRD llm-d needs installed); the
 * model-server Deployments and the Service are extra kinds.
 *
 * The loop hands `mapStatus` only the primary object, but llm-d's state is
 * in its Deployments: `lookupDeployment` reads them, from the loop's own
 * Deployment cache (`deploymentCache`).
 */
import {
  Deployments,
  type KubeObject,
  Services,
  type SharedInformerFactory,
  keyOf,
} from '@runway-portal/controller-runtime';
import { LLMD_PROVIDER, MANAGED_BY_LABEL } from '@runway-portal/plugin-runway-common';
import { MANAGED_BY_VALUE, type ProviderDefinition } from '@runway-portal/provider-shared';
import { LLMD_OVERRIDES } from './overrides';
import { mapLlmdStatus } from './status';
import { INFERENCE_POOL_GROUP, buildLlmdObjects, modelServers } from './transform';

export const LLMD_PROVIDER_VERSION = 'llmd-provider:v0.1.0';

export type DeploymentLookup = (namespace: string | undefined, name: string) => KubeObject | undefined;

/**
 * Reads Deployments from the informer the shared loop watches its extra
 * kinds with (same type and label selector, so the factory returns that very
 * informer: a reconcile triggered by a Deployment change sees that change).
 */
export function deploymentCache(informers: SharedInformerFactory): DeploymentLookup {
  const informer = informers.informerFor(Deployments, { labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}` });
  return (namespace, name) => informer.store.get(keyOf({ namespace, name }));
}

export function llmdProvider(lookupDeployment: DeploymentLookup): ProviderDefinition {
  return {
    name: 'llmd',
    registration: LLMD_PROVIDER,
    version: LLMD_PROVIDER_VERSION,
    upstream: { group: INFERENCE_POOL_GROUP, kind: 'InferencePool', plural: 'inferencepools', versions: ['v1'] },
    extraKinds: [Deployments, Services],
    overrides: LLMD_OVERRIDES,
    transform: md => ({ objects: buildLlmdObjects(md) }),
    mapStatus(md) {
      const live = new Map<string, KubeObject>();
      for (const server of modelServers(md)) {
        const deployment = lookupDeployment(md.metadata?.namespace, server.name);
        if (deployment) live.set(server.name, deployment);
      }
      return mapLlmdStatus(md, live);
    },
  };
}

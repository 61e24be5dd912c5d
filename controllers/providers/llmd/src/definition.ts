/**
 * The llm-d provider as the shared provider loop runs it. Its primary
 * upstream object is the InferencePool (the CRD llm-d needs installed); the
 * model-server Deployments and the Service are extra kinds.
 *
 * llm-d's state is in its model-server Deployments, not in the pool: the
 * loop hands them to `mapStatus` as `extras` (the live helper objects), so
 * the definition stays a plain value with no cache of its own.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  LLMD_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type {
  MappedStatus,
  ProviderDefinition,
} from '@runway-portal/provider-shared';
import { LLMD_OVERRIDES } from './overrides';
import { mapLlmdStatus } from './status';
import {
  INFERENCE_POOL_GROUP,
  LLMD_EXTRA_KINDS,
  buildLlmdObjects,
  modelServers,
} from './transform';

/** @public */
export const LLMD_PROVIDER_VERSION = 'llmd-provider:v0.1.0';

/**
 * The deployment's model-server Deployments among the live helper objects,
 * by name (other Deployments, such as an endpoint picker's, are not model
 * servers and do not decide the phase).
 */
export function liveModelServers(
  md: ModelDeployment,
  extras: readonly KubeObject[],
): Map<string, KubeObject> {
  const names = new Set(modelServers(md).map(server => server.name));
  const live = new Map<string, KubeObject>();
  for (const obj of extras) {
    const name = obj.metadata?.name;
    if (obj.kind === 'Deployment' && name && names.has(name))
      live.set(name, obj);
  }
  return live;
}

/** @public */
export const llmdProvider: ProviderDefinition = {
  name: 'llmd',
  registration: LLMD_PROVIDER,
  version: LLMD_PROVIDER_VERSION,
  upstream: {
    group: INFERENCE_POOL_GROUP,
    kind: 'InferencePool',
    plural: 'inferencepools',
    versions: ['v1'],
  },
  extraKinds: LLMD_EXTRA_KINDS,
  // Twice the others': a first reconcile waits seconds on its two Services, which the API
  // server allocates ClusterIPs for one at a time, cluster-wide; the status saying the
  // InferencePool exists goes out before that wait, so more at once report it sooner.
  maxConcurrentReconciles: 64,
  overrides: LLMD_OVERRIDES,
  transform: md => ({ objects: buildLlmdObjects(md) }),
  mapStatus: (md, _pool, extras = []): MappedStatus =>
    mapLlmdStatus(md, liveModelServers(md, extras)),
};

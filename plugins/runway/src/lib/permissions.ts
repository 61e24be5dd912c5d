/**
 * What the pages can tell about a permission before the user has chosen a
 * cluster and namespace. Pure.
 */
import type { RunwayResource } from '@runway-portal/plugin-runway-common';
import type { ClusterOverview } from '../api/types';

/**
 * Every cluster and namespace something could be created in: the namespaces
 * of each reachable cluster's allow-list. Undefined when a reachable cluster
 * serves any namespace (no allow-list) or none is known: then the places
 * cannot be listed, and only the wizard, once a namespace is chosen, can ask.
 */
export function createTargets(
  clusters: ClusterOverview[] | undefined,
): RunwayResource[] | undefined {
  const reachable = (clusters ?? []).filter(c => c.reachable);
  if (reachable.length === 0 || reachable.some(c => !c.namespaces?.length))
    return undefined;
  return reachable.flatMap(c =>
    (c.namespaces ?? []).map(namespace => ({ cluster: c.name, namespace })),
  );
}

/**
 * Permission rules for `runway-resource`: a policy returns conditional
 * decisions such as `runwayConditions.isInNamespace({namespaces: ['team-a']})`
 * and the backend applies them to each cluster and namespace it serves.
 */
import {
  createConditionExports,
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import { z } from 'zod';
import { RUNWAY_RESOURCE_TYPE } from './permissions';

/** What a permission decision about a Runway resource depends on. */
export interface RunwayResource {
  cluster: string;
  namespace: string;
}

/** The query form of the rules (criteria on clusters and namespaces). */
export interface RunwayResourceQuery {
  clusters?: string[];
  namespaces?: string[];
}

export const runwayResourceRef = createPermissionResourceRef<RunwayResource, RunwayResourceQuery>().with({
  pluginId: 'runway',
  resourceType: RUNWAY_RESOURCE_TYPE,
});

export const isInCluster = createPermissionRule({
  name: 'IS_IN_CLUSTER',
  description: 'Allow resources in one of the given clusters',
  resourceRef: runwayResourceRef,
  paramsSchema: z.object({
    clusters: z.array(z.string()).describe('Names of clusters, as configured'),
  }),
  apply: (resource, { clusters }) => clusters.includes(resource.cluster),
  toQuery: ({ clusters }) => ({ clusters }),
});

export const isInNamespace = createPermissionRule({
  name: 'IS_IN_NAMESPACE',
  description: 'Allow resources in one of the given namespaces (in any cluster)',
  resourceRef: runwayResourceRef,
  paramsSchema: z.object({
    namespaces: z.array(z.string()).describe('Namespace names'),
  }),
  apply: (resource, { namespaces }) => namespaces.includes(resource.namespace),
  toQuery: ({ namespaces }) => ({ namespaces }),
});

export const runwayPermissionRules = { isInCluster, isInNamespace };

/** For permission policies: `runwayConditions.isInNamespace({namespaces})`, `createRunwayConditionalDecision(...)`. */
export const { conditions: runwayConditions, createConditionalDecision: createRunwayConditionalDecision } =
  createConditionExports({ resourceRef: runwayResourceRef, rules: runwayPermissionRules });

/** `cluster/namespace`: how a Runway resource is referred to in permission requests. */
export function runwayResourceRefOf(resource: RunwayResource): string {
  return `${resource.cluster}/${resource.namespace}`;
}

export function parseRunwayResourceRef(ref: string): RunwayResource | undefined {
  const [cluster, namespace, ...rest] = ref.split('/');
  if (!cluster || !namespace || rest.length > 0) return undefined;
  return { cluster, namespace };
}

/**
 * Permission rules for `runway-resource`: a policy returns conditional
 * decisions such as `runwayConditions.isInNamespace({namespaces: ['team-a']})`
 * and the backend applies them to each cluster and namespace it serves. The
 * permissions themselves, the resource type and the resource refs are in
 * runway-common (the frontend asks with the same objects); the rules need
 * node-only @backstage/plugin-permission-node, so they are here.
 */
import {
  createConditionExports,
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import {
  RUNWAY_RESOURCE_TYPE,
  type RunwayResource,
} from '@runway-portal/plugin-runway-common';
import { z } from 'zod';

/** The query form of the rules (criteria on clusters and namespaces). @public */
export interface RunwayResourceQuery {
  clusters?: string[];
  namespaces?: string[];
}

/** @public */
export const runwayResourceRef = createPermissionResourceRef<
  RunwayResource,
  RunwayResourceQuery
>().with({
  pluginId: 'runway',
  resourceType: RUNWAY_RESOURCE_TYPE,
});

/** @public */
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

/** @public */
export const isInNamespace = createPermissionRule({
  name: 'IS_IN_NAMESPACE',
  description:
    'Allow resources in one of the given namespaces (in any cluster)',
  resourceRef: runwayResourceRef,
  paramsSchema: z.object({
    namespaces: z.array(z.string()).describe('Namespace names'),
  }),
  apply: (resource, { namespaces }) => namespaces.includes(resource.namespace),
  toQuery: ({ namespaces }) => ({ namespaces }),
});

/** @public */
export const runwayPermissionRules = { isInCluster, isInNamespace };

const conditionExports = createConditionExports({
  resourceRef: runwayResourceRef,
  rules: runwayPermissionRules,
});

/** For permission policies: `runwayConditions.isInNamespace({namespaces})`. @public */
export const runwayConditions = conditionExports.conditions;

/** For permission policies: `createRunwayConditionalDecision(permission, runwayConditions.isInCluster(...))`. @public */
export const createRunwayConditionalDecision =
  conditionExports.createConditionalDecision;

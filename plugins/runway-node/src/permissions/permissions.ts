/**
 * Runway's permissions: read, create, update and delete per kind, each a
 * resource permission on `runway-resource` so that a policy can make it
 * conditional on the cluster and the namespace; and reading the cluster
 * overview. Isomorphic (the frontend can import the same definitions).
 */
import { createPermission, type ResourcePermission } from '@backstage/plugin-permission-common';
import { RUNWAY_KINDS, type RunwayKind } from '../kinds';

export const RUNWAY_RESOURCE_TYPE = 'runway-resource';

export type RunwayAction = 'read' | 'create' | 'update' | 'delete';
export const RUNWAY_ACTIONS: readonly RunwayAction[] = ['read', 'create', 'update', 'delete'];

function kindPermissions(kind: RunwayKind): Record<RunwayAction, ResourcePermission<typeof RUNWAY_RESOURCE_TYPE>> {
  const make = (action: RunwayAction) =>
    createPermission({
      name: `runway.${kind}.${action}`,
      attributes: { action },
      resourceType: RUNWAY_RESOURCE_TYPE,
    });
  return { read: make('read'), create: make('create'), update: make('update'), delete: make('delete') };
}

/** `runwayPermissions.deployments.create` is `runway.deployments.create`, and so on. */
export const runwayPermissions: Record<RunwayKind, Record<RunwayAction, ResourcePermission<typeof RUNWAY_RESOURCE_TYPE>>> = {
  deployments: kindPermissions('deployments'),
  models: kindPermissions('models'),
  stacks: kindPermissions('stacks'),
};

/** Reading the cluster overview: health, providers and GPU capacity. */
export const runwayClustersReadPermission = createPermission({
  name: 'runway.clusters.read',
  attributes: { action: 'read' },
});

export const runwayPermissionList = [
  runwayClustersReadPermission,
  ...RUNWAY_KINDS.flatMap(kind => RUNWAY_ACTIONS.map(action => runwayPermissions[kind][action])),
];

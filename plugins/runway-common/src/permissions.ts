/**
 * The kinds the portal serves and Runway's permissions on them: read,
 * create, update and delete per kind, each a resource permission on
 * `runway-resource` so that a policy can make it conditional on the cluster
 * and the namespace; and reading the cluster overview. Isomorphic: the
 * frontend asks `usePermission` with the same objects the backend authorizes
 * with. The rules a policy's conditions use (`isInCluster`, `isInNamespace`)
 * need node code and live in runway-node.
 */
import {
  createPermission,
  type ResourcePermission,
} from '@backstage/plugin-permission-common';

/** @public */
export const RUNWAY_KINDS = ['deployments', 'models', 'stacks'] as const;
/** @public */
export type RunwayKind = (typeof RUNWAY_KINDS)[number];

/** @public */
export function isRunwayKind(value: string): value is RunwayKind {
  return (RUNWAY_KINDS as readonly string[]).includes(value);
}

/** @public */
export const RUNWAY_RESOURCE_TYPE = 'runway-resource';

/** @public */
export type RunwayAction = 'read' | 'create' | 'update' | 'delete';
/** @public */
export const RUNWAY_ACTIONS: readonly RunwayAction[] = [
  'read',
  'create',
  'update',
  'delete',
];

/** @public */
export type RunwayPermission = ResourcePermission<typeof RUNWAY_RESOURCE_TYPE>;

function kindPermissions(
  kind: RunwayKind,
): Record<RunwayAction, RunwayPermission> {
  const make = (action: RunwayAction) =>
    createPermission({
      name: `runway.${kind}.${action}`,
      attributes: { action },
      resourceType: RUNWAY_RESOURCE_TYPE,
    });
  return {
    read: make('read'),
    create: make('create'),
    update: make('update'),
    delete: make('delete'),
  };
}

/** `runwayPermissions.deployments.create` is `runway.deployments.create`, and so on. @public */
export const runwayPermissions: Record<
  RunwayKind,
  Record<RunwayAction, RunwayPermission>
> = {
  deployments: kindPermissions('deployments'),
  models: kindPermissions('models'),
  stacks: kindPermissions('stacks'),
};

/** Reading the cluster overview: health, providers and GPU capacity. @public */
export const runwayClustersReadPermission = createPermission({
  name: 'runway.clusters.read',
  attributes: { action: 'read' },
});

/**
 * Reading the logs of a resource's pods. A resource permission like the
 * kinds' (a policy may make it conditional on the cluster and namespace),
 * separate from `read`: logs may hold what a spec does not (prompts, tokens).
 *
 * @public
 */
export const runwayLogsReadPermission: RunwayPermission = createPermission({
  name: 'runway.logs.read',
  attributes: { action: 'read' },
  resourceType: RUNWAY_RESOURCE_TYPE,
});

/**
 * Sending a chat request to a Running deployment ("Try it"): the portal
 * talks to the model server for the user, who spends its GPU time and sees
 * what it answers. An `update`-like action (namespace owners in the example
 * policy), conditional on the cluster and namespace like the kinds'.
 *
 * @public
 */
export const runwayChatSendPermission: RunwayPermission = createPermission({
  name: 'runway.chat.send',
  attributes: { action: 'update' },
  resourceType: RUNWAY_RESOURCE_TYPE,
});

/** @public */
export const runwayPermissionList = [
  runwayClustersReadPermission,
  runwayLogsReadPermission,
  runwayChatSendPermission,
  ...RUNWAY_KINDS.flatMap(kind =>
    RUNWAY_ACTIONS.map(action => runwayPermissions[kind][action]),
  ),
];

/** What a permission decision about a Runway resource depends on. @public */
export interface RunwayResource {
  cluster: string;
  namespace: string;
}

/**
 * `cluster/namespace`: how a Runway resource is referred to in permission
 * requests (the frontend's `usePermission({permission, resourceRef})`; the
 * permission backend hands it back to the runway backend to apply conditions).
 *
 * @public
 */
export function runwayResourceRefOf(resource: RunwayResource): string {
  return `${resource.cluster}/${resource.namespace}`;
}

/** The inverse of `runwayResourceRefOf`; undefined for anything else. @public */
export function parseRunwayResourceRef(
  ref: string,
): RunwayResource | undefined {
  const [cluster, namespace, ...rest] = ref.split('/');
  if (!cluster || !namespace || rest.length > 0) return undefined;
  return { cluster, namespace };
}

/**
 * Why an action is refused: the backend's 403 message and the frontend's
 * tooltip on a disabled action say the same.
 *
 * @public
 */
export function runwayPermissionDeniedMessage(
  permission: { name: string },
  resource?: RunwayResource,
): string {
  const where = resource
    ? ` in namespace "${resource.namespace}" of cluster "${resource.cluster}"`
    : '';
  return `you do not have permission ${permission.name}${where}`;
}

/**
 * Authorization of runway resources with the calling user's credentials. One conditional
 * decision per request; conditions (cluster, namespace) are then applied
 * locally to every resource the answer would contain.
 */
import type {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  AuthorizeResult,
  type ResourcePermission,
} from '@backstage/plugin-permission-common';
import type { PolicyDecision } from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import {
  runwayPermissionDeniedMessage,
  type RunwayResource,
} from '@runway-portal/plugin-runway-common';
import { isInCluster, isInNamespace } from './rules';

/** @public */
export type ScopeCheck = (resource: RunwayResource) => boolean;

/** Applies a conditional decision to one resource (from the permissions registry's rules). @public */
export type ConditionAuthorizer = (
  decision: PolicyDecision,
  resource: RunwayResource | undefined,
) => boolean;

/** @public */
export interface Authorizer {
  /**
   * Where the user may use `permission`: a predicate over cluster and
   * namespace. Throws NotAllowedError when the answer is DENY everywhere.
   */
  scope(
    permission: ResourcePermission<'runway-resource'>,
    credentials: BackstageCredentials,
  ): Promise<ScopeCheck>;
  /** Throws NotAllowedError unless the user may use `permission` on this resource. */
  check(
    permission: ResourcePermission<'runway-resource'>,
    credentials: BackstageCredentials,
    resource: RunwayResource,
  ): Promise<void>;
}

/** @public */
export function createAuthorizer(
  permissions: PermissionsService,
  applyConditions: ConditionAuthorizer,
): Authorizer {
  const scope: Authorizer['scope'] = async (permission, credentials) => {
    const [decision] = await permissions.authorizeConditional(
      [{ permission }],
      { credentials },
    );
    if (decision.result === AuthorizeResult.ALLOW) return () => true;
    if (decision.result === AuthorizeResult.DENY) {
      throw new NotAllowedError(runwayPermissionDeniedMessage(permission));
    }
    return resource => applyConditions(decision, resource);
  };
  return {
    scope,
    async check(permission, credentials, resource) {
      const allowed = await scope(permission, credentials);
      if (!allowed(resource)) {
        throw new NotAllowedError(
          runwayPermissionDeniedMessage(permission, resource),
        );
      }
    },
  };
}

/**
 * The authorizer for code outside the runway plugin (e.g. the scaffolder
 * module), which cannot read the runway plugin's permissions registry: it
 * applies conditions with the same rules (IS_IN_CLUSTER, IS_IN_NAMESPACE).
 *
 * @public
 */
export function createRunwayAuthorizer(
  permissions: PermissionsService,
): Authorizer {
  return createAuthorizer(
    permissions,
    createConditionAuthorizer([isInCluster, isInNamespace]),
  );
}

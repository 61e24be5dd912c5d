/**
 * The example permission policy for Runway's permissions, as pure functions:
 * everyone signed in reads; members of a namespace's owning group create,
 * update and delete there; members of an admin group may do everything.
 * Permissions of other plugins are allowed, as the allow-all policy this
 * replaces did (see packages/backend/README.md to tighten them).
 */
import type { Config } from '@backstage/config';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';
import {
  AuthorizeResult,
  isResourcePermission,
  type Permission,
  type PermissionCondition,
  type PermissionCriteria,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  RUNWAY_RESOURCE_TYPE,
  runwayPermissionList,
} from '@runway-portal/plugin-runway-common';
import {
  createRunwayConditionalDecision,
  runwayConditions,
} from '@runway-portal/plugin-runway-node';

/** A namespace (in every cluster, or in one) and the groups that own it. */
export interface NamespaceOwners {
  namespace: string;
  /** Only in this cluster (its configured name); every cluster when absent. */
  cluster?: string;
  /** Entity refs, normalized: `group:default/team-a`. */
  owners: string[];
}

export interface RunwayPolicyConfig {
  /** Entity refs, normalized; their members may do everything. */
  adminGroups: string[];
  namespaceOwners: NamespaceOwners[];
}

/** Who asks: undefined when no user is signed in. */
export interface PolicyUser {
  /** The user's own ref and the groups they belong to (`ownershipEntityRefs`). */
  ownershipEntityRefs: string[];
}

const RUNWAY_PERMISSION_NAMES = new Set(runwayPermissionList.map(p => p.name));

/** `team-a`, `group:team-a` and `Group:default/Team-A` all name `group:default/team-a`. */
export function normalizeGroupRef(ref: string): string {
  return stringifyEntityRef(
    parseEntityRef(ref, { defaultKind: 'group', defaultNamespace: 'default' }),
  ).toLocaleLowerCase('en-US');
}

function normalizeRef(ref: string): string {
  return ref.toLocaleLowerCase('en-US');
}

type RunwayCriteria = PermissionCriteria<
  PermissionCondition<typeof RUNWAY_RESOURCE_TYPE>
>;

const ALLOW: PolicyDecision = { result: AuthorizeResult.ALLOW };
const DENY: PolicyDecision = { result: AuthorizeResult.DENY };

export function decide(
  permission: Permission,
  user: PolicyUser | undefined,
  config: RunwayPolicyConfig,
): PolicyDecision {
  // Other plugins' permissions: Backstage's behaviour as configured before this policy (allow).
  if (!RUNWAY_PERMISSION_NAMES.has(permission.name)) return ALLOW;
  if (!user) return DENY;
  const refs = new Set(user.ownershipEntityRefs.map(normalizeRef));
  if (config.adminGroups.some(group => refs.has(group))) return ALLOW;
  if (permission.attributes.action === 'read') return ALLOW;
  if (!isResourcePermission(permission, RUNWAY_RESOURCE_TYPE)) return DENY;

  const owned = config.namespaceOwners.filter(entry =>
    entry.owners.some(owner => refs.has(owner)),
  );
  if (owned.length === 0) return DENY;
  // One condition per owned namespace; the runway backend applies them to each cluster and namespace.
  const conditions = owned.map(({ namespace, cluster }): RunwayCriteria => {
    const inNamespace = runwayConditions.isInNamespace({
      namespaces: [namespace],
    });
    return cluster
      ? {
          allOf: [
            runwayConditions.isInCluster({ clusters: [cluster] }),
            inNamespace,
          ],
        }
      : inNamespace;
  });
  const [first, ...rest] = conditions;
  return createRunwayConditionalDecision(
    permission,
    rest.length === 0 ? first : { anyOf: [first, ...rest] },
  );
}

const CONFIG_KEY = 'runway.permissions';

/**
 * Reads `runway.permissions` (all optional: without it only reads are
 * allowed). Errors name the key and say how to fix it.
 */
export function readRunwayPolicyConfig(config: Config): RunwayPolicyConfig {
  const section = config.getOptionalConfig(CONFIG_KEY);
  if (!section) return { adminGroups: [], namespaceOwners: [] };
  const groupRef = (ref: string, key: string) => {
    try {
      return normalizeGroupRef(ref);
    } catch (error) {
      throw new InputError(
        `${key}: "${ref}" is not an entity ref; write a group as group:default/team-a or team-a`,
      );
    }
  };
  const adminGroups = (section.getOptionalStringArray('adminGroups') ?? []).map(
    (ref, i) => groupRef(ref, `${CONFIG_KEY}.adminGroups[${i}]`),
  );
  const namespaceOwners = (
    section.getOptionalConfigArray('namespaceOwners') ?? []
  ).map((entry, i) => {
    const key = `${CONFIG_KEY}.namespaceOwners[${i}]`;
    const owners = entry.getStringArray('owners');
    if (owners.length === 0) {
      throw new InputError(
        `${key}.owners is empty; list the groups that own namespace "${entry.getString(
          'namespace',
        )}"`,
      );
    }
    return {
      namespace: entry.getString('namespace'),
      cluster: entry.getOptionalString('cluster'),
      owners: owners.map((ref, j) => groupRef(ref, `${key}.owners[${j}]`)),
    };
  });
  return { adminGroups, namespaceOwners };
}

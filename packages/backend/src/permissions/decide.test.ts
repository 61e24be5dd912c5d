import { ConfigReader } from '@backstage/config';
import {
  AuthorizeResult,
  createPermission,
} from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import {
  runwayClustersReadPermission,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { isInCluster, isInNamespace } from '@runway-portal/plugin-runway-node';
import { decide, readRunwayPolicyConfig } from './decide';

const config = readRunwayPolicyConfig(
  new ConfigReader({
    runway: {
      permissions: {
        adminGroups: ['platform'],
        namespaceOwners: [
          { namespace: 'team-a', owners: ['group:default/team-a'] },
          {
            namespace: 'shared',
            cluster: 'east',
            owners: ['Group:default/Team-A', 'team-b'],
          },
        ],
      },
    },
  }),
);
const teamA = {
  ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'],
};
const teamB = {
  ownershipEntityRefs: ['user:default/bob', 'group:default/team-b'],
};
const outsider = { ownershipEntityRefs: ['user:development/guest'] };
const admin = {
  ownershipEntityRefs: ['user:default/root', 'group:default/platform'],
};
const apply = createConditionAuthorizer([isInCluster, isInNamespace]);
const writes = [
  runwayPermissions.deployments.create,
  runwayPermissions.models.update,
  runwayPermissions.stacks.delete,
];

/** Whether the decision allows the permission on this cluster and namespace. */
function allows(
  decision: ReturnType<typeof decide>,
  cluster: string,
  namespace: string,
) {
  return apply(decision, { cluster, namespace });
}

describe('the example runway policy', () => {
  it('lets everyone signed in read, and nobody without a sign-in', () => {
    for (const user of [teamA, outsider, admin]) {
      expect(
        decide(runwayPermissions.deployments.read, user, config).result,
      ).toBe(AuthorizeResult.ALLOW);
      expect(decide(runwayClustersReadPermission, user, config).result).toBe(
        AuthorizeResult.ALLOW,
      );
    }
    expect(
      decide(runwayPermissions.deployments.read, undefined, config).result,
    ).toBe(AuthorizeResult.DENY);
    expect(
      decide(runwayPermissions.deployments.create, undefined, config).result,
    ).toBe(AuthorizeResult.DENY);
  });

  it('lets owners write in the namespaces their groups own, in the configured clusters', () => {
    for (const permission of writes) {
      const decision = decide(permission, teamA, config);
      expect(decision.result).toBe(AuthorizeResult.CONDITIONAL);
      expect(allows(decision, 'west', 'team-a')).toBe(true);
      expect(allows(decision, 'east', 'shared')).toBe(true);
      expect(allows(decision, 'west', 'shared')).toBe(false);
      expect(allows(decision, 'east', 'team-b')).toBe(false);
    }
    const bob = decide(runwayPermissions.deployments.delete, teamB, config);
    expect(allows(bob, 'east', 'shared')).toBe(true);
    expect(allows(bob, 'east', 'team-a')).toBe(false);
  });

  it('refuses writes to users who own no namespace, and lets admins do everything', () => {
    for (const permission of writes) {
      expect(decide(permission, outsider, config).result).toBe(
        AuthorizeResult.DENY,
      );
      expect(decide(permission, admin, config).result).toBe(
        AuthorizeResult.ALLOW,
      );
    }
  });

  it('leaves other plugins’ permissions allowed, as before', () => {
    const other = createPermission({
      name: 'catalog.entity.delete',
      attributes: { action: 'delete' },
    });
    expect(decide(other, outsider, config).result).toBe(AuthorizeResult.ALLOW);
  });

  it('without runway.permissions, allows reads only', () => {
    const empty = readRunwayPolicyConfig(new ConfigReader({}));
    expect(
      decide(runwayPermissions.deployments.read, teamA, empty).result,
    ).toBe(AuthorizeResult.ALLOW);
    expect(
      decide(runwayPermissions.deployments.create, teamA, empty).result,
    ).toBe(AuthorizeResult.DENY);
  });

  it('names the config key and the fix for a bad entry', () => {
    const read = (permissions: unknown) => () =>
      readRunwayPolicyConfig(
        new ConfigReader({ runway: { permissions } } as any),
      );
    expect(read({ adminGroups: ['group:'] })).toThrow(
      /runway\.permissions\.adminGroups\[0\].*group:default\/team-a/,
    );
    expect(read({ namespaceOwners: [{ namespace: 'x', owners: [] }] })).toThrow(
      /runway\.permissions\.namespaceOwners\[0\]\.owners is empty; list the groups that own namespace "x"/,
    );
    expect(read({ namespaceOwners: [{ owners: ['a'] }] })).toThrow(/namespace/);
  });
});

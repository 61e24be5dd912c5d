import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { NotAllowedError } from '@backstage/errors';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import { runwayPermissions } from '@runway-portal/plugin-runway-common';
import {
  createRunwayConditionalDecision,
  isInCluster,
  isInNamespace,
  runwayConditions,
} from './rules';
import { createAuthorizer, createRunwayAuthorizer } from './authorize';

const permission = runwayPermissions.stacks.update;
const credentials = mockCredentials.user('user:default/someone');
const applyConditions = createConditionAuthorizer([isInCluster, isInNamespace]);

describe('createAuthorizer', () => {
  it('allows everything on ALLOW and refuses with the permission name on DENY', async () => {
    const allow = createAuthorizer(
      mockServices.permissions({ result: AuthorizeResult.ALLOW }),
      applyConditions,
    );
    expect(
      (await allow.scope(permission, credentials))({
        cluster: 'c',
        namespace: 'n',
      }),
    ).toBe(true);
    const deny = createAuthorizer(
      mockServices.permissions({ result: AuthorizeResult.DENY }),
      applyConditions,
    );
    await expect(deny.scope(permission, credentials)).rejects.toThrow(
      NotAllowedError,
    );
    await expect(
      deny.check(permission, credentials, { cluster: 'c', namespace: 'n' }),
    ).rejects.toThrow(/runway\.stacks\.update/);
  });

  it('applies conditional decisions to each cluster and namespace', async () => {
    const conditional = createRunwayConditionalDecision(permission, {
      anyOf: [
        runwayConditions.isInCluster({ clusters: ['lab'] }),
        runwayConditions.isInNamespace({ namespaces: ['team-a'] }),
      ],
    });
    const permissions = mockServices.permissions.mock({
      authorizeConditional: async () => [conditional],
    });
    const authorizer = createAuthorizer(permissions, applyConditions);
    const allowed = await authorizer.scope(permission, credentials);
    expect(allowed({ cluster: 'lab', namespace: 'x' })).toBe(true);
    expect(allowed({ cluster: 'prod', namespace: 'team-a' })).toBe(true);
    expect(allowed({ cluster: 'prod', namespace: 'team-b' })).toBe(false);
    await expect(
      authorizer.check(permission, credentials, {
        cluster: 'prod',
        namespace: 'team-b',
      }),
    ).rejects.toThrow(/in namespace "team-b" of cluster "prod"/);
    expect(permissions.authorizeConditional).toHaveBeenCalledWith(
      [{ permission }],
      { credentials },
    );
  });

  it('createRunwayAuthorizer applies the runway rules without the plugin registry', async () => {
    const conditional = createRunwayConditionalDecision(
      permission,
      runwayConditions.isInNamespace({ namespaces: ['team-a'] }),
    );
    const authorizer = createRunwayAuthorizer(
      mockServices.permissions.mock({
        authorizeConditional: async () => [conditional],
      }),
    );
    await expect(
      authorizer.check(permission, credentials, {
        cluster: 'c',
        namespace: 'team-a',
      }),
    ).resolves.toBeUndefined();
    await expect(
      authorizer.check(permission, credentials, {
        cluster: 'c',
        namespace: 'team-b',
      }),
    ).rejects.toThrow(NotAllowedError);
  });
});

import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import {
  parseRunwayResourceRef,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import {
  createRunwayConditionalDecision,
  isInCluster,
  isInNamespace,
  runwayConditions,
  runwayResourceRef,
} from './rules';

describe('runway permission rules', () => {
  it('applies cluster and namespace conditions to a resource', () => {
    const authorize = createConditionAuthorizer([isInCluster, isInNamespace]);
    const decision = createRunwayConditionalDecision(
      runwayPermissions.deployments.create,
      {
        allOf: [
          runwayConditions.isInCluster({ clusters: ['east'] }),
          runwayConditions.isInNamespace({ namespaces: ['team-a'] }),
        ],
      },
    );
    expect(authorize(decision, { cluster: 'east', namespace: 'team-a' })).toBe(
      true,
    );
    expect(authorize(decision, { cluster: 'west', namespace: 'team-a' })).toBe(
      false,
    );
    expect(authorize(decision, { cluster: 'east', namespace: 'team-b' })).toBe(
      false,
    );
    expect(
      authorize(
        { result: AuthorizeResult.DENY },
        { cluster: 'east', namespace: 'team-a' },
      ),
    ).toBe(false);
  });

  it('applies conditions to the resource a frontend resource ref names', () => {
    const authorize = createConditionAuthorizer([isInCluster, isInNamespace]);
    const decision = createRunwayConditionalDecision(
      runwayPermissions.deployments.delete,
      runwayConditions.isInNamespace({ namespaces: ['team-a'] }),
    );
    expect(authorize(decision, parseRunwayResourceRef('east/team-a'))).toBe(
      true,
    );
    expect(authorize(decision, parseRunwayResourceRef('east/team-b'))).toBe(
      false,
    );
  });

  it('is registered for the resource type of the common permissions', () => {
    expect(runwayResourceRef.resourceType).toBe(
      runwayPermissions.models.update.resourceType,
    );
    expect(runwayResourceRef.pluginId).toBe('runway');
  });
});

import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import { runwayPermissionList, runwayPermissions } from './permissions';
import {
  createRunwayConditionalDecision,
  isInCluster,
  isInNamespace,
  parseRunwayResourceRef,
  runwayConditions,
  runwayResourceRefOf,
} from './rules';

describe('runway permissions', () => {
  it('defines read, create, update and delete per kind, plus the cluster overview', () => {
    expect(runwayPermissionList.map(p => p.name)).toEqual([
      'runway.clusters.read',
      ...['deployments', 'models', 'stacks'].flatMap(k => ['read', 'create', 'update', 'delete'].map(a => `runway.${k}.${a}`)),
    ]);
    expect(runwayPermissions.models.update).toMatchObject({ type: 'resource', resourceType: 'runway-resource', attributes: { action: 'update' } });
  });

  it('applies cluster and namespace conditions to a resource', () => {
    const authorize = createConditionAuthorizer([isInCluster, isInNamespace]);
    const decision = createRunwayConditionalDecision(runwayPermissions.deployments.create, {
      allOf: [runwayConditions.isInCluster({ clusters: ['east'] }), runwayConditions.isInNamespace({ namespaces: ['team-a'] })],
    });
    expect(authorize(decision, { cluster: 'east', namespace: 'team-a' })).toBe(true);
    expect(authorize(decision, { cluster: 'west', namespace: 'team-a' })).toBe(false);
    expect(authorize(decision, { cluster: 'east', namespace: 'team-b' })).toBe(false);
    expect(authorize({ result: AuthorizeResult.DENY }, { cluster: 'east', namespace: 'team-a' })).toBe(false);
  });

  it('refers to resources as cluster/namespace', () => {
    expect(runwayResourceRefOf({ cluster: 'east', namespace: 'team-a' })).toBe('east/team-a');
    expect(parseRunwayResourceRef('east/team-a')).toEqual({ cluster: 'east', namespace: 'team-a' });
    expect(parseRunwayResourceRef('east')).toBeUndefined();
  });
});

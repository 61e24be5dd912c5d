import { isResourcePermission } from '@backstage/plugin-permission-common';
import {
  isRunwayKind,
  parseRunwayResourceRef,
  runwayChatSendPermission,
  runwayClustersReadPermission,
  runwayLogsReadPermission,
  runwayPermissionDeniedMessage,
  runwayPermissionList,
  runwayPermissions,
  runwayResourceRefOf,
} from './permissions';
import { runwaySignalChannel } from './signals';

describe('runway permissions', () => {
  it('defines read, create, update and delete per kind, plus the cluster overview and pod logs', () => {
    expect(runwayPermissionList.map(p => p.name)).toEqual([
      'runway.clusters.read',
      'runway.logs.read',
      'runway.chat.send',
      ...['deployments', 'models', 'stacks'].flatMap(k =>
        ['read', 'create', 'update', 'delete'].map(a => `runway.${k}.${a}`),
      ),
    ]);
    expect(runwayPermissions.models.update).toMatchObject({
      type: 'resource',
      resourceType: 'runway-resource',
      attributes: { action: 'update' },
    });
    expect(
      isResourcePermission(
        runwayPermissions.deployments.delete,
        'runway-resource',
      ),
    ).toBe(true);
    // Logs are conditional on the cluster and namespace, like the resources.
    expect(
      isResourcePermission(runwayLogsReadPermission, 'runway-resource'),
    ).toBe(true);
    // Chat spends the deployment's GPU time: an update-like action, conditional like the rest.
    expect(runwayChatSendPermission).toMatchObject({
      type: 'resource',
      resourceType: 'runway-resource',
      attributes: { action: 'update' },
    });
    expect(runwayClustersReadPermission).toMatchObject({
      type: 'basic',
      attributes: { action: 'read' },
    });
  });

  it('refers to resources as cluster/namespace, and reads that back', () => {
    expect(runwayResourceRefOf({ cluster: 'east', namespace: 'team-a' })).toBe(
      'east/team-a',
    );
    expect(parseRunwayResourceRef('east/team-a')).toEqual({
      cluster: 'east',
      namespace: 'team-a',
    });
    expect(parseRunwayResourceRef('east')).toBeUndefined();
    expect(parseRunwayResourceRef('east/')).toBeUndefined();
    expect(parseRunwayResourceRef('east/team-a/llama')).toBeUndefined();
  });

  it('says which permission is missing, and where', () => {
    expect(
      runwayPermissionDeniedMessage(runwayPermissions.deployments.delete, {
        cluster: 'east',
        namespace: 'ml',
      }),
    ).toBe(
      'you do not have permission runway.deployments.delete in namespace "ml" of cluster "east"',
    );
    expect(runwayPermissionDeniedMessage(runwayClustersReadPermission)).toBe(
      'you do not have permission runway.clusters.read',
    );
  });

  it('knows the kinds', () => {
    expect(isRunwayKind('stacks')).toBe(true);
    expect(isRunwayKind('pods')).toBe(false);
  });
});

describe('runway signal channels', () => {
  it('names one channel per kind', () => {
    expect(runwaySignalChannel('deployments')).toBe('runway:deployments');
    expect(runwaySignalChannel('models')).toBe('runway:models');
  });
});

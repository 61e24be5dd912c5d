import type { Entity } from '@backstage/catalog-model';
import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { runwayPermissions } from '@runway-portal/plugin-runway-common';
import { isInCluster, isInNamespace } from '@runway-portal/plugin-runway-node';
import { namespaceOwnersFromEntities } from './catalogOwners';
import { decide } from './decide';
import {
  CATALOG_OWNERS_TTL_MS,
  CatalogNamespaceOwners,
  REFUSAL_REFRESH_MS,
  RunwayPermissionPolicy,
} from './module';

const entity = (
  kind: string,
  name: string,
  annotations: Record<string, string>,
  owner?: string,
): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind,
  metadata: { name, namespace: 'default', annotations },
  relations: owner ? [{ type: 'ownedBy', targetRef: owner }] : [],
});

const catalog: Entity[] = [
  entity(
    'Resource',
    'team-a-namespace',
    { 'backstage.io/kubernetes-namespace': 'team-a' },
    'group:default/Team-A',
  ),
  entity('Group', 'team-b', { 'backstage.io/kubernetes-namespace': 'team-b' }),
  entity(
    'Component',
    'shared-east',
    {
      'backstage.io/kubernetes-namespace': 'shared',
      'airunway.ai/cluster': 'east',
    },
    'user:default/carol',
  ),
  // Not ownership declarations: no namespace, or no owner.
  entity('Component', 'website', {}, 'group:default/team-a'),
  entity('System', 'orphan', { 'backstage.io/kubernetes-namespace': 'x' }),
];

describe('namespace owners from the catalog', () => {
  it('gives an annotated entity’s namespace to its owner, a group’s to the group', () => {
    expect(namespaceOwnersFromEntities(catalog)).toEqual([
      { namespace: 'team-a', owners: ['group:default/team-a'] },
      { namespace: 'team-b', owners: ['group:default/team-b'] },
      { namespace: 'shared', cluster: 'east', owners: ['user:default/carol'] },
    ]);
  });

  it('decides writes from the user’s ownership refs against those owners', () => {
    const policy = {
      adminGroups: [],
      namespaceOwners: namespaceOwnersFromEntities(catalog),
    };
    const apply = createConditionAuthorizer([isInCluster, isInNamespace]);
    const create = runwayPermissions.deployments.create;
    const member = decide(
      create,
      { ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'] },
      policy,
    );
    expect(apply(member, { cluster: 'west', namespace: 'team-a' })).toBe(true);
    expect(apply(member, { cluster: 'west', namespace: 'team-b' })).toBe(false);

    const carol = decide(
      create,
      { ownershipEntityRefs: ['user:default/carol'] },
      policy,
    );
    expect(apply(carol, { cluster: 'east', namespace: 'shared' })).toBe(true);
    expect(apply(carol, { cluster: 'west', namespace: 'shared' })).toBe(false);

    expect(
      decide(create, { ownershipEntityRefs: ['user:default/dave'] }, policy)
        .result,
    ).toBe(AuthorizeResult.DENY);
  });
});

describe('CatalogNamespaceOwners', () => {
  function setUp(entities: Entity[] | Error) {
    const requests: unknown[] = [];
    const service = {
      async getEntities(request: unknown) {
        requests.push(request);
        if (entities instanceof Error) throw entities;
        return { items: entities };
      },
    } as unknown as CatalogService;
    let now = 1_000_000;
    const owners = new CatalogNamespaceOwners(
      service,
      mockServices.auth(),
      () => now,
    );
    return {
      owners,
      requests,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  it('asks the catalog for annotated entities once per TTL, sooner when asked for a fresher copy', async () => {
    const { owners, requests, advance } = setUp(catalog);
    expect(await owners.get()).toHaveLength(3);
    expect(requests).toEqual([
      expect.objectContaining({
        filter: {
          'metadata.annotations.backstage.io/kubernetes-namespace':
            expect.anything(),
        },
      }),
    ]);
    advance(CATALOG_OWNERS_TTL_MS - 1);
    await owners.get();
    expect(requests).toHaveLength(1);
    await owners.get(1_000);
    expect(requests).toHaveLength(2);
    advance(CATALOG_OWNERS_TTL_MS);
    await owners.get();
    expect(requests).toHaveLength(3);
  });

  it('does not keep a failed read', async () => {
    const { owners, requests } = setUp(new Error('catalog down'));
    await expect(owners.get()).rejects.toThrow('catalog down');
    await expect(owners.get()).rejects.toThrow('catalog down');
    expect(requests).toHaveLength(2);
  });
});

describe('RunwayPermissionPolicy', () => {
  const alice = 'user:default/alice';
  const userInfo = {
    async getUserInfo() {
      return {
        userEntityRef: alice,
        ownershipEntityRefs: [alice, 'group:default/team-a'],
      };
    },
  };
  const user = { credentials: {} } as any;

  it('reads the catalog for writes only, and again on a refusal once its copy is 5 s old', async () => {
    let entities: Entity[] = [];
    let reads = 0;
    const service = {
      async getEntities() {
        reads += 1;
        return { items: entities };
      },
    } as unknown as CatalogService;
    let now = 0;
    const policy = new RunwayPermissionPolicy(
      { adminGroups: [], namespaceOwners: [] },
      new CatalogNamespaceOwners(service, mockServices.auth(), () => now),
      userInfo as any,
      mockServices.logger.mock(),
    );
    const create = { permission: runwayPermissions.deployments.create };

    await policy.handle(
      { permission: runwayPermissions.deployments.read },
      user,
    );
    expect(reads).toBe(0);

    // The catalog has not read its locations yet: refused.
    expect((await policy.handle(create, user)).result).toBe(
      AuthorizeResult.DENY,
    );
    expect(reads).toBe(1);

    entities = catalog;
    now += REFUSAL_REFRESH_MS;
    expect((await policy.handle(create, user)).result).toBe(
      AuthorizeResult.CONDITIONAL,
    );
    expect(reads).toBe(2);
  });
});

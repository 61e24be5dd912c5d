/**
 * The example policy in a real backend: the permission backend with the
 * policy module, the real permissions service, the real catalog (reading a
 * catalog file), and the runway REST API over a real Kubernetes control
 * plane. The catalog says group team-a owns namespace team-a; a guest and a
 * non-member get 403 on every write and nothing reaches the cluster; a
 * member of team-a writes there; everyone signed in reads.
 */
import {
  coreServices,
  createServiceFactory,
  type BackstageCredentials,
  type HttpAuthService,
  type UserInfoService,
} from '@backstage/backend-plugin-api';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import permissionPlugin from '@backstage/plugin-permission-backend';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { runwayPermissions } from '@runway-portal/plugin-runway-common';
import {
  isNotFound,
  KubeClient,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import runwayPlugin from '@runway-portal/plugin-runway-backend';
import type { Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { runwayPolicyModule } from './module';

jest.setTimeout(60_000);

const START_TIMEOUT_MS = 30 * 60_000;
const RUNWAY_CRDS = path.resolve(
  __dirname,
  '../../../../controllers/deploy/crds',
);
const DEPLOYMENTS: ResourceType = {
  group: 'airunway.ai',
  version: 'v1alpha1',
  kind: 'ModelDeployment',
  plural: 'modeldeployments',
  namespaced: true,
};
const NAMESPACES: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
};

/** The guest as the guest provider signs it in when the catalog does not know it. */
const GUEST = 'user:development/guest';
const OWNER = 'user:default/alice';
const NON_OWNER = 'user:default/bob';
const ADMIN = 'user:default/root';
const GROUPS: Record<string, string[]> = {
  [OWNER]: ['group:default/team-a'],
  [NON_OWNER]: ['group:default/team-b'],
  [ADMIN]: ['group:default/platform'],
};

/** What sign-in puts in the token: the user and the groups they are a member of. */
const userInfoFactory = createServiceFactory({
  service: coreServices.userInfo,
  deps: {},
  factory: (): UserInfoService => ({
    async getUserInfo(credentials: BackstageCredentials) {
      const principal = credentials.principal as {
        type: string;
        userEntityRef?: string;
      };
      if (principal.type !== 'user' || !principal.userEntityRef)
        throw new Error('not a user');
      const user = principal.userEntityRef;
      return {
        userEntityRef: user,
        ownershipEntityRefs: [user, ...(GROUPS[user] ?? [])],
      };
    },
  }),
});

/**
 * The mock httpAuth, except that a plugin's token on behalf of a user
 * authenticates as that user with the plugin as actor, as the real auth
 * service's tokens do (the mock drops the actor, and the permission backend
 * then treats the runway plugin's conditional queries as direct user
 * requests, which it refuses with 400).
 */
const OBO_PREFIX = 'mock-service-token:';
const httpAuthFactory = createServiceFactory({
  service: coreServices.httpAuth,
  deps: { plugin: coreServices.pluginMetadata },
  factory: ({ plugin }): HttpAuthService => {
    const inner = mockServices.httpAuth({
      pluginId: plugin.getId(),
      defaultCredentials: mockCredentials.none(),
    });
    return {
      async credentials(req: any, options?: any) {
        const token = /^Bearer (\S+)$/.exec(
          req.headers.authorization ?? '',
        )?.[1];
        if (token?.startsWith(OBO_PREFIX)) {
          const { obo, target } = JSON.parse(token.slice(OBO_PREFIX.length));
          if (
            obo &&
            target === plugin.getId() &&
            (!options?.allow || options.allow.includes('user'))
          ) {
            return mockCredentials.user(obo, {
              actor: { subject: 'plugin:caller' },
            }) as any;
          }
        }
        return inner.credentials(req, options);
      },
      issueUserCookie: (res, options) => inner.issueUserCookie(res, options),
    };
  },
});

/** The catalog's declaration that group team-a owns namespace team-a (as examples/entities.yaml does for the local system). */
const CATALOG_YAML = `apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: team-a-namespace
  annotations:
    backstage.io/kubernetes-namespace: team-a
spec:
  type: kubernetes-namespace
  owner: group:default/team-a
`;

const auth = (user: string) => ({
  Authorization: mockCredentials.user.header(user),
});

const deployment = (
  name: string,
  namespace = 'team-a',
  labels: Record<string, string> = { app: name },
): KubeObject => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name, namespace, labels },
  spec: {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
});

describe('the example permission policy through the runway API', () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let server: Server;
  let stopBackend: (() => Promise<void>) | undefined;
  let catalogDir: string | undefined;

  async function stored(
    name: string,
    namespace = 'team-a',
  ): Promise<KubeObject | undefined> {
    try {
      return await admin.get<KubeObject>(DEPLOYMENTS, { namespace, name });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runway-policy',
      crds: [RUNWAY_CRDS],
    });
    admin = new KubeClient(cluster.kubeConfig(), { requestTimeoutMs: 30_000 });
    for (const name of ['team-a', 'team-b']) {
      await admin.apply(
        NAMESPACES,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        { fieldManager: 'test-setup' },
      );
    }
    catalogDir = await mkdtemp(path.join(tmpdir(), 'runway-policy-catalog-'));
    const catalogFile = path.join(catalogDir, 'catalog-info.yaml');
    await writeFile(catalogFile, CATALOG_YAML);
    const backend = await startTestBackend({
      features: [
        runwayPlugin,
        permissionPlugin,
        catalogPlugin,
        runwayPolicyModule,
        // The real permissions service: decisions come from the permission backend's policy.
        permissionsServiceFactory,
        userInfoFactory,
        httpAuthFactory,
        mockServices.rootConfig.factory({
          data: {
            permission: { enabled: true },
            catalog: {
              rules: [{ allow: ['Resource', 'Location'] }],
              locations: [{ type: 'file', target: catalogFile }],
            },
            kubernetes: {
              clusterLocatorMethods: [{ type: 'config', clusters: [] }],
            },
            runway: {
              kubeconfig: [
                {
                  context: cluster.name,
                  name: 'local',
                  path: cluster.kubeconfigPath,
                },
              ],
              // Namespace owners come from the catalog only.
              permissions: { adminGroups: ['group:default/platform'] },
            },
          },
        }),
      ],
    });
    server = backend.server;
    stopBackend = () => backend.stop();
    await catalogHas('resource:default/team-a-namespace');
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await stopBackend?.();
    await cluster?.stop();
    if (catalogDir) await rm(catalogDir, { recursive: true, force: true });
  });

  const api = () => request(server);

  /** Waits until the catalog has processed the entity (it reads its locations in the background). */
  async function catalogHas(ref: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = await request(server)
        .post('/api/catalog/entities/by-refs')
        .send({ entityRefs: [ref] })
        .set(auth(ADMIN));
      if (found.status === 200 && found.body.items?.[0]) return;
      if (Date.now() > deadline) {
        throw new Error(
          `the catalog did not read ${ref} from its file location within 60 s (last answer: ${found.status})`,
        );
      }
      await new Promise(r => setTimeout(r, 500));
    }
  }

  it('refuses creates, updates and deletes to a guest and a non-owner (403) and writes nothing', async () => {
    await admin.apply(DEPLOYMENTS, deployment('existing'), {
      fieldManager: 'kubectl',
    });
    const before = await stored('existing');

    for (const user of [GUEST, NON_OWNER]) {
      const created = await api()
        .post('/api/runway/deployments/local')
        .send(deployment('denied'))
        .set(auth(user));
      expect(created.status).toBe(403);
      expect(created.body.error.message).toMatch(/runway\.deployments\.create/);

      const changed = deployment('existing', 'team-a', {
        app: 'existing',
        tier: 'gold',
      });
      const updated = await api()
        .put('/api/runway/deployments/local/team-a/existing')
        .send(changed)
        .set(auth(user));
      expect(updated.status).toBe(403);
      expect(updated.body.error.message).toMatch(/runway\.deployments\.update/);

      const deleted = await api()
        .delete('/api/runway/deployments/local/team-a/existing')
        .set(auth(user));
      expect(deleted.status).toBe(403);
      expect(deleted.body.error.message).toMatch(/runway\.deployments\.delete/);
    }

    expect(await stored('denied')).toBeUndefined();
    const after = await stored('existing');
    expect(after?.metadata?.resourceVersion).toBe(
      before?.metadata?.resourceVersion,
    );
    expect(after?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('lets everyone signed in read, and nobody without a sign-in', async () => {
    for (const user of [GUEST, NON_OWNER]) {
      const list = await api().get('/api/runway/deployments').set(auth(user));
      expect(list.status).toBe(200);
      expect(list.body.items.map((i: any) => i.object.metadata.name)).toContain(
        'existing',
      );
    }
    const anonymous = await api()
      .get('/api/runway/deployments')
      .set({ Authorization: mockCredentials.none.header() });
    expect(anonymous.status).toBe(401);
  });

  it('lets a member of the group the catalog names write in its namespace only, and an admin anywhere', async () => {
    const created = await api()
      .post('/api/runway/deployments/local')
      .send(deployment('owned'))
      .set(auth(OWNER));
    expect(created.status).toBe(201);
    expect(await stored('owned')).toBeDefined();

    const elsewhere = await api()
      .post('/api/runway/deployments/local')
      .send(deployment('owned', 'team-b'))
      .set(auth(OWNER));
    expect(elsewhere.status).toBe(403);
    expect(await stored('owned', 'team-b')).toBeUndefined();

    const byAdmin = await api()
      .post('/api/runway/deployments/local')
      .send(deployment('by-admin', 'team-b'))
      .set(auth(ADMIN));
    expect(byAdmin.status).toBe(201);

    const deleted = await api()
      .delete('/api/runway/deployments/local/team-a/owned')
      .set(auth(OWNER));
    expect(deleted.status).toBe(204);
  });

  it('answers the frontend’s per-namespace questions (usePermission with a cluster/namespace resourceRef)', async () => {
    const ask = async (user: string, resourceRef: string) => {
      const res = await api()
        .post('/api/permission/authorize')
        .send({
          items: [
            {
              id: '1',
              permission: runwayPermissions.deployments.delete,
              resourceRef,
            },
          ],
        })
        .set(auth(user));
      expect(res.status).toBe(200);
      return res.body.items[0].result;
    };
    expect(await ask(OWNER, 'local/team-a')).toBe(AuthorizeResult.ALLOW);
    expect(await ask(OWNER, 'local/team-b')).toBe(AuthorizeResult.DENY);
    expect(await ask(NON_OWNER, 'local/team-a')).toBe(AuthorizeResult.DENY);
    expect(await ask(GUEST, 'local/team-a')).toBe(AuthorizeResult.DENY);
    expect(await ask(ADMIN, 'local/team-b')).toBe(AuthorizeResult.ALLOW);
  });
});

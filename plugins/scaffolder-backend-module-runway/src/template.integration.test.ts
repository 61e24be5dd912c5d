/**
 * The example template through the real scaffolder backend (its dry-run
 * endpoint, as the template editor uses it), with this module installed and
 * the ClusterClient configured for a real control plane with Runway's CRDs:
 * the template's inputs reach the actions with their types, runway:apply runs
 * as a server-side dry run and runway:wait does not wait.
 */
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import type { KubeClient } from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import fs from 'node:fs';
import type { Server } from 'node:http';
import request from 'supertest';
import { parse } from 'yaml';
import {
  coreServices,
  createServiceFactory,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
// The runway backend's cluster and policy helpers, imported rather than copied (test code only).
// eslint-disable-next-line @backstage/no-forbidden-package-imports, @backstage/no-mixed-plugin-imports
import {
  adminClient,
  clusterConfigEntry,
  createNamespaces,
  DEPLOYMENTS,
  portalServiceAccountToken,
  RUNWAY_CRDS,
} from '@runway-portal/plugin-runway-backend/src/__testUtils__/clusters';
// eslint-disable-next-line @backstage/no-forbidden-package-imports, @backstage/no-mixed-plugin-imports
import {
  ADMIN,
  TEAM_A,
} from '@runway-portal/plugin-runway-backend/src/__testUtils__/permissions';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import { scaffolderModuleRunway } from './module';
import { runwayTestPolicy } from './__testUtils__/policy';

jest.setTimeout(60_000);

const TEMPLATE = resolvePackagePath(
  '@runway-portal/plugin-scaffolder-backend-module-runway',
  '../../examples/template-runway/template.yaml',
);

describe('the example template in the real scaffolder', () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let server: Server;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runway-scaffolder-template',
      crds: [RUNWAY_CRDS],
    });
    admin = adminClient(cluster);
    await createNamespaces(admin, ['team-a', 'team-b']);
    const token = await portalServiceAccountToken(admin);
    const backend = await startTestBackend({
      features: [
        scaffolderPlugin,
        scaffolderModuleRunway,
        catalogServiceMock.factory(),
        createServiceFactory({
          service: coreServices.permissions,
          deps: {},
          factory: runwayTestPolicy,
        }),
        mockServices.rootConfig.factory({
          data: {
            kubernetes: {
              clusterLocatorMethods: [
                {
                  type: 'config',
                  clusters: [clusterConfigEntry('dev', cluster, token)],
                },
              ],
            },
            runway: {
              clusters: [{ name: 'dev', namespaces: ['team-a', 'team-b'] }],
            },
          },
        }),
      ],
    });
    server = backend.server;
    stopBackend = () => backend.stop();
  }, 30 * 60_000);

  afterAll(async () => {
    await stopBackend?.();
    await cluster?.stop();
  });

  const dryRun = (user: string, values: Record<string, unknown>) =>
    request(server)
      .post('/api/scaffolder/v2/dry-run')
      .set('Authorization', mockCredentials.user.header(user))
      .send({
        template: parse(fs.readFileSync(TEMPLATE, 'utf8')),
        values,
        directoryContents: [],
      });

  const values = {
    cluster: 'dev',
    namespace: 'team-a',
    name: 'qwen-small',
    modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
    engine: 'vllm',
    gpuCount: 1,
    timeoutSeconds: 60,
  };

  it('runs apply as a server-side dry run and links to the deployment, storing nothing', async () => {
    const res = await dryRun(ADMIN, values);
    expect(res.status).toBe(200);
    expect(res.body.output.links).toEqual([
      expect.objectContaining({
        url: '/runway/deployments/dev/team-a/qwen-small',
      }),
    ]);
    const messages = (
      res.body.log as Array<{ body: { message?: string } }>
    ).map(l => l.body.message ?? '');
    expect(messages).toContainEqual(
      expect.stringContaining(
        'Dry run: would have created ModelDeployment team-a/qwen-small in cluster "dev"',
      ),
    );
    expect(messages).toContainEqual(
      expect.stringContaining('Dry run: would wait up to 60 s'),
    );
    await expect(
      admin.get(DEPLOYMENTS, { namespace: 'team-a', name: 'qwen-small' }),
    ).rejects.toMatchObject({ code: 404 });
  });

  it('fails the step naming the field for a GPU engine without GPUs', async () => {
    const res = await dryRun(ADMIN, { ...values, gpuCount: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /^input\.resource is not a valid ModelDeployment: spec\.resources\.gpu\.count: /,
    );
  });

  it('checks the runway permission with the credentials of the user running the template', async () => {
    // team-a may run templates, and write runway resources in namespace team-a only.
    const res = await dryRun(TEAM_A, { ...values, namespace: 'team-b' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(
      /runway\.deployments\.create.*namespace "team-b"/,
    );
    expect((await dryRun(TEAM_A, values)).status).toBe(200);
  });
});

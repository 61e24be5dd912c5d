/**
 * The doctor's checks (`runway doctor`'s, from `@runway-portal/cli/doctor`)
 * through the REST API, run by the backend with the portal's own
 * ServiceAccount (the ClusterRole of plugin-runway-node), on one real
 * control plane: first with Runway's CRDs and no controllers (the checks
 * name the missing controllers with their fix), then with the core running
 * outside the cluster (no Deployment, its leader Lease renewed: ok), then
 * after installing with
 * the CLI as a user does (every check that can be ok is ok; the webhook
 * probe, which the portal may not send, is `not-checked`).
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { defaultDeployDir, renderInstallYaml, run } from '@runway-portal/cli';
import { bundledExpectations } from '@runway-portal/cli/doctor';
import {
  claimedSpec,
  type KubeClient,
  type KubeObject,
  Leases,
  Namespaces,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import {
  type DoctorCheck,
  type DoctorReport,
  KAITO_PROVIDER,
} from '@runway-portal/plugin-runway-common';
import type { Server } from 'node:http';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import { startRunwayBackend } from '../__testUtils__/backend';
import {
  adminClient,
  clusterConfigEntry,
  eventually,
  portalServiceAccountToken,
  registerProvider,
  RUNWAY_CRDS,
} from '../__testUtils__/clusters';
import { contractChecked } from '../__testUtils__/contract';
import { VIEWER } from '../__testUtils__/permissions';

jest.setTimeout(180_000);

const START_TIMEOUT_MS = 30 * 60_000;
const KAITO_CRD = resolvePackagePath(
  '@runway-portal/plugin-runway-backend',
  '../../e2e/simulators/upstream-crds/kaito-kaito.sh_workspaces.yaml',
);
const GATEWAY_CRD = resolvePackagePath(
  '@runway-portal/plugin-runway-backend',
  '../../e2e/simulators/gateway-api/gateway.networking.k8s.io_gateways.yaml',
);
const auth = { Authorization: mockCredentials.user.header(VIEWER) };

const byId = (report: DoctorReport) =>
  Object.fromEntries(report.checks.map(c => [c.id, c])) as Record<
    string,
    DoctorCheck
  >;

describe("the doctor's checks, run by the backend on a real cluster", () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let server: Server;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runway-doctor',
      crds: [RUNWAY_CRDS, KAITO_CRD, GATEWAY_CRD],
      nodes: [{ name: 'cpu-0', cpu: '32', memory: '128Gi' }],
    });
    admin = adminClient(cluster);
    const token = await portalServiceAccountToken(admin);
    ({ server, stop: stopBackend } = await startRunwayBackend({
      clusters: [clusterConfigEntry('one', cluster, token)],
      runway: {
        requestTimeout: { seconds: 5 },
        doctor: { interval: { seconds: 2 }, timeout: { seconds: 20 } },
      },
      signals: true,
    }));
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await stopBackend?.();
    await cluster?.stop();
  });

  const api = () => contractChecked(request(server));

  it('with the CRDs and no controllers: names each missing controller with its fix, in the background and on demand', async () => {
    // The background run reaches the cluster overview by itself.
    const overview = await eventually(
      async () => {
        const r = await api().get('/api/runway/clusters').set(auth);
        return r.body.items?.[0]?.doctor ? r : undefined;
      },
      30_000,
      "the first background run's report in the overview",
    );
    expect(overview.body.items[0].doctor.problems).toBeGreaterThan(0);

    const r = await api()
      .get('/api/runway/clusters/one/doctor?refresh=true')
      .set(auth)
      .expect(200);
    const checks = byId(r.body);
    expect(checks['crd/modeldeployments.airunway.ai'].status).toBe('ok');
    expect(checks['controller/core']).toEqual({
      id: 'controller/core',
      status: 'fail',
      message:
        'controller core: Deployment airunway-system/airunway-core not found',
      fix: 'runway controller install core',
    });
    expect(checks['webhook/airunway-core-validating']).toMatchObject({
      status: 'fail',
      fix: 'runway controller install core',
    });
    expect(checks['provider/kaito']).toMatchObject({
      status: 'warn',
      fix: 'runway provider install kaito',
    });
    expect(checks['operator/models']).toMatchObject({
      status: 'warn',
      fix: 'install it: runway controller install models',
    });
    expect(checks.gateway).toMatchObject({
      status: 'warn',
      message: 'no Gateway in the cluster: deployments get no gateway route',
    });
    // The portal's role lets it read everything but the webhook probe: nothing is not-checked yet.
    expect(
      r.body.checks.filter((c: DoctorCheck) => c.status === 'not-checked'),
    ).toEqual([]);
    expect(r.body.problems).toBe(
      r.body.checks.filter(
        (c: DoctorCheck) => c.status === 'fail' || c.status === 'warn',
      ).length,
    );

    await api().get('/api/runway/clusters/nope/doctor').set(auth).expect(404);
  });

  it('with the core running outside the cluster (no Deployment, its leader Lease renewed): ok', async () => {
    const { namespace, controllers } = bundledExpectations();
    const lease = controllers.find(c => c.component === 'core')!.lease!;
    await admin.apply(
      Namespaces,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      { fieldManager: 'test-setup' },
    );
    // The Lease as the core's leader election writes it (15 s, renewed every 2 s).
    await admin.create(Leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: lease, namespace },
      spec: claimedSpec(undefined, 'laptop_test', new Date(), 15),
    });
    const r = await api()
      .get('/api/runway/clusters/one/doctor?refresh=true')
      .set(auth)
      .expect(200);
    expect(byId(r.body)['controller/core']).toEqual({
      id: 'controller/core',
      status: 'ok',
      message: expect.stringMatching(
        /^controller core: running outside the cluster \(leader lease renewed \d+ s ago by laptop_test\)$/,
      ),
    });
    // The install below is judged by its Deployment alone.
    await admin.delete(Leases, { namespace, name: lease });
  });

  it('after an install through the CLI: ok, and the webhook probe not-checked, naming the permission', async () => {
    const lines: string[] = [];
    const io = {
      reporter: {
        line: (t: string) => lines.push(t),
        progress: (t: string) => lines.push(t),
      },
      stdout: (t: string) => lines.push(t),
    };
    const kubeconfig = ['--kubeconfig', cluster.kubeconfigPath];
    // kwok runs no containers, so nothing would answer the webhooks: the CLI leaves them out, applied below.
    const installed = await run(
      [
        'controller',
        'install',
        'core',
        'models',
        'stacks',
        '--no-webhooks',
        '--wait',
        '--timeout',
        '120',
        ...kubeconfig,
      ],
      io,
    );
    expect({ installed, lines }).toMatchObject({ installed: 0 });
    // Without --wait: its registration is written below, as the provider controller would.
    expect(
      await run(
        ['provider', 'install', 'kaito', '--no-webhooks', ...kubeconfig],
        io,
      ),
    ).toBe(0);
    // The provider controller's registration and heartbeat, as it would write them.
    await registerProvider(admin, KAITO_PROVIDER as KubeObject, true);
    // The webhook configurations as the bundles define them (registered; nothing answers them here).
    for (const doc of parseAllDocuments(
      renderInstallYaml(defaultDeployDir()),
    )) {
      const o = doc.toJSON() as KubeObject;
      if (!o?.kind?.endsWith('WebhookConfiguration')) continue;
      await admin.apply(await admin.resolve(o.apiVersion!, o.kind), o, {
        fieldManager: 'runway-cli',
      });
    }
    // The inference Gateway a platform team provides.
    await admin.apply(
      await admin.resolve('gateway.networking.k8s.io/v1', 'Gateway'),
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: {
          name: 'inference',
          namespace: 'default',
          labels: { 'airunway.ai/inference-gateway': 'true' },
        },
        spec: {
          gatewayClassName: 'test',
          listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
        },
      },
      { fieldManager: 'test-setup' },
    );
    // The kaito provider's Deployment gets kwok's pods: wait for the check to say so.
    const report = await eventually(
      async () => {
        const r = await api()
          .get('/api/runway/clusters/one/doctor?refresh=true')
          .set(auth);
        const checks = byId(r.body);
        return checks['provider/kaito/controller']?.status === 'ok'
          ? (r.body as DoctorReport)
          : undefined;
      },
      60_000,
      "the kaito provider's Deployment to be ready",
    );
    const checks = byId(report);
    expect(report.checks.filter(c => c.status === 'fail')).toEqual([]);
    // One run reads ~20 objects one after the other: well within its 20 s bound.
    process.stdout.write(
      `doctor run on a healthy install: ${report.durationMs} ms, ${report.checks.length} checks\n`,
    );
    expect(report.durationMs).toBeLessThan(5_000);
    for (const id of [
      'crd/modeldeployments.airunway.ai',
      'crd/models.models.airunway.ai',
      'controller/core',
      'provider/kaito/ready',
      'provider/kaito/heartbeat',
      'provider/kaito/upstream',
      'operator/models',
      'operator/stacks',
      'gateway',
    ])
      expect([id, checks[id]?.status]).toEqual([id, 'ok']);
    expect(checks['webhook/airunway-core-validating']).toMatchObject({
      status: 'not-checked',
      message: expect.stringContaining('needs create on services/proxy'),
    });
    // What stays a warning here: the providers not installed.
    expect(
      report.checks
        .filter(c => c.status === 'warn')
        .map(c => c.id)
        .sort(),
    ).toEqual(['provider/dynamo', 'provider/kuberay', 'provider/llmd']);
  });
});

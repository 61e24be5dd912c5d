/**
 * Per-cluster health through the REST API, against two real control planes:
 * `live` has Runway's CRDs and a ready provider, `bare` has none of Runway's
 * CRDs. Stopping `live`'s API server turns it `unreachable` within the
 * cache's bound (health probe every 5 s, probe timeout 2 s) while its last
 * known data is still served, marked stale; starting it again clears that by
 * itself. `bare` is `not-installed`, with the fix, not an empty list.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import type { KubeClient, KubeObject } from '@runway-portal/controller-runtime';
import { startClusters, type TestCluster } from '@runway-portal/e2e-cluster';
import { KAITO_PROVIDER } from '@runway-portal/plugin-runway-common';
import type { Server } from 'node:http';
import request from 'supertest';
import { startRunwayBackend } from '../__testUtils__/backend';
import {
  adminClient,
  clusterConfigEntry,
  createNamespaces,
  DEPLOYMENTS,
  eventually,
  portalServiceAccountToken,
  registerProvider,
  RUNWAY_CRDS,
} from '../__testUtils__/clusters';
import { contractChecked } from '../__testUtils__/contract';
import { VIEWER } from '../__testUtils__/permissions';
import { subscribeSignals } from '../__testUtils__/signals';

jest.setTimeout(90_000);

const START_TIMEOUT_MS = 30 * 60_000;
const BOUND_MS = 2_000;
/** The documented bound: one probe interval (5 s) plus the probe's timeout (2 s). */
const UNREACHABLE_BOUND_MS = 7_000;

const auth = { Authorization: mockCredentials.user.header(VIEWER) };

describe('cluster health against real clusters', () => {
  let live: TestCluster;
  let bare: TestCluster;
  let liveAdmin: KubeClient;
  let server: Server;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    [live, bare] = await startClusters([
      {
        name: 'runway-health-live',
        crds: [RUNWAY_CRDS],
        nodes: [{ name: 'gpu-0', gpus: 4, cpu: '32', memory: '128Gi' }],
      },
      { name: 'runway-health-bare' },
    ]);
    liveAdmin = adminClient(live);
    const bareAdmin = adminClient(bare);
    await createNamespaces(liveAdmin, ['team-a']);
    const [liveToken, bareToken] = await Promise.all([
      portalServiceAccountToken(liveAdmin),
      portalServiceAccountToken(bareAdmin),
    ]);
    await registerProvider(liveAdmin, KAITO_PROVIDER as KubeObject, true);
    await liveAdmin.apply(
      DEPLOYMENTS,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: 'kept', namespace: 'team-a' },
        spec: {
          model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
          engine: { type: 'vllm' },
          resources: { gpu: { count: 1 } },
        },
      },
      { fieldManager: 'kubectl' },
    );

    ({ server, stop: stopBackend } = await startRunwayBackend({
      clusters: [
        clusterConfigEntry('live', live, liveToken),
        clusterConfigEntry('bare', bare, bareToken),
      ],
      runway: { requestTimeout: { milliseconds: BOUND_MS } },
      signals: true,
    }));
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await stopBackend?.();
    await Promise.all([live, bare].map(c => c?.stop()));
  });

  const api = () => contractChecked(request(server));
  const stateOf = (body: any, cluster: string) =>
    body.clusters.find((c: any) => c.cluster === cluster);

  it('says ok for a healthy cluster and not-installed, with the fix, for one without our CRDs', async () => {
    const clusters = await eventually(
      async () => {
        const r = await api().get('/api/runway/clusters').set(auth);
        return stateOf(r.body, 'live')?.state === 'ok' ? r : undefined;
      },
      20_000,
      'the live cluster to be ok (its provider listed)',
    );
    const live0 = stateOf(clusters.body, 'live');
    expect(live0).toMatchObject({ stale: false, message: '', dataAgeMs: 0 });
    expect(Date.now() - Date.parse(live0.lastSeen)).toBeLessThan(10_000);
    const bare0 = stateOf(clusters.body, 'bare');
    expect(bare0).toMatchObject({ state: 'not-installed', stale: false });
    expect(bare0.message).toMatch(
      /Runway is not installed in cluster "bare".*`runway controller install`/,
    );

    const list = await api().get('/api/runway/deployments').set(auth);
    expect(list.status).toBe(200);
    expect(stateOf(list.body, 'bare').state).toBe('not-installed');
    expect(
      list.body.errors.find((e: any) => e.cluster === 'bare')?.reason,
    ).toBe('NotInstalled');
    expect(list.body.items.map((i: any) => i.object.metadata.name)).toEqual([
      'kept',
    ]);
  });

  it('marks a stopped cluster unreachable within the bound, keeps serving its data as stale, and clears by itself', async () => {
    // Warm every cache this test reads.
    await api().get('/api/runway/deployments').set(auth).expect(200);
    await api().get('/api/runway/clusters').set(auth).expect(200);
    await api()
      .get('/api/runway/deployments/live/team-a/kept')
      .set(auth)
      .expect(200);
    const subscriber = await subscribeSignals(server, ['runway:deployments']);
    try {
      await live.stopControlPlane();
      const stoppedAt = Date.now();
      const down = await eventually(
        async () => {
          const r = await api().get('/api/runway/deployments').set(auth);
          return stateOf(r.body, 'live')?.state === 'unreachable'
            ? r
            : undefined;
        },
        UNREACHABLE_BOUND_MS + 3_000,
        'the stopped cluster to be unreachable',
      );
      expect(Date.now() - stoppedAt).toBeLessThan(UNREACHABLE_BOUND_MS);
      // The page hears of it without polling.
      await subscriber.waitFor(m => m.message.cluster === 'live', 5_000);

      const freshness = stateOf(down.body, 'live');
      expect(freshness).toMatchObject({ synced: true, stale: true });
      expect(freshness.message).toMatch(/cluster "live"/);
      expect(Date.parse(freshness.staleSince)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(freshness.lastSeen)).toBeLessThanOrEqual(
        Date.parse(freshness.staleSince),
      );
      // Its last known data is still served.
      expect(down.body.items.map((i: any) => i.object.metadata.name)).toEqual([
        'kept',
      ]);

      const overview = await api().get('/api/runway/clusters').set(auth);
      const card = overview.body.items.find((c: any) => c.name === 'live');
      expect(card.reachable).toBe(false);
      expect(card.providers.map((p: any) => [p.name, p.ready])).toEqual([
        ['kaito', true],
      ]);
      expect(card.gpus).toEqual([
        expect.objectContaining({ resource: 'nvidia.com/gpu', allocatable: 4 }),
      ]);
      expect(stateOf(overview.body, 'live')).toMatchObject({
        state: 'unreachable',
        stale: true,
      });

      const detail = await api()
        .get('/api/runway/deployments/live/team-a/kept')
        .set(auth);
      expect(detail.status).toBe(200);
      expect(detail.body.clusters[0]).toMatchObject({
        cluster: 'live',
        state: 'unreachable',
        stale: true,
      });

      // Its age grows while it stays down.
      await new Promise(r => setTimeout(r, 1_100));
      const later = await api().get('/api/runway/deployments').set(auth);
      expect(stateOf(later.body, 'live').dataAgeMs).toBeGreaterThan(1_000);
    } finally {
      subscriber.close();
      await live.startControlPlane();
    }
    const back = await eventually(
      async () => {
        const r = await api().get('/api/runway/deployments').set(auth);
        return stateOf(r.body, 'live')?.state === 'ok' &&
          !stateOf(r.body, 'live').stale
          ? r
          : undefined;
      },
      45_000,
      'the restarted cluster to be ok again',
    );
    expect(stateOf(back.body, 'live')).toMatchObject({
      stale: false,
      dataAgeMs: 0,
      message: '',
    });
    expect(back.body.errors.some((e: any) => e.cluster === 'live')).toBe(false);
  });
});

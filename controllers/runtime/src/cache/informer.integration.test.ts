import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { KubeClient } from '../kube/client';
import { isNotFound } from '../kube/errors';
import { keyOfObject } from '../kube/resource';
import type { KubeObject } from '../kube/types';
import { ConfigMaps, Secrets } from '../kube/wellKnown';
import { ControllerMetrics } from '../metrics/metrics';
import { Manager } from '../manager/manager';
import { silentLogger } from '../observability/logger';
import {
  createNamespace,
  eventually,
  persist,
  sleep,
  START_TIMEOUT_MS,
} from '../testing/integration';
import {
  byLabelIndexer,
  labelIndexName,
  OWNER_INDEX,
  ownerIndexValue,
} from './indexers';
import { SharedInformerFactory } from './sharedInformers';
import { keepFields } from './transform';

jest.setTimeout(180_000);

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

describe('informers against a real API server', () => {
  let cluster: TestCluster;
  let client: KubeClient;

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runtime-informer' });
    client = new KubeClient(cluster.kubeConfig());
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('lists then watches, strips managedFields, indexes by owner and label, one informer per type', async () => {
    await createNamespace(client, 'cache');
    const owner = await client.create<ConfigMap>(ConfigMaps, {
      metadata: { name: 'owner', namespace: 'cache' },
    });
    const ownerRef = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: owner.metadata!.uid!,
      controller: true,
    };
    await client.create(ConfigMaps, {
      metadata: {
        name: 'child-1',
        namespace: 'cache',
        labels: { tier: 'gpu' },
        ownerReferences: [ownerRef],
      },
    });

    const factory = new SharedInformerFactory(client, { logger: silentLogger });
    const informer = factory.informerFor<ConfigMap>(ConfigMaps, {
      namespace: 'cache',
    });
    expect(factory.informerFor(ConfigMaps, { namespace: 'cache' })).toBe(
      informer,
    );
    expect(factory.count()).toBe(1);
    informer.addIndexer(labelIndexName('tier'), byLabelIndexer('tier'));
    const seen: string[] = [];
    informer.addEventHandler({
      // kube-root-ca.crt is created in every namespace by the controller-manager.
      add: o =>
        o.metadata?.name !== 'kube-root-ca.crt' &&
        seen.push(`add ${o.metadata?.name}`),
      update: (_old, o) => seen.push(`update ${o.metadata?.name} ${o.data?.v}`),
      delete: o => seen.push(`delete ${o.metadata?.name}`),
    });
    factory.start();
    await informer.waitForSync();
    try {
      expect(informer.store.get('cache/child-1')?.metadata).not.toHaveProperty(
        'managedFields',
      );
      // Filled in although list items of built-in types come without them.
      expect(informer.store.get('cache/child-1')).toMatchObject({
        apiVersion: 'v1',
        kind: 'ConfigMap',
      });
      const ownerKey = ownerIndexValue(ownerRef, 'cache');
      expect(
        informer.store
          .byIndex(OWNER_INDEX, ownerKey)
          .map(o => o.metadata?.name),
      ).toEqual(['child-1']);
      expect(
        informer.store.byIndex(labelIndexName('tier'), 'gpu'),
      ).toHaveLength(1);

      await client.create(ConfigMaps, {
        metadata: {
          name: 'child-2',
          namespace: 'cache',
          ownerReferences: [ownerRef],
        },
      });
      await client.patch(
        ConfigMaps,
        { namespace: 'cache', name: 'child-1' },
        { data: { v: '1' } },
        'merge',
      );
      await client.delete(ConfigMaps, { namespace: 'cache', name: 'child-1' });
      await eventually('the watch to deliver the changes', () =>
        seen.includes('delete child-1'),
      );
      // The first list comes in name order, then the watch in the order of the writes.
      expect(seen).toEqual([
        'add child-1',
        'add owner',
        'add child-2',
        'update child-1 1',
        'delete child-1',
      ]);
      expect(
        informer.store
          .byIndex(OWNER_INDEX, ownerKey)
          .map(o => o.metadata?.name),
      ).toEqual(['child-2']);
      expect(informer.store.get('cache/child-1')).toBeUndefined();
    } finally {
      await factory.stop();
    }
  });

  it('reconciles the final state of every object although the API server restarts during a stream of changes', async () => {
    await createNamespace(client, 'restart');
    const manager = new Manager({
      name: 'restart-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
    });
    // What the reconciler last saw of each object: its value, or 'absent'.
    const reconciled = new Map<string, string>();
    let reconciles = 0;
    const informer = manager.informers.informerFor<ConfigMap>(ConfigMaps, {
      namespace: 'restart',
    });
    manager
      .controller()
      .named('restart')
      .for(ConfigMaps, { selector: { namespace: 'restart' } })
      .complete(req => {
        reconciles++;
        const obj = informer.store.get(`${req.namespace}/${req.name}`);
        reconciled.set(
          `${req.namespace}/${req.name}`,
          obj ? obj.data?.v ?? '' : 'absent',
        );
      });
    const running = manager.start();
    await manager.elected();
    await informer.waitForSync();

    const names = Array.from({ length: 40 }, (_, i) => `cm-${i}`);
    // Every fifth object is deleted in odd rounds and recreated in even ones.
    const writeOnce = (name: string, round: number) =>
      persist(async () => {
        const key = { namespace: 'restart', name };
        if (names.indexOf(name) % 5 === 0 && round % 2 === 1) {
          await client.delete(ConfigMaps, key).catch(err => {
            if (!isNotFound(err)) throw err;
          });
        } else {
          await client.apply(
            ConfigMaps,
            {
              metadata: { name, namespace: 'restart' },
              data: { v: String(round) },
            },
            { fieldManager: 'writer', force: true },
          );
        }
      });
    let round = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        round++;
        for (const name of names) {
          if (!writing) break;
          await writeOnce(name, round);
        }
      }
    })();

    await sleep(1500);
    await cluster.stopControlPlane();
    await sleep(3000);
    await cluster.startControlPlane();
    await sleep(1500);
    writing = false;
    await writer;

    // The truth is what the API server holds now.
    const list = await client.list<ConfigMap>(ConfigMaps, {
      namespace: 'restart',
    });
    const truth = new Map<string, string>(
      names.map(n => [`restart/${n}`, 'absent']),
    );
    for (const cm of list.items) truth.set(keyOfObject(cm), cm.data?.v ?? '');
    expect(round).toBeGreaterThan(2);
    await eventually(
      'every final state to be reconciled',
      () => [...truth].every(([key, value]) => reconciled.get(key) === value),
      90_000,
    );
    const mismatches = [...truth].filter(
      ([key, value]) => reconciled.get(key) !== value,
    );
    expect(mismatches).toEqual([]);
    const restarts = await manager.metrics.informerRestarts.get();
    // eslint-disable-next-line no-console
    console.info(
      `restart test: ${round} rounds over ${
        names.length
      } objects, ${reconciles} reconciles; informer restarts: ${JSON.stringify(
        restarts.values.map(v => [v.labels.reason, v.value]),
      )}`,
    );
    expect(restarts.values.reduce((n, v) => n + v.value, 0)).toBeGreaterThan(0);
    await manager.stop();
    await running;
  });

  it('reads its own writes at once, never a dry run, and then follows the watch', async () => {
    await createNamespace(client, 'ryw');
    const factory = new SharedInformerFactory(client, { logger: silentLogger });
    const informer = factory.informerFor<ConfigMap>(ConfigMaps, {
      namespace: 'ryw',
    });
    factory.start();
    await informer.waitForSync();
    try {
      await client.create(
        ConfigMaps,
        { metadata: { name: 'dry', namespace: 'ryw' } },
        { dryRun: true },
      );
      expect(informer.store.get('ryw/dry')).toBeUndefined();
      const written = await client.create<ConfigMap>(ConfigMaps, {
        metadata: { name: 'mine', namespace: 'ryw' },
        data: { v: '1' },
      });
      expect(informer.store.get('ryw/mine')?.data).toEqual({ v: '1' });
      const patched = await client.patch<ConfigMap>(
        ConfigMaps,
        { namespace: 'ryw', name: 'mine' },
        { data: { v: '2' } },
        'merge',
      );
      expect(informer.store.get('ryw/mine')?.metadata?.resourceVersion).toBe(
        patched.metadata?.resourceVersion,
      );
      expect(written.metadata?.resourceVersion).not.toBe(
        patched.metadata?.resourceVersion,
      );
      await eventually(
        'the watch to catch up with the writes',
        () =>
          informer.store.list().find(o => o.metadata?.name === 'mine')?.data
            ?.v === '2',
      );
      expect(informer.store.pendingWrites).toBe(0);
      expect(informer.store.get('ryw/mine')?.data).toEqual({ v: '2' });
    } finally {
      await factory.stop();
    }
  });

  it('lists again after 410 Gone when its resourceVersion predates the restarted API server cache', async () => {
    await createNamespace(client, 'quiet');
    await client.create(ConfigMaps, {
      metadata: { name: 'a', namespace: 'quiet' },
    });
    const metrics = new ControllerMetrics({ processMetrics: false });
    const factory = new SharedInformerFactory(client, {
      metrics: metrics.informerMetrics(),
      logger: silentLogger,
    });
    const informer = factory.informerFor<ConfigMap>(ConfigMaps, {
      namespace: 'quiet',
    });
    factory.start();
    await informer.waitForSync();
    try {
      // Other writes move the cluster's resourceVersion past the informer's,
      // so the restarted API server's fresh watch cache no longer covers it.
      for (let i = 0; i < 20; i++)
        await client.create(Secrets, {
          metadata: { name: `s${i}`, namespace: 'quiet' },
        });
      await cluster.stopControlPlane();
      await cluster.startControlPlane();
      await client.create(ConfigMaps, {
        metadata: { name: 'b', namespace: 'quiet' },
      });
      await eventually(
        'the informer to see the object created after the restart',
        // keys(), not get(): get also answers with this client's own write before the watch brings it.
        () => informer.store.keys().includes('quiet/b'),
        60_000,
      );
      const restarts = (await metrics.informerRestarts.get()).values;
      expect(
        restarts.find(v => v.labels.reason === 'gone')?.value,
      ).toBeGreaterThanOrEqual(1);
      expect(
        informer.store
          .keys()
          .filter(k => !k.endsWith('kube-root-ca.crt'))
          .sort(),
      ).toEqual(['quiet/a', 'quiet/b']);
    } finally {
      await factory.stop();
    }
  });

  it('restarts a silent watch and keeps delivering events', async () => {
    await createNamespace(client, 'silent');
    const metrics = new ControllerMetrics({ processMetrics: false });
    const factory = new SharedInformerFactory(client, {
      metrics: metrics.informerMetrics(),
      logger: silentLogger,
      silenceTimeoutMs: 1000,
    });
    const informer = factory.informerFor<ConfigMap>(ConfigMaps, {
      namespace: 'silent',
    });
    factory.start();
    await informer.waitForSync();
    try {
      const silentRestarts = async () =>
        (await metrics.informerRestarts.get()).values.find(
          v => v.labels.reason === 'silent',
        )?.value ?? 0;
      await eventually(
        'a restart of the silent watch',
        async () => (await silentRestarts()) >= 1,
        15_000,
      );
      expect(await silentRestarts()).toBeGreaterThanOrEqual(1);
      await client.create(ConfigMaps, {
        metadata: { name: 'late', namespace: 'silent' },
      });
      await eventually(
        'the object created after the restart',
        // keys(), not get(): get also answers with this client's own write before the watch brings it.
        () => informer.store.keys().includes('silent/late'),
        15_000,
      );
    } finally {
      await factory.stop();
    }
  });

  it('stops promptly, even right after its first sync', async () => {
    for (let i = 0; i < 5; i++) {
      const factory = new SharedInformerFactory(client, {
        logger: silentLogger,
      });
      const informer = factory.informerFor(ConfigMaps);
      factory.start();
      await informer.waitForSync();
      const started = Date.now();
      await factory.stop();
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it("caches what a transform keeps, without kubectl's last-applied copy, for list and watch alike", async () => {
    await createNamespace(client, 'trim');
    const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
    const make = (name: string) =>
      client.create<ConfigMap>(ConfigMaps, {
        metadata: {
          name,
          namespace: 'trim',
          labels: { trim: 'yes' },
          annotations: { [lastApplied]: '{"data":{"big":"x"}}', keep: 'me' },
        },
        data: { big: 'x'.repeat(10_000) },
      });
    await make('listed');
    const factory = new SharedInformerFactory(client, { logger: silentLogger });
    const informer = factory.informerFor<ConfigMap>(
      ConfigMaps,
      { namespace: 'trim', labelSelector: 'trim=yes' },
      { transform: keepFields() },
    );
    factory.start();
    await informer.waitForSync();
    try {
      await make('watched');
      await eventually('the watch to deliver the new object', () =>
        Boolean(informer.store.get('trim/watched')),
      );
      for (const name of ['listed', 'watched']) {
        const cached = informer.store.get(`trim/${name}`)!;
        expect(Object.keys(cached).sort()).toEqual([
          'apiVersion',
          'kind',
          'metadata',
        ]);
        expect(cached.metadata?.annotations).toEqual({ keep: 'me' });
        expect(cached.metadata).not.toHaveProperty('managedFields');
      }
    } finally {
      await factory.stop();
    }
  });

  it('reads an answer that is not JSON as text, and its errors as for JSON', async () => {
    await expect(
      client.requestText({ method: 'GET', path: '/healthz' }),
    ).resolves.toBe('ok');
    await expect(
      client.requestText({
        method: 'GET',
        path: '/api/v1/namespaces/default/pods/absent/log',
        query: { tailLines: 50 },
      }),
    ).rejects.toMatchObject({ code: 404 });
  });
});

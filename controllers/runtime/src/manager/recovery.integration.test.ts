/**
 * Recovery after a long API server outage (etcd kept). During an outage the
 * informers' relist backoff grows to 30 s and a failing key's retry backoff
 * to minutes, so without the client's reconnect signal the controller would
 * resume only when those timers run out (measured: 13-15 s). Here: watches
 * deliver again, and a deletion the outage blocked finishes, within seconds
 * of the API server answering.
 */
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { KubeClient } from '../kube/client';
import { isNotFound } from '../kube/errors';
import type { KubeObject } from '../kube/types';
import { ConfigMaps } from '../kube/wellKnown';
import { silentLogger } from '../observability/logger';
import {
  createNamespace,
  eventually,
  sleep,
  START_TIMEOUT_MS,
} from '../testing/integration';
import { Manager } from './manager';

jest.setTimeout(240_000);

/** Long enough for the informers' backoff to reach its 30 s ceiling and a key's to pass 10 s. */
const OUTAGE_MS = 30_000;
/** The target: reconciles resume within a few seconds of the API server answering. */
const RESUME_WITHIN_MS = 5_000;
const NS = 'outage';

describe('recovery after an API server outage', () => {
  let cluster: TestCluster;
  let client: KubeClient;

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runtime-recovery' });
    client = new KubeClient(cluster.kubeConfig());
    await createNamespace(client, NS);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('watches deliver and a blocked deletion finishes within seconds of the API server answering again', async () => {
    const managerClient = new KubeClient(cluster.kubeConfig());
    const manager = new Manager({
      name: 'recovery-test',
      client: managerClient,
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
    });
    const informer = manager.informers.informerFor<KubeObject>(ConfigMaps, {
      namespace: NS,
    });
    let failures = 0;
    // Removes the finalizer of a ConfigMap being deleted, reading it live. Only the test enqueues it (no
    // events: every predicate says no), as a timer-driven requeue would (a finalizer timeout).
    const never = () => false;
    const controller = manager
      .controller()
      .named('recovery')
      .for(ConfigMaps, {
        selector: { namespace: NS },
        predicates: [{ create: never, update: never, delete: never }],
      })
      .complete(async req => {
        try {
          const obj = await managerClient.get(ConfigMaps, {
            namespace: NS,
            name: req.name,
          });
          if (!obj.metadata?.deletionTimestamp) return;
          await managerClient.patch(
            ConfigMaps,
            { namespace: NS, name: req.name },
            [{ op: 'remove', path: '/metadata/finalizers' }],
            'json',
          );
        } catch (err) {
          if (isNotFound(err)) return;
          failures += 1;
          throw err;
        }
      });
    const running = manager.start();
    await manager.elected();
    await informer.waitForSync();
    try {
      // A deletion in progress: the finalizer is the controller's to remove.
      await client.create(ConfigMaps, {
        metadata: {
          name: 'held',
          namespace: NS,
          finalizers: ['example.com/hold'],
        },
      });
      await client.delete(ConfigMaps, { namespace: NS, name: 'held' });

      await cluster.stopControlPlane();
      // Its reconcile runs and fails throughout the outage: the key's backoff grows past 10 s.
      controller.enqueue({ namespace: NS, name: 'held' });
      const started = Date.now();
      await sleep(OUTAGE_MS);
      await cluster.startControlPlane();
      const backAt = Date.now();
      expect(failures).toBeGreaterThan(5);

      await client.create(ConfigMaps, {
        metadata: { name: 'after', namespace: NS },
      });
      await eventually(
        'the object created after the outage in the cache',
        // keys(), not get(): get also answers with this client's own write before the watch brings it.
        () => informer.store.keys().includes(`${NS}/after`),
        60_000,
      );
      const seenMs = Date.now() - backAt;
      await eventually(
        'the held ConfigMap gone',
        () =>
          client
            .get(ConfigMaps, { namespace: NS, name: 'held' })
            .then(() => false, isNotFound),
        60_000,
      );
      const goneMs = Date.now() - backAt;
      // eslint-disable-next-line no-console
      console.info(
        `outage of ${Math.round(
          (backAt - started) / 1000,
        )} s: watch event seen ${seenMs} ms and blocked deletion done ${goneMs} ms after the API server answered (${failures} failed reconciles)`,
      );
      expect(seenMs).toBeLessThan(RESUME_WITHIN_MS);
      expect(goneMs).toBeLessThan(RESUME_WITHIN_MS);
    } finally {
      await manager.stop();
      await running;
      managerClient.close();
    }
  });
});

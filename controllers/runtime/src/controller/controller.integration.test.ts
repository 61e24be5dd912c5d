import http from 'node:http';
import { resolve as resolvePath } from 'node:path';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { Applier } from '../apply/applier';
import { KubeClient } from '../kube/client';
import { ApplyConflictError } from '../kube/errors';
import type { KubeObject, OwnerReference } from '../kube/types';
import { ConfigMaps, Events, Secrets } from '../kube/wellKnown';
import { Manager } from '../manager/manager';
import { silentLogger } from '../observability/logger';
import {
  createNamespace,
  eventually,
  sleep,
  START_TIMEOUT_MS,
} from '../testing/integration';
import { generationChanged } from './predicates';

jest.setTimeout(120_000);

const MODEL_DEPLOYMENT_CRD =
  // `../shared` next to the repository root (see the project README).
  resolvePath(
    __dirname,
    '../../../../../shared/upstream/airunway/airunway.ai_modeldeployments.yaml',
  );

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

function get(
  port: number,
  path: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, res => {
        let body = '';
        res.on('data', c => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('controllers against a real API server', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let manager: Manager;
  let running: Promise<void>;
  /** Reconcile calls per controller and key, with their time. */
  const calls: Array<{ controller: string; key: string; at: number }> = [];
  const attemptsOf = (controller: string, key: string) =>
    calls.filter(c => c.controller === controller && c.key === key);
  let failuresLeft = 6;
  /** resourceVersion the burst reconciler saw last. */
  let burstSeen = '';

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runtime-controller',
      crds: [MODEL_DEPLOYMENT_CRD],
    });
    client = new KubeClient(cluster.kubeConfig());
    await createNamespace(client, 'ctl');
    manager = new Manager({
      name: 'controller-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: { host: '127.0.0.1', port: 0 },
      healthProbes: { host: '127.0.0.1', port: 0 },
      handleSignals: false,
    });
    const record = (controller: string) => (key: string) =>
      calls.push({ controller, key, at: Date.now() });

    // Fails the first six times for "flaky", succeeds for everything else.
    const retries = record('retries');
    manager
      .controller()
      .named('retries')
      .for(ConfigMaps, {
        selector: { namespace: 'ctl', labelSelector: 'test=retries' },
      })
      .complete(req => {
        retries(req.name);
        if (req.name === 'flaky' && failuresLeft-- > 0)
          throw new Error('not yet');
      });

    // Converges like a real reconcile: reads the object, applies a derived one.
    const burst = record('burst');
    const burstApplier = manager.applier('burst-controller');
    manager
      .controller()
      .named('burst')
      .for(ConfigMaps, {
        selector: { namespace: 'ctl', labelSelector: 'test=burst' },
      })
      .complete(async req => {
        burst(req.name);
        const live = await client.get<ConfigMap>(ConfigMaps, {
          namespace: 'ctl',
          name: req.name,
        });
        await burstApplier.apply({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `${req.name}-derived`, namespace: 'ctl' },
          data: { v: live.data?.v ?? '' },
        });
        burstSeen = live.metadata!.resourceVersion!;
      });

    // ConfigMaps own Secrets; only spec-like (generation) changes count for the primary.
    const owner = record('owner');
    manager
      .controller()
      .named('owner')
      .for(ConfigMaps, {
        selector: { namespace: 'ctl', labelSelector: 'test=owner' },
        predicates: [generationChanged],
      })
      .owns(Secrets, { selector: { namespace: 'ctl' } })
      .complete(req => void owner(req.name));

    running = manager.start();
    await manager.elected();
    await manager.informers.waitForSync();
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await manager?.stop();
    await running?.catch(() => undefined);
    client?.close();
    await cluster?.stop();
  });

  it('retries a failing reconcile with growing delays and does not retry a succeeding one', async () => {
    await client.create(ConfigMaps, {
      metadata: {
        name: 'flaky',
        namespace: 'ctl',
        labels: { test: 'retries' },
      },
    });
    await client.create(ConfigMaps, {
      metadata: { name: 'fine', namespace: 'ctl', labels: { test: 'retries' } },
    });
    await eventually(
      'seven attempts of the flaky reconcile',
      () => attemptsOf('retries', 'flaky').length >= 7,
    );
    await sleep(1500);
    const flaky = attemptsOf('retries', 'flaky').map(c => c.at);
    expect(flaky).toHaveLength(7); // six failures, one success, then quiet
    expect(attemptsOf('retries', 'fine')).toHaveLength(1);
    const gaps = flaky.slice(1).map((t, i) => t - flaky[i]);
    // Backoff 5, 10, 20, 40, 80, 160 ms: every gap at least its delay, the last far above the first.
    [5, 10, 20, 40, 80, 160].forEach((delay, i) =>
      expect(gaps[i]).toBeGreaterThanOrEqual(delay - 1),
    );
    expect(gaps[5]).toBeGreaterThan(gaps[0] * 4);
    const text = await manager.metrics.registry.metrics();
    expect(text).toContain(
      'controller_runtime_reconcile_errors_total{controller="retries"} 6',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="retries",result="error"} 6',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="retries",result="success"} 2',
    );
    expect(text).toMatch(
      /workqueue_retries_total\{name="retries",controller="retries"\} 6/,
    );
  });

  it('collapses a burst of 100 updates to one object into far fewer reconciles, ending on the final state', async () => {
    await client.create(ConfigMaps, {
      metadata: { name: 'hot', namespace: 'ctl', labels: { test: 'burst' } },
      data: { v: '0' },
    });
    await eventually(
      'the first reconcile',
      () => attemptsOf('burst', 'hot').length === 1,
    );
    const before = attemptsOf('burst', 'hot').length;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        client.patch(
          ConfigMaps,
          { namespace: 'ctl', name: 'hot' },
          { data: { v: String(i + 1) } },
          'merge',
        ),
      ),
    );
    const final = await client.get<ConfigMap>(ConfigMaps, {
      namespace: 'ctl',
      name: 'hot',
    });
    await eventually(
      'the final state to be reconciled',
      () => burstSeen === final.metadata!.resourceVersion,
    );
    await sleep(500);
    const reconciles = attemptsOf('burst', 'hot').length - before;
    // eslint-disable-next-line no-console
    console.info(`burst: 100 updates -> ${reconciles} reconciles`);
    expect(reconciles).toBeGreaterThanOrEqual(1);
    expect(reconciles).toBeLessThan(30);
  });

  it('enqueues the owner when an owned object changes, and filters primary events by predicate', async () => {
    const cm = await client.create<ConfigMap>(ConfigMaps, {
      metadata: { name: 'parent', namespace: 'ctl', labels: { test: 'owner' } },
    });
    await eventually(
      'the create to be reconciled',
      () => attemptsOf('owner', 'parent').length === 1,
    );
    // ConfigMaps have no generation: a data change passes generationChanged only if generation differs, which it does not.
    await client.patch(
      ConfigMaps,
      { namespace: 'ctl', name: 'parent' },
      { data: { x: '1' } },
      'merge',
    );
    await sleep(500);
    expect(attemptsOf('owner', 'parent')).toHaveLength(1);
    const ref: OwnerReference = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'parent',
      uid: cm.metadata!.uid!,
      controller: true,
    };
    await client.create(Secrets, {
      metadata: { name: 'child', namespace: 'ctl', ownerReferences: [ref] },
    });
    await eventually(
      'the owned create to enqueue the owner',
      () => attemptsOf('owner', 'parent').length === 2,
    );
    await client.patch(
      Secrets,
      { namespace: 'ctl', name: 'child' },
      { stringData: { k: 'v' } },
      'merge',
    );
    await eventually(
      'the owned update to enqueue the owner',
      () => attemptsOf('owner', 'parent').length === 3,
    );
    // A Secret without an owner reference enqueues nothing.
    await client.create(Secrets, {
      metadata: { name: 'orphan', namespace: 'ctl' },
    });
    await sleep(500);
    expect(attemptsOf('owner', 'parent')).toHaveLength(3);
    expect(
      calls.filter(c => c.controller === 'owner').map(c => c.key),
    ).not.toContain('orphan');
  });

  it('server-side applies with one field manager per writer, conflicts as typed errors, force as a choice', async () => {
    const a = new Applier(client, 'writer-a');
    const b = new Applier(client, 'writer-b');
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'ctl' },
      data: { key: 'a' },
    };
    await a.apply(obj);
    const conflict = await b
      .apply({ ...obj, data: { key: 'b' } })
      .catch(e => e);
    expect(conflict).toBeInstanceOf(ApplyConflictError);
    expect((conflict as ApplyConflictError).conflicts).toEqual([
      expect.objectContaining({ manager: 'writer-a', field: '.data.key' }),
    ]);
    const forced = await b.apply<ConfigMap>(
      { ...obj, data: { key: 'b' } },
      { force: true },
    );
    expect(forced.data).toEqual({ key: 'b' });
    const managers = (
      forced.metadata!.managedFields as Array<{ manager: string }>
    ).map(m => m.manager);
    expect(managers).toContain('writer-b');
  });

  it('applies the /status subresource of a custom resource as its own field manager', async () => {
    const spec = {
      model: {
        id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
        source: 'huggingface',
      },
      engine: { type: 'llamacpp' },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
      resources: { memory: '16Gi', cpu: '8' },
    };
    const user = new Applier(client, 'portal-user');
    const core = new Applier(client, 'runway-core');
    const md = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'gemma', namespace: 'ctl' },
    };
    await user.apply({ ...md, spec });
    const status = {
      phase: 'Pending',
      message: 'waiting for a provider',
      conditions: [
        {
          type: 'Validated',
          status: 'True',
          reason: 'Valid',
          message: 'spec is valid',
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      ],
    };
    const written = await core.applyStatus<KubeObject>({ ...md, status });
    expect(written.status).toMatchObject({
      phase: 'Pending',
      message: 'waiting for a provider',
    });
    expect((written.spec as typeof spec).engine.type).toBe('llamacpp');
    const entries = written.metadata!.managedFields as Array<{
      manager: string;
      subresource?: string;
    }>;
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          manager: 'runway-core',
          subresource: 'status',
        }),
        expect.objectContaining({ manager: 'portal-user' }),
      ]),
    );
    // The API server rejects a status the CRD schema does not allow, and the error says why.
    const bad = await core
      .applyStatus({ ...md, status: { phase: 'Exploded' } })
      .catch(e => e);
    expect(bad.message).toMatch(/phase/);
  });

  it('records Events, aggregating repeats into one Event with a count', async () => {
    const involved = await client.create<ConfigMap>(ConfigMaps, {
      metadata: { name: 'noisy', namespace: 'ctl' },
    });
    const recorder = manager.eventRecorder('runtime-test');
    for (let i = 0; i < 5; i++)
      recorder.event(
        involved,
        'Warning',
        'ProviderMissing',
        'no provider can serve this model',
      );
    recorder.event(involved, 'Normal', 'ProviderSelected', 'selected kaito');
    await recorder.flush();
    const events = await client.list<
      KubeObject & { reason: string; count: number }
    >(Events, {
      namespace: 'ctl',
      fieldSelector: 'involvedObject.name=noisy',
    });
    const byReason = Object.fromEntries(
      events.items.map(e => [e.reason, e.count]),
    );
    expect(byReason).toEqual({ ProviderMissing: 5, ProviderSelected: 1 });
  });

  it('serves Prometheus metrics and health/readiness probes', async () => {
    const metrics = await get(manager.metricsPort(), '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(
      /controller_runtime_reconcile_total\{controller="burst",result="success"\} \d+/,
    );
    expect(metrics.body).toContain(
      'controller_runtime_active_workers{controller="owner"}',
    );
    expect(metrics.body).toContain(
      'workqueue_depth{name="retries",controller="retries"}',
    );
    expect(metrics.body).toContain('workqueue_queue_duration_seconds_bucket');
    expect(metrics.body).toContain('process_resident_memory_bytes');
    const ready = await get(manager.probesPort(), '/readyz');
    expect(ready).toEqual({
      status: 200,
      body: expect.stringContaining('[+]informers-synced ok'),
    });
    expect((await get(manager.probesPort(), '/healthz')).status).toBe(200);
    expect((await get(manager.probesPort(), '/nope')).status).toBe(404);
  });

  it('shuts down gracefully: stops taking work and lets the reconcile in flight finish', async () => {
    const events: string[] = [];
    const graceful = new Manager({
      name: 'graceful-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
      gracefulShutdownTimeoutMs: 5000,
    });
    graceful
      .controller()
      .named('graceful')
      .for(ConfigMaps, {
        selector: { namespace: 'ctl', labelSelector: 'test=graceful' },
      })
      .complete(async (req, ctx) => {
        events.push(`start ${req.name}`);
        await sleep(1000);
        events.push(`${ctx.signal.aborted ? 'aborted' : 'finish'} ${req.name}`);
      });
    const run = graceful.start();
    await graceful.elected();
    await client.create(ConfigMaps, {
      metadata: {
        name: 'slow',
        namespace: 'ctl',
        labels: { test: 'graceful' },
      },
    });
    await eventually('the slow reconcile to start', () =>
      events.includes('start slow'),
    );
    const stopped = graceful.stop();
    await client.create(ConfigMaps, {
      metadata: {
        name: 'late',
        namespace: 'ctl',
        labels: { test: 'graceful' },
      },
    });
    await stopped;
    await run;
    expect(events).toEqual(['start slow', 'finish slow']);
  });
});

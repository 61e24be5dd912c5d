/*
 * Benchmark of the controller runtime against a real API server (not a
 * test: it prints numbers).
 *
 *   yarn workspace @runway-portal/controller-runtime bench [--objects 5000]
 *
 * Baseline, measured in the same run against the same API server: the raw
 * write rate (ConfigMap creates and updates, 16 in flight). The controller
 * numbers are shown as ratios to it.
 */
import { parseArgs } from 'node:util';
import { startCluster } from '@runway-portal/e2e-cluster';
import { SharedInformerFactory } from '../src/cache/sharedInformers';
import { Store } from '../src/cache/store';
import type { KubeObject } from '../src/kube/types';
import { KubeClient } from '../src/kube/client';
import { ConfigMaps, Namespaces } from '../src/kube/wellKnown';
import { Manager } from '../src/manager/manager';
import { silentLogger } from '../src/observability/logger';

const { values: args } = parseArgs({
  options: { objects: { type: 'string', default: '5000' } },
});
const OBJECTS = Number(args.objects);
const IN_FLIGHT = 16;
const NAMESPACE = 'bench';

const progress = (step: string) =>
  process.stderr.write(`[bench] ${new Date().toISOString()} ${step}\n`);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const perSecond = (count: number, ms: number) =>
  (count / (ms / 1000)).toFixed(0);
const gc = (globalThis as { gc?: () => void }).gc;
/** Several passes, so that garbage from earlier phases is gone before measuring. */
const fullGc = () => {
  for (let i = 0; i < 4; i++) gc?.();
};

/** Runs `task(i)` for i < count with `IN_FLIGHT` in parallel; returns elapsed ms. */
async function parallel(
  count: number,
  task: (i: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return performance.now() - started;
}

function configMap(i: number, version: number) {
  return {
    metadata: {
      name: `cm-${i}`,
      namespace: NAMESPACE,
      labels: {
        app: 'bench',
        tier: i % 2 ? 'gpu' : 'cpu',
        shard: String(i % 10),
      },
    },
    data: { version: String(version), payload: 'x'.repeat(200) },
  };
}

/**
 * Heap growth in bytes per 1,000 objects cached: by one informer (which
 * always trims them: `trimForCache`), or, for the comparison, the same
 * list kept whole in a Store.
 */
async function cacheMemoryPer1000(
  client: KubeClient,
  cache: 'informer' | 'untrimmed',
): Promise<number> {
  fullGc();
  const before = process.memoryUsage().heapUsed;
  if (cache === 'untrimmed') {
    const store = new Store<KubeObject>();
    const list = await client.list<KubeObject>(ConfigMaps, {
      namespace: NAMESPACE,
    });
    store.replace(list.items);
    list.items = [];
    fullGc();
    return ((process.memoryUsage().heapUsed - before) / store.size) * 1000;
  }
  const factory = new SharedInformerFactory(client, { logger: silentLogger });
  const informer = factory.informerFor(ConfigMaps, { namespace: NAMESPACE });
  factory.start();
  await informer.waitForSync();
  fullGc();
  const after = process.memoryUsage().heapUsed;
  const perThousand = ((after - before) / informer.store.size) * 1000;
  await factory.stop();
  return perThousand;
}

async function main() {
  if (!gc)
    console.warn(
      'run with --expose-gc for stable memory numbers (the package script does)',
    );
  const cluster = await startCluster({ name: 'runtime-bench' });
  const client = new KubeClient(cluster.kubeConfig());
  try {
    await client.create(Namespaces, { metadata: { name: NAMESPACE } });

    // Baseline: raw writes.
    progress(`creating ${OBJECTS} ConfigMaps`);
    const createMs = await parallel(OBJECTS, i =>
      client.create(ConfigMaps, configMap(i, 0), { fieldManager: 'bench' }),
    );
    progress('updating them');
    const updateMs = await parallel(OBJECTS, i =>
      client.patch(
        ConfigMaps,
        { namespace: NAMESPACE, name: `cm-${i}` },
        { data: { version: '1' } },
        'merge',
      ),
    );

    // Memory of the cache, with and without stripping managedFields.
    progress('measuring cache memory');
    // Median of three alternating runs: heap numbers are noisy on a shared machine.
    const strippedRuns: number[] = [];
    const fullRuns: number[] = [];
    for (let run = 0; run < 3; run++) {
      strippedRuns.push(await cacheMemoryPer1000(client, 'informer'));
      fullRuns.push(await cacheMemoryPer1000(client, 'untrimmed'));
    }
    const stripped = median(strippedRuns);
    const full = median(fullRuns);

    // A trivial reconciler over all objects: start-up (list, then one reconcile each).
    const manager = new Manager({
      name: 'bench',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
    });
    const informer = manager.informers.informerFor<
      KubeObject & { data?: Record<string, string> }
    >(ConfigMaps, {
      namespace: NAMESPACE,
    });
    const reconciledVersion = new Map<string, string>();
    let reconciles = 0;
    let waiter: { target: string; resolve: () => void } | undefined;
    const check = () => {
      if (
        waiter &&
        reconciledVersion.size === OBJECTS &&
        [...reconciledVersion.values()].every(v => v === waiter!.target)
      ) {
        waiter.resolve();
        waiter = undefined;
      }
    };
    const allReconciledAt = (target: string) =>
      new Promise<void>(resolve => {
        waiter = { target, resolve };
        check();
      });
    manager
      .controller()
      .named('bench')
      .for(ConfigMaps, { selector: { namespace: NAMESPACE } })
      .complete(req => {
        reconciles++;
        const obj = informer.store.get(`${req.namespace}/${req.name}`);
        if (obj?.metadata?.name?.startsWith('cm-'))
          reconciledVersion.set(req.name, obj.data?.version ?? '');
        check();
      });
    progress('starting the controller');
    const startAt = performance.now();
    const running = manager.start();
    await allReconciledAt('1');
    const coldMs = performance.now() - startAt;
    const coldReconciles = reconciles;

    // Steady state: the objects change at the raw write rate while the controller runs.
    progress('updating while the controller runs');
    reconciles = 0;
    const steadyStart = performance.now();
    const writesMs = await parallel(OBJECTS, i =>
      client.patch(
        ConfigMaps,
        { namespace: NAMESPACE, name: `cm-${i}` },
        { data: { version: '2' } },
        'merge',
      ),
    );
    await allReconciledAt('2');
    const steadyMs = performance.now() - steadyStart;
    await manager.stop();
    await running;

    const rawWriteRate = OBJECTS / (updateMs / 1000);
    const rows: Array<[string, string]> = [
      ['objects', String(OBJECTS)],
      [
        'baseline: raw creates per second (16 in flight)',
        perSecond(OBJECTS, createMs),
      ],
      [
        'baseline: raw updates per second (16 in flight)',
        perSecond(OBJECTS, updateMs),
      ],
      [
        'start-up: list + trivial reconcile of every object, per second',
        `${perSecond(OBJECTS, coldMs)} (${(
          OBJECTS /
          (coldMs / 1000) /
          rawWriteRate
        ).toFixed(2)} x raw update rate; ${coldReconciles} reconciles in ${(
          coldMs / 1000
        ).toFixed(2)} s)`,
      ],
      [
        'steady: updates written while the controller runs, per second',
        `${perSecond(OBJECTS, writesMs)} (${(
          OBJECTS /
          (writesMs / 1000) /
          rawWriteRate
        ).toFixed(2)} x raw update rate)`,
      ],
      [
        'steady: updates reconciled, per second',
        `${perSecond(OBJECTS, steadyMs)} (last reconcile ${(
          steadyMs - writesMs
        ).toFixed(0)} ms after the last write; ${reconciles} reconciles)`,
      ],
      [
        'cache memory per 1,000 objects, managedFields stripped',
        `${(stripped / 1024).toFixed(0)} KiB`,
      ],
      [
        'cache memory per 1,000 objects, managedFields kept',
        `${(full / 1024).toFixed(0)} KiB (${(full / stripped).toFixed(2)} x)`,
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(
      '\ncontroller runtime benchmark (one kube-apiserver on loopback, 2 cores shared)',
    );
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  } finally {
    client.close();
    await cluster.stop();
  }
}

main().catch(err => {
  console.error(err);
  process.exit(1);
});

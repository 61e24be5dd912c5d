import type { EventHandler } from '../cache/informer';
import type { KubeObject } from '../kube/types';
import { ControllerMetrics } from '../metrics/metrics';
import { ItemExponentialRateLimiter } from '../queue/rateLimiter';
import {
  Controller,
  EventSource,
  generationNotObserved,
  Reconciler,
} from './controller';
import { generationChanged } from './predicates';
import { requestFor } from './requests';

/** A plain in-memory event source (not a Kubernetes API stand-in: no API semantics). */
class Channel implements EventSource {
  readonly handlers = new Set<EventHandler<KubeObject>>();
  addEventHandler(handler: EventHandler<KubeObject>) {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
  add(obj: KubeObject) {
    for (const h of this.handlers) h.add?.(obj);
  }
  update(old: KubeObject, obj: KubeObject) {
    for (const h of this.handlers) h.update?.(old, obj);
  }
}

const obj = (name: string, generation = 1): KubeObject => ({
  metadata: { name, namespace: 'ns', generation },
});
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

function make(
  reconciler: Reconciler,
  opts: { concurrency?: number; metrics?: ControllerMetrics } = {},
) {
  const channel = new Channel();
  const controller = new Controller(
    'test',
    reconciler,
    [{ informer: channel, predicates: [], map: requestFor }],
    {
      maxConcurrentReconciles: opts.concurrency,
      rateLimiter: new ItemExponentialRateLimiter(20, 10_000),
      metrics: opts.metrics,
    },
  );
  return { channel, controller };
}

/** A source with objects cached already: replays them to a late handler, as a synced informer does. */
class Cached implements EventSource {
  constructor(private readonly objects: KubeObject[]) {}
  addEventHandler(handler: EventHandler<KubeObject>) {
    for (const o of this.objects) handler.add?.(o);
    return () => {};
  }
}

describe('generationNotObserved', () => {
  it('needs work without status, with a new generation, or while being deleted', () => {
    const md = (generation: number, status?: object, deleting = false) =>
      ({
        metadata: {
          name: 'a',
          generation,
          ...(deleting ? { deletionTimestamp: '2026-11-26T05:00:00Z' } : {}),
        },
        ...(status ? { status } : {}),
      } as KubeObject);
    expect(generationNotObserved(md(1))).toBe(true);
    expect(generationNotObserved(md(2, { observedGeneration: 1 }))).toBe(true);
    expect(generationNotObserved(md(2, { observedGeneration: 2 }))).toBe(false);
    expect(generationNotObserved(md(2, { observedGeneration: 2 }, true))).toBe(
      true,
    );
  });
});

describe('Controller', () => {
  it('reconciles the replayed objects that need work before the settled ones', async () => {
    const settled = (name: string) => ({
      metadata: { name, namespace: 'ns', generation: 1 },
      status: { observedGeneration: 1 },
    });
    const changed = (name: string) => ({
      metadata: { name, namespace: 'ns', generation: 2 },
      status: { observedGeneration: 1 },
    });
    const seen: string[] = [];
    const controller = new Controller(
      'replay',
      req => {
        seen.push(req.name);
      },
      [
        {
          informer: new Cached([
            settled('s1'),
            changed('c1'),
            settled('s2'),
            changed('c2'),
          ]),
          predicates: [],
          map: requestFor,
          needsWork: generationNotObserved,
        },
      ],
      { maxConcurrentReconciles: 4 },
    );
    controller.start();
    await until(() => seen.length === 4);
    expect(seen.slice(0, 2).sort()).toEqual(['c1', 'c2']);
    expect(seen.slice(2).sort()).toEqual(['s1', 's2']);
    await controller.stop();
  });

  it('retries a failing reconcile with growing delays and stops retrying once it succeeds', async () => {
    const times: number[] = [];
    const retries: number[] = [];
    const { channel, controller } = make((_req, ctx) => {
      times.push(Date.now());
      retries.push(ctx.retries);
      if (times.length <= 4) throw new Error('not yet');
    });
    controller.start();
    channel.add(obj('a'));
    await until(() => times.length === 5);
    await sleep(300);
    expect(times).toHaveLength(5); // the success is not retried
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // 20, 40, 80, 160 ms: each gap at least its backoff. Only lower bounds: a loaded machine
    // stretches gaps but can never shorten them, so comparing two measured gaps would be flaky.
    gaps.forEach((gap, i) =>
      expect(gap).toBeGreaterThanOrEqual(20 * 2 ** i - 2),
    );
    expect(retries).toEqual([0, 1, 2, 3, 4]);
    await controller.stop();
  });

  it('collapses a burst of 100 updates to one object into a few reconciles', async () => {
    let reconciles = 0;
    const { channel, controller } = make(async () => {
      reconciles++;
      await sleep(20);
    });
    controller.start();
    for (let g = 1; g <= 100; g++) {
      channel.update(obj('a', g - 1), obj('a', g));
      if (g % 10 === 0) await sleep(1);
    }
    await sleep(150);
    expect(reconciles).toBeGreaterThanOrEqual(1);
    expect(reconciles).toBeLessThan(15);
    await controller.stop();
  });

  it('never reconciles a key concurrently with itself, but runs different keys in parallel', async () => {
    const running = new Set<string>();
    let overlapSameKey = false;
    let maxParallel = 0;
    let count = 0;
    const { channel, controller } = make(
      async req => {
        if (running.has(req.name)) overlapSameKey = true;
        running.add(req.name);
        maxParallel = Math.max(maxParallel, running.size);
        await sleep(10);
        running.delete(req.name);
        count++;
      },
      { concurrency: 4 },
    );
    controller.start();
    for (let round = 0; round < 5; round++) {
      for (const name of ['a', 'b', 'c', 'd']) channel.add(obj(name));
      await sleep(4);
    }
    await until(
      () => running.size === 0 && controller.queue.len() === 0 && count >= 4,
    );
    await sleep(50);
    expect(overlapSameKey).toBe(false);
    expect(maxParallel).toBe(4);
    await controller.stop();
  });

  it('honours requeueAfterMs and reports results in metrics', async () => {
    const metrics = new ControllerMetrics({ processMetrics: false });
    const times: number[] = [];
    const { channel, controller } = make(
      () => {
        times.push(Date.now());
        return times.length === 1 ? { requeueAfterMs: 100 } : {};
      },
      { metrics },
    );
    controller.start();
    channel.add(obj('a'));
    await until(() => times.length === 2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(95);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="test",result="requeue_after"} 1',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="test",result="success"} 1',
    );
    expect(text).toContain(
      'workqueue_adds_total{name="test",controller="test"} 2',
    );
    expect(text).toContain(
      'controller_runtime_max_concurrent_reconciles{controller="test"} 1',
    );
    await controller.stop();
  });

  it('applies predicates before queueing', async () => {
    let reconciles = 0;
    const channel = new Channel();
    const controller = new Controller('p', () => void reconciles++, [
      { informer: channel, predicates: [generationChanged], map: requestFor },
    ]);
    controller.start();
    channel.update(obj('a', 1), obj('a', 1)); // status-only change
    await sleep(30);
    expect(reconciles).toBe(0);
    channel.update(obj('a', 1), obj('a', 2));
    await until(() => reconciles === 1);
    await sleep(30);
    expect(reconciles).toBe(1);
    await controller.stop();
  });

  it('lets an in-flight reconcile finish within the grace period, then stops taking work', async () => {
    let finished = 0;
    let started = 0;
    const { channel, controller } = make(async () => {
      started++;
      await sleep(50);
      finished++;
    });
    controller.start();
    channel.add(obj('a'));
    await until(() => started === 1);
    await controller.stop(1000);
    expect(finished).toBe(1);
    channel.add(obj('b'));
    await sleep(30);
    expect(started).toBe(1);
    expect(channel.handlers.size).toBe(0);
  });

  it('aborts the signal of reconciles that outlive the grace period', async () => {
    let aborted = false;
    const { channel, controller } = make(
      (_req, ctx) =>
        new Promise<void>(resolve => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    );
    controller.start();
    channel.add(obj('a'));
    await until(() => controller.queue.inFlight() === 1);
    const t0 = Date.now();
    await controller.stop(50);
    expect(aborted).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('rejects a bad concurrency setting with a clear message', () => {
    expect(
      () => new Controller('x', () => {}, [], { maxConcurrentReconciles: 0 }),
    ).toThrow(
      /maxConcurrentReconciles of controller "x" must be a whole number of at least 1/,
    );
  });
});

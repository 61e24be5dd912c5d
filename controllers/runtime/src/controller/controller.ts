import type { EventHandler } from '../cache/informer';
import { keyOf, parseKey } from '../kube/resource';
import type { ReconnectSource } from '../kube/connectivity';
import type { KubeObject } from '../kube/types';
import type {
  ControllerMetrics,
  ReconcileResultLabel,
} from '../metrics/metrics';
import { Logger, silentLogger } from '../observability/logger';
import { RateLimiter } from '../queue/rateLimiter';
import { WorkQueue } from '../queue/workQueue';
import { passes, Predicate } from './predicates';
import type { Request } from './requests';

/** What a reconcile returns; nothing (or `{}`) means done, do not retry. @public */
export interface Result {
  /** Retry with rate-limited backoff although nothing failed. */
  requeue?: boolean;
  /** Reconcile again after this delay (e.g. to poll something external). */
  requeueAfterMs?: number;
}

/** @public */
export interface ReconcileContext {
  logger: Logger;
  /** Aborted when the controller must stop at once (lost leadership, shutdown bound passed). */
  signal: AbortSignal;
  /** How many times this key has been retried since its last success. */
  retries: number;
}

/** Reads the world for `request` and converges it. Throwing means: retry with backoff. @public */
export type Reconciler = (
  request: Request,
  ctx: ReconcileContext,
) => Promise<Result | void> | Result | void;

/** Anything that reports object events: an Informer, or a channel of your own. @public */
export interface EventSource<T extends KubeObject = KubeObject> {
  addEventHandler(handler: EventHandler<T>): () => void;
}

/** An event source, filtered by predicates, mapped to requests. @public */
export interface Source {
  informer: EventSource;
  predicates: Predicate[];
  map(obj: KubeObject): Request[];
  /**
   * When the controller starts and replays the cache, the objects of this
   * source that need work (true) are queued ahead of the rest, which are
   * queued at low priority. Sources without it replay at low priority.
   */
  needsWork?: (obj: KubeObject) => boolean;
}

/**
 * The default replay rule of the primary type: an object needs work when
 * it is being deleted, has no status, or its spec changed since the status
 * was written (`metadata.generation !== status.observedGeneration`).
 *
 * @public
 */
export function generationNotObserved(obj: KubeObject): boolean {
  if (obj.metadata?.deletionTimestamp) return true;
  const status = (obj as { status?: { observedGeneration?: number } }).status;
  if (!status) return true;
  return obj.metadata?.generation !== status.observedGeneration;
}

/** @public */
export interface ControllerOptions {
  /** Workers reconciling different keys in parallel; default 1. */
  maxConcurrentReconciles?: number;
  /** Retry policy; default exponential 5 ms..1000 s per key plus 10/s overall. */
  rateLimiter?: RateLimiter<string>;
  logger?: Logger;
  metrics?: ControllerMetrics;
  /** Keys that failed while the API server was unreachable are retried as soon as it answers again. */
  reconnects?: ReconnectSource;
}

/**
 * A work queue fed by event sources and drained by workers calling the
 * reconciler: controller-runtime's controller. Keys are `namespace/name`.
 *
 * @public
 */
export class Controller {
  readonly queue: WorkQueue<string>;
  private readonly concurrency: number;
  private readonly logger: Logger;
  private readonly metrics?: ControllerMetrics;
  private readonly unsubscribes: Array<() => void> = [];
  private readonly reconnects?: ReconnectSource;
  private workers: Promise<void>[] = [];
  private readonly abort = new AbortController();
  private started = false;
  /** The source whose cache is being replayed to this controller right now. */
  private replaying?: Source;

  constructor(
    readonly name: string,
    private readonly reconciler: Reconciler,
    private readonly sources: Source[],
    options: ControllerOptions = {},
  ) {
    const concurrency = options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(
        `maxConcurrentReconciles of controller "${name}" must be a whole number of at least 1, got ${concurrency}`,
      );
    }
    this.concurrency = concurrency;
    this.metrics = options.metrics;
    this.logger = (options.logger ?? silentLogger).child({ controller: name });
    this.reconnects = options.reconnects;
    this.queue = new WorkQueue<string>({
      rateLimiter: options.rateLimiter,
      metrics: options.metrics?.queueMetrics(name),
    });
  }

  /** Queues a reconcile of `request` (deduplicated while queued). */
  enqueue(request: Request): void {
    this.queue.add(keyOf(request));
  }

  /**
   * Subscribes to the sources (each replays its cached objects) and starts
   * the workers. Returns at once; `stop` ends it.
   */
  start(): void {
    if (this.started) return;
    if (this.abort.signal.aborted) {
      throw new Error(
        `controller "${this.name}" was stopped and cannot start again`,
      );
    }
    this.started = true;
    this.metrics?.maxConcurrentReconciles.set(
      { controller: this.name },
      this.concurrency,
    );
    this.metrics?.activeWorkers.set({ controller: this.name }, 0);
    if (this.reconnects) {
      this.unsubscribes.push(
        this.reconnects.onReconnect(() => {
          // The requeue that unblocks them: their per-key backoff may have grown to minutes.
          const retried = this.queue.retryBackedOffNow();
          if (retried > 0) {
            this.logger.info(
              'API server answers again: retrying failed keys now',
              { retried },
            );
          }
        }),
      );
    }
    for (const source of this.sources) {
      // A synced informer replays its cache inside addEventHandler.
      this.replaying = source;
      try {
        this.unsubscribes.push(
          source.informer.addEventHandler({
            add: obj => this.handle(source, 'create', obj),
            update: (old, obj) => this.handle(source, 'update', obj, old),
            delete: obj => this.handle(source, 'delete', obj),
          }),
        );
      } finally {
        this.replaying = undefined;
      }
    }
    this.workers = Array.from({ length: this.concurrency }, () =>
      this.worker(),
    );
    this.logger.info('controller started', { workers: this.concurrency });
  }

  /**
   * Stops taking work and waits up to `graceMs` for in-flight reconciles;
   * then aborts their signal. `graceMs` 0 aborts at once.
   */
  async stop(graceMs = 0): Promise<void> {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    const drained = this.queue.shutDownWithDrain();
    if (graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        drained,
        new Promise<void>(resolve => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    }
    if (this.queue.inFlight() > 0) {
      this.logger.warn('aborting reconciles still running', {
        inFlight: this.queue.inFlight(),
      });
    }
    const abandoned = this.queue.inFlight();
    this.abort.abort(new Error(`controller "${this.name}" stopped`));
    // Reconciles that ignore the signal are left behind rather than waited for.
    if (abandoned === 0) await Promise.all(this.workers);
    this.logger.info('controller stopped', { abandoned });
  }

  private handle(
    source: Source,
    kind: 'create' | 'update' | 'delete',
    obj: KubeObject,
    old?: KubeObject,
  ): void {
    if (!passes(source.predicates, kind, obj, old)) return;
    // An update may move an owned object away from its old owner: tell it too.
    const requests = old
      ? [...source.map(obj), ...source.map(old)]
      : source.map(obj);
    // Replayed settled objects wait behind the ones needing work (e.g. spec changes made while no leader ran).
    const settled =
      this.replaying === source && !(source.needsWork?.(obj) ?? false);
    for (const key of new Set(requests.map(keyOf))) {
      if (settled) this.queue.addLowPriority(key);
      else this.queue.add(key);
    }
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.process(key);
    }
  }

  private async process(key: string): Promise<void> {
    const labels = { controller: this.name };
    const logger = this.logger.child({ key });
    const started = process.hrtime.bigint();
    this.metrics?.activeWorkers.inc(labels);
    let outcome: ReconcileResultLabel = 'success';
    try {
      const result = await this.reconciler(parseKey(key), {
        logger,
        signal: this.abort.signal,
        retries: this.queue.numRequeues(key),
      });
      if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
        outcome = 'requeue_after';
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfterMs);
      } else if (result?.requeue) {
        outcome = 'requeue';
        this.queue.addRateLimited(key);
      } else {
        this.queue.forget(key);
      }
    } catch (err) {
      outcome = 'error';
      this.metrics?.reconcileErrors.inc(labels);
      if (!this.abort.signal.aborted) {
        logger.error('reconcile failed', {
          error: err,
          retries: this.queue.numRequeues(key),
        });
        this.queue.addRateLimited(key);
      }
    } finally {
      this.queue.done(key);
      this.metrics?.activeWorkers.dec(labels);
      this.metrics?.reconcileTotal.inc({ ...labels, result: outcome });
      this.metrics?.reconcileTime.observe(
        labels,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
  }
}

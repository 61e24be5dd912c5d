import { defaultControllerRateLimiter, RateLimiter } from './rateLimiter';

/** Observes a work queue; the Prometheus implementation lives in metrics/. @public */
export interface WorkQueueMetrics {
  /** An item entered the queue (not counted when it was already queued). */
  added(): void;
  /** Current number of items waiting (not processing, not delayed). */
  depth(n: number): void;
  /** An item was taken; `waitedMs` since it was queued. */
  taken(waitedMs: number): void;
  /** An item was finished; `workedMs` since it was taken. */
  finished(workedMs: number): void;
  /** An item was put back by addRateLimited. */
  retried(): void;
}

const noMetrics: WorkQueueMetrics = {
  added() {},
  depth() {},
  taken() {},
  finished() {},
  retried() {},
};

/** @public */
export interface WorkQueueOptions<T> {
  rateLimiter?: RateLimiter<T>;
  metrics?: WorkQueueMetrics;
}

/**
 * client-go's rate-limiting work queue:
 * - an item is queued at most once however often it is added ("dirty" set);
 * - an item being processed is never handed out again until `done`; if it was
 *   added meanwhile, `done` queues it again, so no change is lost and no key
 *   is ever worked on concurrently with itself;
 * - `addAfter` delays an item (the earliest requested time wins);
 * - `addRateLimited` delays it by the rate limiter's backoff;
 * - `addLowPriority` queues an item that is probably settled (a controller
 *   replaying its cache): it is handed out only when no other item is queued
 *   or being processed, so the work that matters is not slowed by hundreds of
 *   no-op reconciles; a later `add` promotes it.
 *
 * @public
 */
export class WorkQueue<T> {
  private readonly queue: T[] = [];
  private head = 0;
  private low: T[] = [];
  private lowHead = 0;
  /** Items in the low lane that were not promoted since (the lane skips the others). */
  private readonly lowQueued = new Set<T>();
  /** Items taken from the normal lane and not done yet: they hold back the low lane. */
  private readonly urgentInFlight = new Set<T>();
  private readonly dirty = new Set<T>();
  private readonly processing = new Map<T, number>();
  private readonly queuedAt = new Map<T, number>();
  private readonly delayed = new Map<
    T,
    { readyAt: number; timer: NodeJS.Timeout }
  >();
  /** Items waiting out a rate-limited backoff (a failure), not a requested delay. */
  private readonly backingOff = new Set<T>();
  private readonly waiters: Array<(item: T | undefined) => void> = [];
  private drainWaiters: Array<() => void> = [];
  private shuttingDown = false;
  private readonly rateLimiter: RateLimiter<T>;
  private readonly metrics: WorkQueueMetrics;

  constructor(options: WorkQueueOptions<T> = {}) {
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>();
    this.metrics = options.metrics ?? noMetrics;
    this.metrics.depth(0);
  }

  /** Number of items waiting to be taken. */
  len(): number {
    return this.queue.length - this.head + this.lowQueued.size;
  }

  /** Number of items currently being processed. */
  inFlight(): number {
    return this.processing.size;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(item: T): void {
    if (this.shuttingDown) return;
    if (this.lowQueued.delete(item)) {
      this.push(item); // promoted: it needs work after all
      return;
    }
    if (this.dirty.has(item)) return;
    this.metrics.added();
    this.dirty.add(item);
    this.queuedAt.set(item, Date.now());
    if (this.processing.has(item)) return; // re-queued by done()
    this.push(item);
  }

  /** Queues `item` behind every other item queued or being processed (see the class comment). */
  addLowPriority(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.metrics.added();
    this.dirty.add(item);
    this.queuedAt.set(item, Date.now());
    if (this.processing.has(item)) return; // re-queued by done()
    this.lowQueued.add(item);
    this.low.push(item);
    this.dispatch();
  }

  /** Adds `item` once `delayMs` has passed; an earlier pending time wins. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    const readyAt = Date.now() + delayMs;
    const pending = this.delayed.get(item);
    if (pending && pending.readyAt <= readyAt) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(item);
      this.backingOff.delete(item);
      this.add(item);
    }, delayMs);
    timer.unref?.();
    this.delayed.set(item, { readyAt, timer });
  }

  /** Adds `item` after its rate-limited backoff. */
  addRateLimited(item: T): void {
    this.metrics.retried();
    this.addAfter(item, this.rateLimiter.when(item));
    if (this.delayed.has(item)) this.backingOff.add(item);
  }

  /** Clears `item`'s backoff history (after a successful reconcile). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
    this.backingOff.delete(item);
  }

  /**
   * Adds now every item waiting out a rate-limited backoff, with its history
   * cleared: what made them fail (the API server gone) has ended, and their
   * backoff may have grown to minutes. Requested delays (`addAfter`) stay.
   * Returns how many were added.
   */
  retryBackedOffNow(): number {
    let added = 0;
    for (const item of [...this.backingOff]) {
      this.backingOff.delete(item);
      const pending = this.delayed.get(item);
      if (!pending) continue;
      clearTimeout(pending.timer);
      this.delayed.delete(item);
      this.rateLimiter.forget(item);
      this.add(item);
      added += 1;
    }
    return added;
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * Waits for the next item and marks it as processing. Resolves `undefined`
   * once the queue shuts down (and has nothing left to hand out).
   */
  get(): Promise<T | undefined> {
    const item = this.takeNext();
    if (item !== undefined) return Promise.resolve(item);
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise(resolve => this.waiters.push(resolve));
  }

  /** Marks `item` as no longer processing; re-queues it if it was added meanwhile. */
  done(item: T): void {
    const startedAt = this.processing.get(item);
    if (startedAt === undefined) return;
    this.processing.delete(item);
    this.urgentInFlight.delete(item);
    this.metrics.finished(Date.now() - startedAt);
    if (this.dirty.has(item) && !this.shuttingDown) {
      this.push(item);
    }
    this.dispatch();
    if (this.processing.size === 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  /**
   * Stops accepting items and wakes every waiting `get` with `undefined`.
   * Items still queued are dropped; delayed items are cancelled.
   */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.backingOff.clear();
    this.queue.length = 0;
    this.head = 0;
    this.low = [];
    this.lowHead = 0;
    this.lowQueued.clear();
    this.dirty.clear();
    this.queuedAt.clear();
    this.metrics.depth(0);
    const waiters = this.waiters.splice(0);
    for (const w of waiters) w(undefined);
  }

  /** Shuts down, then resolves once every item being processed is done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>(resolve => this.drainWaiters.push(resolve));
  }

  private push(item: T): void {
    this.queue.push(item);
    this.metrics.depth(this.len());
    this.dispatch();
  }

  /** Hands queued items to waiting workers. */
  private dispatch(): void {
    while (this.waiters.length > 0) {
      const item = this.takeNext();
      if (item === undefined) return;
      this.waiters.shift()!(item);
    }
  }

  private takeNext(): T | undefined {
    if (this.head < this.queue.length) {
      const item = this.queue[this.head];
      this.head += 1;
      // Compact occasionally so the array does not grow forever.
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.markProcessing(item);
      this.urgentInFlight.add(item);
      this.metrics.depth(this.len());
      return item;
    }
    if (this.urgentInFlight.size > 0) return undefined;
    while (this.lowHead < this.low.length) {
      const item = this.low[this.lowHead];
      this.lowHead += 1;
      if (!this.lowQueued.delete(item)) continue; // promoted meanwhile
      this.markProcessing(item);
      this.metrics.depth(this.len());
      return item;
    }
    this.low = [];
    this.lowHead = 0;
    return undefined;
  }

  private markProcessing(item: T): void {
    const now = Date.now();
    this.dirty.delete(item);
    this.processing.set(item, now);
    this.metrics.taken(now - (this.queuedAt.get(item) ?? now));
    this.queuedAt.delete(item);
  }
}

/**
 * Rate limiters for retrying work queue items, with controller-runtime's
 * defaults: per-item exponential backoff from 5 ms to 1000 s, combined with
 * an overall token bucket (10 per second, burst 100) so that a flood of
 * failing items cannot hammer the API server.
 *
 * They are plain state machines over an injected clock: `when(item)` returns
 * the delay in milliseconds before the item may be retried.
 */

/** Decides how long an item waits before its next retry. @public */
export interface RateLimiter<T> {
  /** Delay in ms before `item` may be processed again; counts one failure. */
  when(item: T): number;
  /** Clears the failure history of `item` (call after a success). */
  forget(item: T): void;
  /** How many times `item` has been retried since it was last forgotten. */
  numRequeues(item: T): number;
}

export type Clock = () => number;

/** Per-item exponential backoff: base * 2^failures, capped at max. @public */
export class ItemExponentialRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1000_000,
  ) {
    if (!(baseDelayMs > 0)) {
      throw new Error(
        `baseDelayMs must be a positive number of milliseconds, got ${baseDelayMs}`,
      );
    }
    if (!(maxDelayMs >= baseDelayMs)) {
      throw new Error(
        `maxDelayMs (${maxDelayMs}) must be at least baseDelayMs (${baseDelayMs})`,
      );
    }
  }

  when(item: T): number {
    const failures = this.failures.get(item) ?? 0;
    this.failures.set(item, failures + 1);
    return exponentialDelay(this.baseDelayMs, this.maxDelayMs, failures);
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** base * 2^failures, capped at max (and safe from overflow). @public */
export function exponentialDelay(
  baseMs: number,
  maxMs: number,
  failures: number,
): number {
  // 2^64 * base already exceeds any sane max; avoid Infinity arithmetic.
  if (failures >= 64) return maxMs;
  return Math.min(maxMs, baseMs * 2 ** failures);
}

/**
 * Overall token bucket: `ratePerSecond` tokens refill continuously up to
 * `burst`. Every `when` takes one token; when the bucket is empty the delay
 * is the time until that token will have been refilled (like Go's
 * rate.Limiter.Reserve).
 *
 * @public
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond = 10,
    private readonly burst = 100,
    private readonly now: Clock = Date.now,
  ) {
    if (!(ratePerSecond > 0)) {
      throw new Error(
        `ratePerSecond must be a positive number, got ${ratePerSecond}`,
      );
    }
    if (!(burst >= 1)) {
      throw new Error(`burst must be at least 1, got ${burst}`);
    }
    this.tokens = burst;
    this.last = now();
  }

  when(_item: T): number {
    const now = this.now();
    const elapsedSeconds = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(
      this.burst,
      this.tokens + elapsedSeconds * this.ratePerSecond,
    );
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    return Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** Takes the longest delay of several limiters, as client-go's MaxOf. @public */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    if (limiters.length === 0) {
      throw new Error('MaxOfRateLimiter needs at least one limiter');
    }
    this.limiters = limiters;
  }

  when(item: T): number {
    // Every limiter must see the failure, so no short-circuit.
    return Math.max(...this.limiters.map(l => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(...this.limiters.map(l => l.numRequeues(item)));
  }
}

/** controller-runtime's default: exponential 5 ms..1000 s, bucket 10/s burst 100. @public */
export function defaultControllerRateLimiter<T>(
  now: Clock = Date.now,
): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialRateLimiter<T>(5, 1000_000),
    new BucketRateLimiter<T>(10, 100, now),
  );
}

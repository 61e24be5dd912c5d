/**
 * Backoff between restarts of a failing loop (watch, lease renewal...):
 * doubles from `initialMs` to `maxMs`, with up to `jitter` of random extra
 * so that many clients do not retry in lockstep.
 *
 * @public
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 800,
    private readonly maxMs = 30_000,
    private readonly jitter = 0.2,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const base = Math.min(
      this.maxMs,
      this.initialMs * 2 ** Math.min(this.attempt, 32),
    );
    this.attempt += 1;
    return Math.round(base * (1 + this.jitter * this.random()));
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

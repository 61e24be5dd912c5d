/**
 * Whether the API server answers, as one client sees it. Informers and work
 * queues back off while it does not (up to 30 s and 1,000 s), so without a
 * signal they would notice its return only when their timers run out. A
 * request that gets no HTTP answer marks the server down and starts one
 * probe (`GET /readyz` about every second); the first answer below 500 (the
 * probe's or any other request's) marks it up and wakes everything waiting
 * for it: informers restart their watch at once with a reset backoff,
 * controllers retry the keys that failed meanwhile.
 */
/** Who can be told that the API server answers again. */
export interface ReconnectSource {
  /** Calls `listener` each time the server answers after an outage; returns the unsubscribe. */
  onReconnect(listener: () => void): () => void;
}

export interface ConnectivityOptions {
  /** Time between probes while the server is down; default 1 s (plus up to 20 % jitter). */
  probeIntervalMs?: number;
  random?: () => number;
}

export class Connectivity implements ReconnectSource {
  private down = false;
  private reconnect = new AbortController();
  private readonly listeners = new Set<() => void>();
  private readonly closed = new AbortController();
  private readonly intervalMs: number;
  private readonly random: () => number;

  /** `probe` resolves once the server gave any HTTP answer below 500, and rejects otherwise. */
  constructor(
    private readonly probe: () => Promise<void>,
    options: ConnectivityOptions = {},
  ) {
    this.intervalMs = options.probeIntervalMs ?? 1000;
    this.random = options.random ?? Math.random;
  }

  isDown(): boolean {
    return this.down;
  }

  /** Aborts when the server answers again after an outage (never, while it is up). */
  reconnectSignal(): AbortSignal {
    return this.reconnect.signal;
  }

  onReconnect(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A request got no HTTP answer (refused, reset, timed out). */
  failed(): void {
    if (this.down || this.closed.signal.aborted) return;
    this.down = true;
    void this.probeUntilUp();
  }

  /** A request got an HTTP answer below 500. */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    const woken = this.reconnect;
    this.reconnect = new AbortController();
    woken.abort(new Error('the API server answers again'));
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure must not keep the others from hearing it.
      }
    }
  }

  /** Stops probing (the client is closed). */
  close(): void {
    this.closed.abort();
  }

  private async probeUntilUp(): Promise<void> {
    while (this.down && !this.closed.signal.aborted) {
      await this.pause(this.intervalMs * (1 + 0.2 * this.random()));
      if (!this.down || this.closed.signal.aborted) return;
      try {
        await this.probe();
        this.answered();
      } catch {
        // still down: probe again
      }
    }
  }

  /** Like sleep, but never keeps the process alive and ends when closed. */
  private pause(ms: number): Promise<void> {
    return new Promise(resolve => {
      const timer = setTimeout(resolve, ms);
      timer.unref?.();
      this.closed.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}

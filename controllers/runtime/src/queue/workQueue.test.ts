import { ItemExponentialRateLimiter } from './rateLimiter';
import { WorkQueue } from './workQueue';

describe('WorkQueue', () => {
  it('keeps one entry per item however often it is added', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(q.len()).toBe(0);
  });

  it('never hands out an item that is being processed; re-queues it on done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a'); // changed while processing
    expect(q.len()).toBe(0);
    let second: string | undefined;
    const pending = q.get().then(v => (second = v));
    await Promise.resolve();
    expect(second).toBeUndefined();
    q.done(first!);
    await pending;
    expect(second).toBe('a');
  });

  it('does not re-queue on done when nothing was added meanwhile', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.done((await q.get())!);
    expect(q.len()).toBe(0);
    expect(q.inFlight()).toBe(0);
  });

  it('hands out low-priority items only when nothing else is queued or in flight; add promotes them', async () => {
    const q = new WorkQueue<string>();
    q.addLowPriority('settled-1');
    q.addLowPriority('settled-2');
    q.addLowPriority('settled-3');
    q.add('urgent');
    q.add('settled-2'); // an event says it needs work after all
    expect(q.len()).toBe(4);
    expect(await q.get()).toBe('urgent');
    expect(await q.get()).toBe('settled-2');
    // Both are in flight: the low lane waits for them.
    let next: string | undefined;
    const pending = q.get().then(v => (next = v));
    q.done('urgent');
    await Promise.resolve();
    expect(next).toBeUndefined();
    q.done('settled-2');
    await pending;
    expect(next).toBe('settled-1');
    expect(await q.get()).toBe('settled-3'); // low items do not hold each other back
    expect(q.len()).toBe(0);
  });

  it('wakes a waiting get when an item arrives', async () => {
    const q = new WorkQueue<string>();
    const got = q.get();
    q.add('x');
    await expect(got).resolves.toBe('x');
  });

  describe('with fake timers', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('delays addAfter items, earliest time wins', async () => {
      const q = new WorkQueue<string>();
      q.addAfter('a', 1000);
      q.addAfter('a', 200);
      q.addAfter('a', 5000);
      jest.advanceTimersByTime(199);
      expect(q.len()).toBe(0);
      jest.advanceTimersByTime(1);
      expect(q.len()).toBe(1);
      expect(await q.get()).toBe('a');
      q.done('a');
      jest.advanceTimersByTime(10_000);
      expect(q.len()).toBe(0); // the later timers were replaced, not added
    });

    it('backs off rate-limited items exponentially until forgotten', () => {
      const q = new WorkQueue<string>({
        rateLimiter: new ItemExponentialRateLimiter(5, 1000),
      });
      q.addRateLimited('a');
      jest.advanceTimersByTime(4);
      expect(q.len()).toBe(0);
      jest.advanceTimersByTime(1);
      expect(q.len()).toBe(1);
      expect(q.numRequeues('a')).toBe(1);
      q.forget('a');
      expect(q.numRequeues('a')).toBe(0);
    });

    it('counts metrics for adds, retries, waits and work', async () => {
      const seen = {
        added: 0,
        retried: 0,
        taken: [] as number[],
        finished: [] as number[],
        depth: [] as number[],
      };
      const q = new WorkQueue<string>({
        rateLimiter: new ItemExponentialRateLimiter(5, 1000),
        metrics: {
          added: () => seen.added++,
          retried: () => seen.retried++,
          taken: ms => seen.taken.push(ms),
          finished: ms => seen.finished.push(ms),
          depth: n => seen.depth.push(n),
        },
      });
      q.add('a');
      q.add('a');
      jest.advanceTimersByTime(30);
      const item = (await q.get())!;
      jest.advanceTimersByTime(70);
      q.done(item);
      q.addRateLimited('a');
      expect(seen).toMatchObject({
        added: 1,
        retried: 1,
        taken: [30],
        finished: [70],
      });
      expect(seen.depth).toEqual([0, 1, 0]);
    });
  });

  it('shutDown wakes waiting getters with undefined and ignores new adds', async () => {
    const q = new WorkQueue<string>();
    const waiting = q.get();
    q.shutDown();
    await expect(waiting).resolves.toBeUndefined();
    q.add('a');
    expect(q.len()).toBe(0);
    await expect(q.get()).resolves.toBeUndefined();
  });

  it('shutDownWithDrain waits for items in flight', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const item = (await q.get())!;
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await new Promise(r => setTimeout(r, 10));
    expect(drained).toBe(false);
    q.done(item);
    await drain;
    expect(drained).toBe(true);
  });

  it('handles many items in FIFO order', async () => {
    const q = new WorkQueue<number>();
    for (let i = 0; i < 5000; i++) q.add(i);
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const v = (await q.get())!;
      out.push(v);
      q.done(v);
    }
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it('retries items waiting out a failure backoff at once, history cleared, and leaves requested delays alone', async () => {
    const q = new WorkQueue<string>({
      rateLimiter: new ItemExponentialRateLimiter(60_000, 600_000),
    });
    q.addRateLimited('failed');
    q.addRateLimited('failed'); // a second failure: its backoff doubles
    q.addAfter('polling', 60_000);
    expect(q.len()).toBe(0);
    expect(q.numRequeues('failed')).toBe(2);
    expect(q.retryBackedOffNow()).toBe(1);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('failed');
    expect(q.numRequeues('failed')).toBe(0);
    expect(q.retryBackedOffNow()).toBe(0); // nothing left backing off; 'polling' still waits
    expect(q.len()).toBe(0);
    q.shutDown();
  });
});

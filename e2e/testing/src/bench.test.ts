import {
  cpuSecondsOf,
  inParallel,
  percentile,
  percentiles,
  ratio,
} from './bench';

describe('benchmark helpers', () => {
  it('takes the nearest-rank percentile', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 95)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentiles([10, 1, 5, 3, 7])).toEqual({ p50: 5, p95: 10 });
  });

  it('prints ratios with two decimals', () => {
    expect(ratio(3, 2)).toBe('1.50');
  });

  it('runs every item once with at most `concurrency` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel(10, 3, async i => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise(r => setTimeout(r, 1));
      done.push(i);
      inFlight--;
    });
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
  });
});

describe('cpuSecondsOf', () => {
  it("reads this process's CPU seconds, which grow as it works, and NaN for no process", () => {
    const before = cpuSecondsOf(process.pid);
    expect(before).toBeGreaterThanOrEqual(0);
    // Busy until the clock ticks (10 ms) or 5 s pass: a busy process's CPU time grows.
    const until = Date.now() + 5000;
    let now = before;
    while (now <= before && Date.now() < until) now = cpuSecondsOf(process.pid);
    expect(now).toBeGreaterThan(before);
    expect(cpuSecondsOf(undefined)).toBeNaN();
  });
});

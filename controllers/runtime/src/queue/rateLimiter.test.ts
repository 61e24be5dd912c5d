import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  exponentialDelay,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
} from './rateLimiter';

describe('ItemExponentialRateLimiter', () => {
  it('doubles from 5 ms per failure of the same item and caps at 1000 s', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    const delays = Array.from({ length: 5 }, () => limiter.when('a'));
    expect(delays).toEqual([5, 10, 20, 40, 80]);
    for (let i = 0; i < 100; i++) limiter.when('a');
    expect(limiter.when('a')).toBe(1000_000);
    expect(limiter.numRequeues('a')).toBe(106);
  });

  it('keeps items independent and starts over after forget', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    limiter.when('a');
    limiter.when('a');
    expect(limiter.when('b')).toBe(5);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
  });

  it('rejects nonsensical settings with a message naming the field', () => {
    expect(() => new ItemExponentialRateLimiter(0)).toThrow(/baseDelayMs/);
    expect(() => new ItemExponentialRateLimiter(10, 5)).toThrow(/maxDelayMs/);
  });
});

describe('exponentialDelay', () => {
  it('never overflows', () => {
    expect(exponentialDelay(5, 1000, 10_000)).toBe(1000);
    expect(exponentialDelay(5, 1000, 63)).toBe(1000);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces items at the refill rate', () => {
    let now = 0;
    const limiter = new BucketRateLimiter<string>(10, 3, () => now);
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c')]).toEqual([
      0, 0, 0,
    ]);
    expect(limiter.when('d')).toBe(100);
    expect(limiter.when('e')).toBe(200);
    now = 1000; // 10 tokens refilled, minus the 2 already owed, capped at burst 3
    expect(limiter.when('f')).toBe(0);
  });

  it('validates its settings', () => {
    expect(() => new BucketRateLimiter(0)).toThrow(/ratePerSecond/);
    expect(() => new BucketRateLimiter(1, 0)).toThrow(/burst/);
  });
});

describe('MaxOfRateLimiter', () => {
  it('takes the longest delay and forgets in every limiter', () => {
    const now = 0;
    const limiter = new MaxOfRateLimiter<string>(
      new ItemExponentialRateLimiter(5, 1000),
      new BucketRateLimiter(1, 1, () => now),
    );
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('a')).toBe(1000); // bucket empty: 1 s, exponential: 10 ms
    expect(limiter.numRequeues('a')).toBe(2);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('matches controller-runtime: 5 ms first retry, burst of 100 unthrottled', () => {
    const now = 0;
    const limiter = defaultControllerRateLimiter<string>(() => now);
    const first = Array.from({ length: 100 }, (_, i) => limiter.when(`k${i}`));
    expect(new Set(first)).toEqual(new Set([5]));
    // The 101st distinct item in the same instant waits for a token (100 ms at 10/s).
    expect(limiter.when('k100')).toBe(100);
  });
});

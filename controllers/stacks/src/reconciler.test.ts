import { healthRecheckDelay } from './reconciler';

describe('healthRecheckDelay', () => {
  it('starts at the first delay, doubles with each miss in a row, and stops at the recheck interval', () => {
    expect(
      [1, 2, 3, 4, 5, 6].map(n => healthRecheckDelay(n, 5000, 60_000)),
    ).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(healthRecheckDelay(1000, 5000, 60_000)).toBe(60_000);
  });
});

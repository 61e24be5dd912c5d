import { nextCheckDelay } from './certManager';

describe('nextCheckDelay', () => {
  const tenMinutes = 600_000;

  it('waits the check interval while every caBundle is published', () => {
    expect(nextCheckDelay(true, 0, tenMinutes)).toBe(tenMinutes);
  });

  it('retries within seconds after a failure, doubling to 30 s', () => {
    expect(
      [0, 1, 2, 3, 4, 5, 6, 40].map(n => nextCheckDelay(false, n, tenMinutes)),
    ).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(nextCheckDelay(false, 0, tenMinutes, 250)).toBe(250);
  });

  it('never waits longer than the check interval', () => {
    expect(nextCheckDelay(false, 10, 5000)).toBe(5000);
  });
});

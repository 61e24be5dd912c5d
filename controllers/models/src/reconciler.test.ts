import { sameStatus } from './reconciler';

describe('sameStatus', () => {
  it('ignores key order (the server returns its own) but not values', () => {
    const desired = {
      phase: 'Ready' as const,
      progress: 100,
      conditions: [
        {
          type: 'Ready',
          status: 'True' as const,
          reason: 'Downloaded',
          message: 'm',
          lastTransitionTime: 't',
        },
      ],
    };
    const live = {
      conditions: [
        {
          status: 'True' as const,
          message: 'm',
          type: 'Ready',
          lastTransitionTime: 't',
          reason: 'Downloaded',
        },
      ],
      progress: 100,
      phase: 'Ready' as const,
    };
    expect(sameStatus(desired, live)).toBe(true);
    expect(sameStatus(desired, { ...live, progress: 99 })).toBe(false);
    expect(sameStatus(desired, undefined)).toBe(false);
  });
});

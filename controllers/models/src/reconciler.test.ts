import { hasPodLog, sameStatus } from './reconciler';

describe('hasPodLog', () => {
  const job = (status: Record<string, unknown>) =>
    ({ metadata: { name: 'j' }, status } as Parameters<typeof hasPodLog>[0]);

  it('is false while the pod is not created or not started (no pod list for nothing)', () => {
    expect(hasPodLog(job({}))).toBe(false);
    expect(hasPodLog(job({ active: 1, ready: 0 }))).toBe(false);
  });

  it('is true for a running pod, a finished one, and a Job with a condition', () => {
    expect(hasPodLog(job({ active: 1, ready: 1 }))).toBe(true);
    expect(hasPodLog(job({ succeeded: 1 }))).toBe(true);
    expect(hasPodLog(job({ failed: 1 }))).toBe(true);
    expect(
      hasPodLog(job({ conditions: [{ type: 'Failed', status: 'True' }] })),
    ).toBe(true);
  });

  it('counts active pods where the cluster reports no ready count', () => {
    expect(hasPodLog(job({ active: 1 }))).toBe(true);
  });
});

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

import {
  claimedSpec,
  leaseState,
  microTime,
  recordFingerprint,
  leaderIdentity,
  releasedSpec,
  standbyDelayMs,
  validateTiming,
} from './lease';

const now = new Date('2025-01-02T03:04:05.678Z');

describe('leaseState', () => {
  const base = {
    identity: 'me',
    nowMs: 100_000,
    observedAtMs: 90_000,
    defaultLeaseDurationMs: 15_000,
  };

  it('is free when nobody holds it', () => {
    expect(leaseState({ ...base, spec: undefined })).toBe('free');
    expect(leaseState({ ...base, spec: { holderIdentity: null } })).toBe(
      'free',
    );
  });

  it('is mine when I hold it', () => {
    expect(leaseState({ ...base, spec: { holderIdentity: 'me' } })).toBe(
      'mine',
    );
  });

  it('is held by another until its duration has passed since I saw it change', () => {
    const spec = { holderIdentity: 'other', leaseDurationSeconds: 15 };
    expect(leaseState({ ...base, spec, nowMs: 104_999 })).toBe('held');
    expect(leaseState({ ...base, spec, nowMs: 105_000 })).toBe('free');
    // The record's own duration wins over the default.
    expect(
      leaseState({
        ...base,
        spec: { holderIdentity: 'other', leaseDurationSeconds: 60 },
        nowMs: 105_000,
      }),
    ).toBe('held');
  });
});

describe('claimedSpec / releasedSpec', () => {
  it('takes over with a new acquire time and one more transition', () => {
    const spec = claimedSpec(
      { holderIdentity: 'old', leaseTransitions: 3 },
      'me',
      now,
      15,
    );
    expect(spec).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: '2025-01-02T03:04:05.678000Z',
      renewTime: '2025-01-02T03:04:05.678000Z',
      leaseTransitions: 4,
    });
  });

  it('renews keeping acquire time and transitions', () => {
    const current = {
      holderIdentity: 'me',
      acquireTime: 'earlier',
      leaseTransitions: 2,
    };
    expect(claimedSpec(current, 'me', now, 15)).toMatchObject({
      acquireTime: 'earlier',
      leaseTransitions: 2,
      renewTime: microTime(now),
    });
  });

  it('counts no transition when the lease was empty', () => {
    expect(claimedSpec(undefined, 'me', now, 15).leaseTransitions).toBe(0);
    expect(
      claimedSpec({ holderIdentity: null, leaseTransitions: 5 }, 'me', now, 15)
        .leaseTransitions,
    ).toBe(5);
  });

  it('releases to nobody with a 1 s duration', () => {
    expect(
      releasedSpec({ holderIdentity: 'me', leaseTransitions: 2 }, now),
    ).toMatchObject({
      holderIdentity: null,
      leaseDurationSeconds: 1,
      leaseTransitions: 2,
    });
  });

  it('fingerprints changes of the record', () => {
    const a = claimedSpec(undefined, 'me', now, 15);
    const b = claimedSpec(a, 'me', new Date(now.getTime() + 1), 15);
    expect(recordFingerprint(a)).not.toBe(recordFingerprint(b));
    expect(recordFingerprint(a)).toBe(recordFingerprint({ ...a }));
  });
});

describe('validateTiming', () => {
  it('accepts controller-runtime defaults', () => {
    expect(() =>
      validateTiming({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      }),
    ).not.toThrow();
  });
  it('names the field that is wrong', () => {
    expect(() =>
      validateTiming({
        leaseDurationMs: 10_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      }),
    ).toThrow(/leaseDurationMs/);
    expect(() =>
      validateTiming({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 2_000,
        retryPeriodMs: 2_000,
      }),
    ).toThrow(/renewDeadlineMs/);
    expect(() =>
      validateTiming({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 0,
      }),
    ).toThrow(/retryPeriodMs/);
    expect(() =>
      validateTiming({
        leaseDurationMs: 15_500,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      }),
    ).toThrow(/whole seconds/);
  });
});

describe('standbyDelayMs', () => {
  const base = { retryPeriodMs: 2000, nowMs: 100_000, jitter: 0 };

  it('looks every quarter retry period, jittered up to 20 %', () => {
    expect(standbyDelayMs(base)).toBe(500);
    expect(standbyDelayMs({ ...base, jitter: 1 })).toBe(600);
    expect(standbyDelayMs({ ...base, expiresAtMs: 110_000 })).toBe(500);
  });

  it('wakes at the moment the observed record expires, not a poll later', () => {
    expect(standbyDelayMs({ ...base, expiresAtMs: 100_120 })).toBe(120);
    expect(standbyDelayMs({ ...base, expiresAtMs: 99_000 })).toBe(0);
  });
});

describe('leaderIdentity', () => {
  const args = { hostname: 'core-7d9f-abcde', random: () => 'r4nd0m' };

  it('is the named slot, else the pod name in a cluster, else unique per process', () => {
    expect(
      leaderIdentity({
        ...args,
        env: { LEADER_ELECTION_ID: 'dev-core', KUBERNETES_SERVICE_HOST: 'x' },
      }),
    ).toBe('dev-core');
    expect(
      leaderIdentity({ ...args, env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' } }),
    ).toBe('core-7d9f-abcde');
    expect(leaderIdentity({ ...args, env: { LEADER_ELECTION_ID: ' ' } })).toBe(
      'core-7d9f-abcde_r4nd0m',
    );
  });
});

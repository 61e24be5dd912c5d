/**
 * The pure rules of leader election on a coordination.k8s.io Lease, as in
 * client-go: who may take the lease, and what the record becomes.
 *
 * Expiry is judged by the local time at which this candidate last saw the
 * record change (never by comparing clocks across machines).
 */

export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number;
}

export type LeaseState = 'free' | 'mine' | 'held';

export function leaseState(args: {
  spec: LeaseSpec | undefined;
  identity: string;
  nowMs: number;
  /** Local time when the current record was first seen. */
  observedAtMs: number;
  /** Used when the record does not say its duration. */
  defaultLeaseDurationMs: number;
}): LeaseState {
  const { spec, identity } = args;
  if (!spec?.holderIdentity) return 'free';
  if (spec.holderIdentity === identity) return 'mine';
  const durationMs = spec.leaseDurationSeconds
    ? spec.leaseDurationSeconds * 1000
    : args.defaultLeaseDurationMs;
  return args.observedAtMs + durationMs <= args.nowMs ? 'free' : 'held';
}

/** The record after `identity` acquires or renews the lease at `now`. */
export function claimedSpec(
  current: LeaseSpec | undefined,
  identity: string,
  now: Date,
  leaseDurationSeconds: number,
): LeaseSpec {
  const stamp = microTime(now);
  if (current?.holderIdentity === identity) {
    return {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: current.acquireTime ?? stamp,
      renewTime: stamp,
      leaseTransitions: current.leaseTransitions ?? 0,
    };
  }
  return {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: stamp,
    renewTime: stamp,
    leaseTransitions:
      (current?.leaseTransitions ?? 0) + (current?.holderIdentity ? 1 : 0),
  };
}

/** The record a leader writes when it steps down, so others take over at once. */
export function releasedSpec(
  current: LeaseSpec | undefined,
  now: Date,
): LeaseSpec {
  const stamp = microTime(now);
  return {
    holderIdentity: null,
    leaseDurationSeconds: 1,
    acquireTime: stamp,
    renewTime: stamp,
    leaseTransitions: current?.leaseTransitions ?? 0,
  };
}

/** What identifies a version of the record: a change resets the observed time. */
export function recordFingerprint(spec: LeaseSpec | undefined): string {
  return JSON.stringify([
    spec?.holderIdentity ?? '',
    spec?.renewTime ?? '',
    spec?.acquireTime ?? '',
    spec?.leaseTransitions ?? 0,
    spec?.leaseDurationSeconds ?? 0,
  ]);
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

export interface LeaderElectionTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's rules: lease > renew deadline > 1.2 x retry period, all positive. */
export function validateTiming(t: LeaderElectionTiming): void {
  if (!(t.retryPeriodMs > 0)) {
    throw new Error(
      `leaderElection.retryPeriodMs must be positive, got ${t.retryPeriodMs}`,
    );
  }
  if (!(t.renewDeadlineMs > t.retryPeriodMs * 1.2)) {
    throw new Error(
      `leaderElection.renewDeadlineMs (${t.renewDeadlineMs}) must be greater than 1.2 x retryPeriodMs (${t.retryPeriodMs})`,
    );
  }
  if (!(t.leaseDurationMs > t.renewDeadlineMs)) {
    throw new Error(
      `leaderElection.leaseDurationMs (${t.leaseDurationMs}) must be greater than renewDeadlineMs (${t.renewDeadlineMs})`,
    );
  }
  if (t.leaseDurationMs % 1000 !== 0) {
    throw new Error(
      `leaderElection.leaseDurationMs (${t.leaseDurationMs}) must be whole seconds: the Lease stores seconds`,
    );
  }
}

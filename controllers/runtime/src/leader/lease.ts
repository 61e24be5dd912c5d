/**
 * The pure rules of leader election on a coordination.k8s.io Lease, as in
 * client-go: who may take the lease, and what the record becomes.
 *
 * Expiry is judged by the local time at which this candidate last saw the
 * record change (never by comparing clocks across machines).
 *
 * @public
 */

export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number;
}

/** @public */
export type LeaseState = 'free' | 'mine' | 'held';

/** @public */
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

/** The record after `identity` acquires or renews the lease at `now`. @public */
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

/**
 * How long a standby waits before it looks at the lease again: a quarter
 * of the retry period, so that it sees each renewal soon after it happens
 * (expiry is counted from when a record is first seen: a standby polling
 * every retry period starts counting up to a whole period late), and never
 * past the moment the observed record expires, so it takes an expired lease
 * at once rather than on its next poll. With the default timings a
 * SIGKILLed leader's lease is taken about 15 s after its last renewal
 * instead of up to 19 s. `jitter` (0..1) spreads the candidates' polls.
 *
 * @public
 */
export function standbyDelayMs(args: {
  retryPeriodMs: number;
  nowMs: number;
  /** When the record this candidate observed expires (undefined: none seen or free). */
  expiresAtMs?: number;
  jitter: number;
}): number {
  const poll = (args.retryPeriodMs / 4) * (1 + 0.2 * args.jitter);
  const untilExpiry =
    args.expiresAtMs === undefined ? poll : args.expiresAtMs - args.nowMs;
  return Math.round(Math.max(0, Math.min(poll, untilExpiry)));
}

/** The record a leader writes when it steps down, so others take over at once. @public */
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

/** metav1.MicroTime: RFC 3339 with microseconds. @public */
export function microTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

/** @public */
export interface LeaderElectionTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's rules: lease > renew deadline > 1.2 x retry period, all positive. @public */
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

/** The environment variable that names a replica's leader-election identity (a process slot that outlives restarts). @public */
export const LEADER_ELECTION_ID_ENV = 'LEADER_ELECTION_ID';

/**
 * Who a replica is in the Lease. Stable across restarts of the same
 * replica, so a process that restarts after a crash or a lost lease (an
 * API-server outage longer than the renew deadline) finds the lease still
 * its own and leads at once, instead of waiting a whole lease duration for
 * its own previous record to expire:
 * - `LEADER_ELECTION_ID` when set (the local system names each process);
 * - in a pod (`KUBERNETES_SERVICE_HOST` set), the hostname: the pod's name,
 *   the same after a container restart and unique among the replicas;
 * - otherwise `<hostname>_<random>`, as controller-runtime does: two
 *   processes on one machine must never share an identity.
 *
 * @public
 */
export function leaderIdentity(args: {
  env: Record<string, string | undefined>;
  hostname: string;
  random: () => string;
}): string {
  const explicit = args.env[LEADER_ELECTION_ID_ENV]?.trim();
  if (explicit) return explicit;
  if (args.env.KUBERNETES_SERVICE_HOST) return args.hostname;
  return `${args.hostname}_${args.random()}`;
}

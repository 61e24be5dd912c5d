import { sleep } from '../cache/backoff';
import { KubeClient } from '../kube/client';
import { isAlreadyExists, isConflict, isNotFound } from '../kube/errors';
import { Leases } from '../kube/wellKnown';
import type { KubeObject } from '../kube/types';
import { Logger, silentLogger } from '../observability/logger';
import {
  claimedSpec,
  LeaderElectionTiming,
  LeaseSpec,
  leaseState,
  recordFingerprint,
  releasedSpec,
  standbyDelayMs,
  validateTiming,
} from './lease';

interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** @public */
export interface LeaderElectorOptions extends Partial<LeaderElectionTiming> {
  leaseName: string;
  namespace: string;
  /** Unique per replica, e.g. the pod name. */
  identity: string;
  logger?: Logger;
  /** Called with the new holder whenever another candidate is seen leading. */
  onNewLeader?(identity: string): void;
}

/**
 * Leader election on a Lease with controller-runtime's timing (lease 15 s,
 * renew deadline 10 s, retry 2 s); a standby looks every quarter retry
 * period and at the moment the lease expires (`standbyDelayMs`). `run` resolves `true` once this
 * candidate leads; `lost` resolves when it stops leading (it could not
 * renew within the renew deadline, or another holder took the lease).
 *
 * @public
 */
export class LeaderElector {
  private readonly timing: LeaderElectionTiming;
  private readonly logger: Logger;
  private observed?: {
    fingerprint: string;
    atMs: number;
    holder: string;
    /** When the record expires unless renewed (undefined when nobody holds it). */
    expiresAtMs?: number;
  };
  private leading = false;
  private lastRenewMs = 0;
  private lostResolve?: (reason: string) => void;
  private watchdog?: NodeJS.Timeout;
  /** Resolves with a reason when leadership ends (never if never acquired). */
  readonly lost: Promise<string>;

  constructor(
    private readonly client: KubeClient,
    private readonly options: LeaderElectorOptions,
  ) {
    this.timing = {
      leaseDurationMs: options.leaseDurationMs ?? 15_000,
      renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
      retryPeriodMs: options.retryPeriodMs ?? 2_000,
    };
    validateTiming(this.timing);
    for (const field of ['leaseName', 'namespace', 'identity'] as const) {
      if (!options[field])
        throw new Error(
          `leaderElection.${field} is required: set a non-empty value`,
        );
    }
    this.logger = (options.logger ?? silentLogger).child({
      lease: `${options.namespace}/${options.leaseName}`,
      identity: options.identity,
    });
    this.lost = new Promise(resolve => (this.lostResolve = resolve));
  }

  /**
   * True while this candidate holds the lease and renewed it within the
   * renew deadline: a leader cut off from the API server stops at once.
   */
  isLeader(): boolean {
    return (
      this.leading &&
      Date.now() - this.lastRenewMs < this.timing.renewDeadlineMs
    );
  }

  /**
   * Tries until the lease is ours (resolves true) or `signal` aborts
   * (resolves false). Once leading, renews in the background until lost.
   */
  async acquire(signal: AbortSignal): Promise<boolean> {
    this.logger.info('waiting for the leader lease');
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        this.leading = true;
        this.armWatchdog();
        this.logger.info('became leader');
        void this.renewLoop(signal);
        return true;
      }
      await sleep(
        standbyDelayMs({
          retryPeriodMs: this.timing.retryPeriodMs,
          nowMs: Date.now(),
          expiresAtMs:
            this.observed?.holder &&
            this.observed.holder !== this.options.identity
              ? this.observed.expiresAtMs
              : undefined,
          jitter: Math.random(),
        }),
        signal,
      );
    }
    return false;
  }

  /** Steps down by clearing the holder, so another replica takes over at once. */
  async release(): Promise<void> {
    if (!this.leading) return;
    this.stopLeading('released');
    try {
      const lease = await this.client.get<Lease>(Leases, this.key());
      if (lease.spec?.holderIdentity !== this.options.identity) return;
      await this.client.replace<Lease>(Leases, {
        ...lease,
        spec: releasedSpec(lease.spec, new Date()),
      });
      this.logger.info('released the leader lease');
    } catch (err) {
      this.logger.warn('could not release the leader lease; it will expire', {
        error: err,
      });
    }
  }

  private async renewLoop(signal: AbortSignal): Promise<void> {
    while (this.leading && !signal.aborted) {
      await sleep(this.timing.retryPeriodMs, signal);
      if (!this.leading || signal.aborted) return;
      const renewed = await this.tryAcquireOrRenew();
      if (!this.leading) return;
      if (renewed) {
        this.armWatchdog();
      } else if (
        this.observed?.holder &&
        this.observed.holder !== this.options.identity
      ) {
        this.stopLeading(`lease taken by ${this.observed.holder}`);
      }
    }
  }

  /** Leadership ends the moment the renew deadline passes without a renewal, even mid-request. */
  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const remaining =
      this.lastRenewMs + this.timing.renewDeadlineMs - Date.now();
    this.watchdog = setTimeout(
      () =>
        this.stopLeading(
          `could not renew within ${this.timing.renewDeadlineMs} ms`,
        ),
      Math.max(0, remaining),
    );
  }

  private stopLeading(reason: string): void {
    if (!this.leading) return;
    this.leading = false;
    clearTimeout(this.watchdog);
    this.logger.warn('stopped leading', { reason });
    this.lostResolve?.(reason);
  }

  private key() {
    return { namespace: this.options.namespace, name: this.options.leaseName };
  }

  /** One attempt; never throws. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const durationSeconds = this.timing.leaseDurationMs / 1000;
    const signal = AbortSignal.timeout(
      Math.max(1000, this.timing.renewDeadlineMs / 2),
    );
    try {
      let lease: Lease;
      try {
        lease = await this.client.get<Lease>(Leases, this.key(), signal);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.client.create<Lease>(Leases, {
          metadata: { ...this.key() },
          spec: claimedSpec(
            undefined,
            this.options.identity,
            now,
            durationSeconds,
          ),
        });
        this.observe(undefined, Date.now());
        this.lastRenewMs = now.getTime();
        return true;
      }
      this.observe(lease.spec, Date.now());
      const state = leaseState({
        spec: lease.spec,
        identity: this.options.identity,
        nowMs: Date.now(),
        observedAtMs: this.observed!.atMs,
        defaultLeaseDurationMs: this.timing.leaseDurationMs,
      });
      if (state === 'held') return false;
      const spec = claimedSpec(
        lease.spec,
        this.options.identity,
        now,
        durationSeconds,
      );
      // The resourceVersion makes this an optimistic write: one winner per version.
      const updated = await this.client.replace<Lease>(Leases, {
        ...lease,
        spec,
      });
      this.observe(updated.spec, Date.now());
      this.lastRenewMs = now.getTime();
      return true;
    } catch (err) {
      if (!isConflict(err) && !isAlreadyExists(err)) {
        this.logger.warn('leader lease request failed', { error: err });
      }
      return false;
    }
  }

  private observe(spec: LeaseSpec | undefined, atMs: number): void {
    const fingerprint = recordFingerprint(spec);
    if (this.observed?.fingerprint === fingerprint) return;
    const holder = spec?.holderIdentity ?? '';
    if (
      holder &&
      holder !== this.observed?.holder &&
      holder !== this.options.identity
    ) {
      this.logger.info('observed a new leader', { leader: holder });
      this.options.onNewLeader?.(holder);
    }
    const durationMs = spec?.leaseDurationSeconds
      ? spec.leaseDurationSeconds * 1000
      : this.timing.leaseDurationMs;
    this.observed = {
      fingerprint,
      atMs,
      holder,
      expiresAtMs: holder ? atMs + durationMs : undefined,
    };
  }
}

/**
 * The doctor's checks (`runway doctor`, from `@runway-portal/cli/doctor`)
 * run by the backend per cluster, in the background: every `intervalMs`
 * and on demand, one run per cluster at a time, each bounded by
 * `timeoutMs` (and each request by the client's own request timeout).
 * Read-only: the portal's ClusterRole grants what the reading needs
 * (rbac.ts, `doctorRules`); the webhook probe is left out, and what the
 * role does not allow is reported `not-checked`, naming the permission.
 */
import type { KubeClient } from '@runway-portal/controller-runtime';
import {
  bundledExpectations,
  type Check,
  type Expectations,
  readClusterState,
  runChecks,
} from '@runway-portal/cli/doctor';
import type { DoctorReport } from '@runway-portal/plugin-runway-common';
import { classifyClusterError, withTimeout } from './health';

/** The namespace `runway controller install` installs into. @public */
export const DEFAULT_DOCTOR_NAMESPACE = 'airunway-system';
/** @public */
export const DEFAULT_DOCTOR_INTERVAL_MS = 60_000;
/** @public */
export const DEFAULT_DOCTOR_TIMEOUT_MS = 30_000;

/** @public */
export interface DoctorOptions {
  /** Time between background runs; 0 runs only on demand. */
  intervalMs?: number;
  /** Bound of one run of one cluster. */
  timeoutMs?: number;
  /** Where the controllers are installed. */
  namespace?: string;
  /** What a healthy install looks like; default: the bundles' (`bundledExpectations`). */
  expectations?: Expectations;
  onError?: (cluster: string, message: string) => void;
}

/** The outcome of one run, before it becomes a report. @public */
export type DoctorRun =
  | { checks: Check[]; at: number; durationMs: number }
  | { error: string; at: number; durationMs: number };

/**
 * A run as the contract reports it: problems counted; a failed run keeps
 * the previous run's checks (with the error saying why they are old). Pure.
 *
 * @public
 */
export function doctorReport(
  cluster: string,
  run: DoctorRun,
  previous?: DoctorReport,
): DoctorReport {
  const checks = 'checks' in run ? run.checks : previous?.checks ?? [];
  return {
    cluster,
    checkedAt: new Date(run.at).toISOString(),
    durationMs: run.durationMs,
    problems: checks.filter(c => c.status === 'fail' || c.status === 'warn')
      .length,
    ...('error' in run ? { error: run.error } : {}),
    checks,
  };
}

/** Before the first run: an empty report that says so. @public */
export function pendingReport(cluster: string): DoctorReport {
  return { cluster, checkedAt: null, problems: 0, checks: [] };
}

/** @public */
export class ClusterDoctor {
  private readonly reports = new Map<string, DoctorReport>();
  private readonly running = new Map<string, Promise<DoctorReport>>();
  private readonly expectations: Expectations;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly clients: () => ReadonlyMap<string, KubeClient>,
    private readonly options: DoctorOptions = {},
  ) {
    this.expectations =
      options.expectations ??
      bundledExpectations(options.namespace ?? DEFAULT_DOCTOR_NAMESPACE);
    this.intervalMs = options.intervalMs ?? DEFAULT_DOCTOR_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DOCTOR_TIMEOUT_MS;
  }

  /** Starts the background runs (the first at once); nothing with interval 0. */
  start(): void {
    if (this.intervalMs <= 0 || this.stopped) return;
    const round = async () => {
      // One cluster after the other: a round costs one cluster's reads at a time.
      for (const cluster of this.clients().keys()) {
        if (this.stopped) return;
        await this.run(cluster);
      }
      if (!this.stopped) {
        this.timer = setTimeout(round, this.intervalMs);
        this.timer.unref?.();
      }
    };
    this.timer = setTimeout(round, 0);
    this.timer.unref?.();
  }

  /** The last report; `pendingReport` before the first run ended. */
  report(cluster: string): DoctorReport | undefined {
    if (!this.clients().has(cluster)) return undefined;
    return this.reports.get(cluster) ?? pendingReport(cluster);
  }

  /** Runs the checks of one cluster now, or joins the run in progress. */
  run(cluster: string): Promise<DoctorReport> {
    const inFlight = this.running.get(cluster);
    if (inFlight) return inFlight;
    const client = this.clients().get(cluster);
    if (!client) return Promise.reject(new Error(`no cluster "${cluster}"`));
    const started = Date.now();
    const done = (run: DoctorRun) => {
      const report = doctorReport(cluster, run, this.reports.get(cluster));
      this.reports.set(cluster, report);
      return report;
    };
    const promise = withTimeout(
      cluster,
      this.timeoutMs,
      "the doctor's checks",
      async () =>
        runChecks(
          await readClusterState(client, this.expectations, {
            probeWebhooks: false,
          }),
          this.expectations,
        ),
    )
      .then(
        checks =>
          done({ checks, at: Date.now(), durationMs: Date.now() - started }),
        err => {
          const error = classifyClusterError(err, {
            cluster,
            what: "what the doctor's checks read",
          }).message;
          if (!this.stopped) this.options.onError?.(cluster, error);
          return done({
            error,
            at: Date.now(),
            durationMs: Date.now() - started,
          });
        },
      )
      .finally(() => this.running.delete(cluster));
    this.running.set(cluster, promise);
    return promise;
  }

  /**
   * Stops the background runs; waits for the ones in progress at most
   * `waitMs` (a run against a cluster that does not answer lasts until its
   * bound, and a shutdown should not).
   */
  async stop(waitMs = 2_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running.values()]),
      new Promise(resolve => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

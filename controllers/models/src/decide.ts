/**
 * Seed 003's state machine for one Model, as a pure function of what the
 * controller observed: the Model, its PVC, its Job and the last lines the
 * downloader logged. It returns what to do (create the PVC, create or
 * delete the Job), the status to write, the events of a transition and when
 * to look again. The reconciler only reads, calls this, acts and writes.
 *
 *   Pending ──▶ Downloading ──▶ Ready        Ready, PVC gone      ──▶ Pending
 *                    │                       Failed, Job deleted  ──▶ Pending
 *                    └────────▶ Failed       Downloading, no Job  ──▶ Job recreated
 *
 * Level-triggered: names are fixed (`model-{name}`, `model-download-{name}`)
 * and every create is "if absent", so a decision repeated after a crash
 * creates nothing twice. A Job records the uid of the PVC it fills; a Job
 * made for a PVC that is gone is stale and deleted before a new download.
 */
import {
  type Condition,
  formatBytes,
  type Model,
  modelDownloadJobName,
  type ModelPhase,
  modelPvcName,
  modelSourceText,
} from '@runway-portal/plugin-runway-common';
import { type LogSummary, percentOf } from './progress';
import { DOWNLOAD_BACKOFF_LIMIT, type ModelObject } from './resources';

export type ModelStatus = NonNullable<Model['status']>;

/** The PVC as the controller sees it. */
export interface ObservedPvc {
  uid: string;
  deleting: boolean;
}

/** The Job as the controller sees it (from its status). */
export interface ObservedJob {
  uid: string;
  /** PVC_UID_ANNOTATION: the PVC it was made for. */
  pvcUid?: string;
  deleting: boolean;
  succeeded: number;
  failed: number;
  /** The Job's `Complete` condition is True. */
  complete: boolean;
  /** The Job's `Failed` condition, when True. */
  failedCondition?: { reason?: string; message?: string };
  startTime?: string;
  completionTime?: string;
}

export interface ModelInput {
  model: ModelObject;
  pvc?: ObservedPvc;
  job?: ObservedJob;
  /** What the newest download pod logged (undefined: no pod or log yet). */
  log?: LogSummary;
  /** RFC 3339, for conditions that change now. */
  now: string;
}

export type ModelOp =
  | { kind: 'createPvc' }
  | { kind: 'createJob' }
  | { kind: 'deleteJob'; uid: string };

export interface ModelEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export type ModelDecision =
  | { action: 'skip' }
  | {
      action: 'act';
      ops: ModelOp[];
      status: ModelStatus;
      events: ModelEvent[];
      requeueAfterMs: number;
      /** For the metrics: a download started, ended well, or ended badly in this decision. */
      outcome?: 'started' | 'succeeded' | 'failed';
    };

/** Seed 003's polls; Downloading is polled faster so progress is at most ~5 s old. */
export const REQUEUE = {
  pending: 10_000,
  downloading: 5_000,
  ready: 5 * 60_000,
  failed: 60_000,
  /** Waiting for an old PVC or Job to go away. */
  waiting: 2_000,
} as const;

export const CONDITION_STORAGE = 'StorageCreated';
export const CONDITION_READY = 'Ready';

function condition(
  type: string,
  ok: boolean,
  reason: string,
  message: string,
  input: ModelInput,
): Condition {
  const generation = input.model.metadata?.generation;
  const next: Condition = {
    type,
    status: ok ? 'True' : 'False',
    reason,
    message,
    lastTransitionTime: input.now,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  // Keep the time of the last real change.
  const old = input.model.status?.conditions?.find(c => c.type === type);
  return old && old.status === next.status && old.lastTransitionTime
    ? { ...next, lastTransitionTime: old.lastTransitionTime }
    : next;
}

function sourceText(model: ModelObject): string {
  return modelSourceText(model.spec?.source) ?? 'its source';
}

function downloadOf(
  log: LogSummary | undefined,
): ModelStatus['download'] | undefined {
  if (log?.done)
    return {
      bytesDownloaded: log.done.bytesTotal,
      totalBytes: log.done.bytesTotal,
      bytesPerSecond: 0,
      remainingSeconds: 0,
    };
  const p = log?.progress;
  if (!p) return undefined;
  return {
    bytesDownloaded: Math.round(p.bytesDone),
    ...(p.bytesTotal === undefined
      ? {}
      : { totalBytes: Math.round(p.bytesTotal) }),
    bytesPerSecond: Math.round(p.bytesPerSecond),
    ...(p.etaSeconds === undefined
      ? {}
      : { remainingSeconds: Math.round(p.etaSeconds) }),
  };
}

function progressMessage(
  download: ModelStatus['download'] | undefined,
  percent: number | undefined,
): string {
  if (!download?.bytesDownloaded && !download?.totalBytes)
    return 'Download in progress';
  const parts = [
    download.totalBytes
      ? `${formatBytes(download.bytesDownloaded ?? 0)} of ${formatBytes(
          download.totalBytes,
        )}`
      : formatBytes(download.bytesDownloaded ?? 0),
    `${formatBytes(download.bytesPerSecond ?? 0)}/s`,
    ...(download.remainingSeconds === undefined
      ? []
      : [`${download.remainingSeconds} s left`]),
  ];
  return `Downloading: ${percent ?? 0}% (${parts.join(', ')})`;
}

/**
 * Decides the next step for one Model. `status` is everything the
 * controller owns in the Model's status (applied with its field manager).
 */
export function decideModel(input: ModelInput): ModelDecision {
  const { model, pvc, job, log } = input;
  if (model.metadata?.deletionTimestamp) return { action: 'skip' };
  const name = model.metadata!.name!;
  const pvcName = modelPvcName(name);
  const jobName = modelDownloadJobName(name);
  const generation = model.metadata?.generation;
  const previous = model.status?.phase ?? 'Pending';
  const events: ModelEvent[] = [];
  const ops: ModelOp[] = [];
  let outcome: 'started' | 'succeeded' | 'failed' | undefined;

  const finish = (
    phase: ModelPhase,
    message: string,
    requeueAfterMs: number,
    extra: Partial<ModelStatus> = {},
  ): ModelDecision => {
    const pvcPresent =
      Boolean(pvc && !pvc.deleting) || ops.some(o => o.kind === 'createPvc');
    const readyReason = {
      Pending: 'Pending',
      Downloading: 'Downloading',
      Ready: 'Downloaded',
      Failed: 'DownloadFailed',
    }[phase];
    const progress = { Pending: 0, Ready: 100 } as Partial<
      Record<ModelPhase, number>
    >;
    const status: ModelStatus = {
      phase,
      pvcName,
      message,
      progress: progress[phase] ?? model.status?.progress ?? 0,
      ...extra,
      conditions: [
        condition(
          CONDITION_STORAGE,
          pvcPresent,
          pvcPresent ? 'PVCCreated' : 'PVCMissing',
          pvcPresent
            ? `PVC ${pvcName} exists`
            : `PVC ${pvcName} does not exist yet`,
          input,
        ),
        condition(
          CONDITION_READY,
          phase === 'Ready',
          readyReason,
          message,
          input,
        ),
      ],
      ...(generation === undefined ? {} : { observedGeneration: generation }),
    };
    if (phase === 'Pending') delete status.download;
    return {
      action: 'act',
      ops,
      status,
      events,
      requeueAfterMs,
      ...(outcome ? { outcome } : {}),
    };
  };
  const transition = (
    to: ModelPhase,
    type: ModelEvent['type'],
    reason: string,
    message: string,
  ) => {
    if (previous !== to) events.push({ type, reason, message });
  };

  const pvcGone = !pvc || pvc.deleting;
  // A Job filling a PVC other than the current one (or none) wrote its files somewhere that is gone.
  const jobStale = Boolean(
    job &&
      !job.deleting &&
      (pvcGone || (job.pvcUid !== undefined && job.pvcUid !== pvc!.uid)),
  );
  const jobFinished = Boolean(
    job &&
      (job.complete ||
        job.succeeded > 0 ||
        job.failedCondition ||
        job.failed >= DOWNLOAD_BACKOFF_LIMIT),
  );

  switch (previous) {
    case 'Ready': {
      if (!pvcGone)
        return finish(
          'Ready',
          model.status?.message || `Model files are in PVC ${pvcName}`,
          REQUEUE.ready,
          { download: model.status?.download },
        );
      if (job && !job.deleting) ops.push({ kind: 'deleteJob', uid: job.uid });
      transition(
        'Pending',
        'Warning',
        'PVCDeleted',
        `PVC ${pvcName} was deleted: downloading the model again`,
      );
      return finish(
        'Pending',
        `PVC ${pvcName} was deleted: downloading the model again`,
        REQUEUE.waiting,
      );
    }
    case 'Failed': {
      if (job && !job.deleting) {
        return finish(
          'Failed',
          model.status?.message || `Job ${jobName} failed`,
          REQUEUE.failed,
          { download: model.status?.download },
        );
      }
      transition(
        'Pending',
        'Normal',
        'Retrying',
        `Job ${jobName} was deleted: retrying the download`,
      );
      return finish(
        'Pending',
        `Job ${jobName} was deleted: retrying the download`,
        REQUEUE.waiting,
      );
    }
    case 'Downloading': {
      if (pvcGone || jobStale) {
        if (job && !job.deleting) ops.push({ kind: 'deleteJob', uid: job.uid });
        transition(
          'Pending',
          'Warning',
          'PVCDeleted',
          `PVC ${pvcName} was deleted during the download: starting again`,
        );
        return finish(
          'Pending',
          `PVC ${pvcName} was deleted during the download: starting again`,
          REQUEUE.waiting,
        );
      }
      if (!job) {
        ops.push({ kind: 'createJob' });
        outcome = 'started';
        events.push({
          type: 'Warning',
          reason: 'JobRecreated',
          message: `Job ${jobName} was missing: created it again`,
        });
        return finish(
          'Downloading',
          `Job ${jobName} was missing: created it again`,
          REQUEUE.downloading,
        );
      }
      if (job.deleting)
        return finish(
          'Downloading',
          `Job ${jobName} is being deleted: waiting to create it again`,
          REQUEUE.waiting,
        );
      if (job.complete || job.succeeded > 0) {
        outcome = 'succeeded';
        const download = downloadOf(log) ?? model.status?.download;
        const size = download?.totalBytes
          ? ` (${formatBytes(download.totalBytes)})`
          : '';
        const message = `Model files are in PVC ${pvcName}${size}`;
        transition(
          'Ready',
          'Normal',
          'DownloadSucceeded',
          `Downloaded ${sourceText(model)} into PVC ${pvcName}${size}`,
        );
        return finish(
          'Ready',
          message,
          REQUEUE.ready,
          download
            ? {
                download: {
                  ...download,
                  bytesPerSecond: 0,
                  remainingSeconds: 0,
                },
              }
            : {},
        );
      }
      if (job.failedCondition || job.failed >= DOWNLOAD_BACKOFF_LIMIT) {
        outcome = 'failed';
        const why =
          log?.error?.message ??
          job.failedCondition?.message ??
          `the download failed ${job.failed} times`;
        const message = `Download failed: ${why}. Fix the cause, then delete Job ${jobName} to retry`;
        transition('Failed', 'Warning', 'DownloadFailed', message);
        return finish('Failed', message, REQUEUE.failed, {
          download: downloadOf(log) ?? model.status?.download,
        });
      }
      const download = downloadOf(log) ?? model.status?.download;
      const percent = percentOf(
        download?.bytesDownloaded ?? 0,
        download?.totalBytes,
      );
      const retrying =
        job.failed > 0 && log?.error
          ? `attempt ${job.failed} failed (${log.error.message}); retrying. `
          : '';
      return finish(
        'Downloading',
        `${retrying}${progressMessage(download, percent)}`,
        REQUEUE.downloading,
        {
          ...(download ? { download } : {}),
          progress: Math.min(99, percent ?? model.status?.progress ?? 0),
        },
      );
    }
    default: {
      // Pending (or no phase yet): make sure the PVC and a Job for it exist, then Downloading.
      if (pvc?.deleting)
        return finish(
          'Pending',
          `Waiting for the old PVC ${pvcName} to be deleted`,
          REQUEUE.waiting,
        );
      if (job?.deleting)
        return finish(
          'Pending',
          `Waiting for the old Job ${jobName} to be deleted`,
          REQUEUE.waiting,
        );
      // A finished Job in Pending, or one for another PVC, downloaded into storage that is gone.
      if (job && (jobStale || (jobFinished && !pvc))) {
        ops.push({ kind: 'deleteJob', uid: job.uid });
        if (!pvc) ops.push({ kind: 'createPvc' });
        return finish(
          'Pending',
          `Deleting the old Job ${jobName} before downloading again`,
          REQUEUE.waiting,
        );
      }
      if (!pvc) ops.push({ kind: 'createPvc' });
      if (!job) {
        ops.push({ kind: 'createJob' });
        outcome = 'started';
      }
      transition(
        'Downloading',
        'Normal',
        'DownloadStarted',
        `Downloading ${sourceText(
          model,
        )} into PVC ${pvcName} with Job ${jobName}`,
      );
      return finish('Downloading', 'Download in progress', REQUEUE.downloading);
    }
  }
}

/**
 * The status after creating the PVC or Job failed (seed 003 "Error
 * Handling"): the phase stays, the message names the object and the
 * server's reason; the reconciler then retries with backoff.
 */
export function creationFailedStatus(
  input: ModelInput,
  decided: ModelStatus,
  what: 'PersistentVolumeClaim' | 'Job',
  objectName: string,
  reason: string,
): ModelStatus {
  const message = `Could not create ${what} ${objectName}: ${reason}. Retrying with backoff`;
  const phase = input.model.status?.phase ?? 'Pending';
  const failedReason = what === 'Job' ? 'JobCreateFailed' : 'PVCCreateFailed';
  const conditions = (decided.conditions ?? []).map(c =>
    c.type === CONDITION_READY ||
    (what === 'PersistentVolumeClaim' && c.type === CONDITION_STORAGE)
      ? condition(c.type, false, failedReason, message, input)
      : c,
  );
  return { ...decided, phase, message, conditions };
}

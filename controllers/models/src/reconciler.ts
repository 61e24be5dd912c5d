/**
 * The Model controller: a thin loop around `decideModel`. It reads the
 * Model, its PVC and Job from shared caches (only objects labelled as ours),
 * reads the newest download pod's log for progress, creates or deletes
 * what the decision says (creates are "if absent": a name that exists is
 * fine), and applies the status with its own field manager.
 *
 * Deletion needs nothing from this loop: no finalizer, the PVC and Job
 * carry owner references and the garbage collector removes them, so
 * deleting a Model always finishes, whatever state they are in.
 */
import {
  generationChanged,
  isAlreadyExists,
  isNotFound,
  type KubeClient,
  type KubeObject,
  keyOf,
  type Manager,
  PersistentVolumeClaims,
  Jobs,
  Pods,
  type Reconciler,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  MODEL_GROUP,
  MODEL_VERSION,
  modelDownloadJobName,
  modelPvcName,
  modelSourceType,
} from '@runway-portal/plugin-runway-common';
import {
  creationFailedStatus,
  decideModel,
  type ModelStatus,
  type ObservedJob,
  type ObservedPvc,
} from './decide';
import { ModelMetrics } from './metrics';
import { type LogSummary, summarizeLog } from './progress';
import {
  buildJob,
  buildPvc,
  DOWNLOADER_CONTAINER,
  MANAGED_BY,
  type ModelObject,
  MODELS_FIELD_MANAGER,
  PVC_UID_ANNOTATION,
} from './resources';

export const Models: ResourceType = {
  group: MODEL_GROUP,
  version: MODEL_VERSION,
  plural: 'models',
  kind: 'Model',
  namespaced: true,
};

/** Only the PVCs and Jobs this operator made are cached (not every PVC of the cluster). */
export const OWNED_SELECTOR = {
  labelSelector: Object.entries(MANAGED_BY)
    .map(([k, v]) => `${k}=${v}`)
    .join(','),
};

/** The last lines of a pod's log (`pods/log`, read only). */
export type PodLogReader = (
  namespace: string,
  pod: string,
  container: string,
) => Promise<string>;

/**
 * Reads logs through the API server (which asks the node's kubelet), with
 * our client: client-node's CoreV1Api would load its ~900 generated models
 * into the operator for this one GET.
 */
export function apiServerLogReader(client: KubeClient): PodLogReader {
  // The progress line is the last or nearly the last line; 64 KiB bounds a chatty log. No
  // sinceSeconds: a finished pod's last lines (done or error) are needed however old they are.
  return (namespace, name, container) =>
    client.requestText({
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(
        namespace,
      )}/pods/${encodeURIComponent(name)}/log`,
      query: { container, tailLines: 50, limitBytes: 65536 },
    });
}

export interface ModelControllerOptions {
  downloaderImage?: string;
  /** Parallel reconciles; default 16 (each mostly waits on the API server). */
  maxConcurrentReconciles?: number;
}

type Job = KubeObject & {
  spec?: unknown;
  status?: {
    active?: number;
    /** Pods with the Ready condition (a running downloader: it has no probes). */
    ready?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: Array<{
      type: string;
      status: string;
      reason?: string;
      message?: string;
    }>;
  };
};

function observeJob(job: Job | undefined): ObservedJob | undefined {
  if (!job) return undefined;
  const conditions = job.status?.conditions ?? [];
  const failed = conditions.find(
    c => c.type === 'Failed' && c.status === 'True',
  );
  return {
    uid: job.metadata!.uid!,
    pvcUid: job.metadata?.annotations?.[PVC_UID_ANNOTATION],
    deleting: Boolean(job.metadata?.deletionTimestamp),
    succeeded: job.status?.succeeded ?? 0,
    failed: job.status?.failed ?? 0,
    complete: conditions.some(
      c => c.type === 'Complete' && c.status === 'True',
    ),
    ...(failed
      ? { failedCondition: { reason: failed.reason, message: failed.message } }
      : {}),
    startTime: job.status?.startTime,
    completionTime: job.status?.completionTime,
  };
}

function jobEnded(job: ObservedJob): boolean {
  return (
    job.complete ||
    job.succeeded > 0 ||
    job.failed > 0 ||
    job.failedCondition !== undefined
  );
}

/**
 * Whether the Job has a pod with a log worth reading: one running (ready)
 * or finished. A Job whose pod is not created or not started yet has none,
 * and reading would cost a pod list per reconcile for nothing (one per
 * Model while hundreds are created). Pure.
 */
export function hasPodLog(job: Job): boolean {
  const status = job.status ?? {};
  if ((status.succeeded ?? 0) > 0 || (status.failed ?? 0) > 0) return true;
  if (status.conditions?.some(c => c.status === 'True')) return true;
  // Clusters before `ready` (Kubernetes < 1.24) count only active pods.
  return (status.ready ?? status.active ?? 0) > 0;
}

function observePvc(pvc: KubeObject | undefined): ObservedPvc | undefined {
  return pvc
    ? {
        uid: pvc.metadata!.uid!,
        deleting: Boolean(pvc.metadata?.deletionTimestamp),
      }
    : undefined;
}

function errorText(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/** JSON with object keys sorted: the server's key order differs from ours. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** Whether the live status already is what the controller would write (then nothing is written). */
export function sameStatus(
  desired: ModelStatus,
  live: ModelStatus | undefined,
): boolean {
  return canonical(desired) === canonical(live ?? {});
}

/** How long a read download log is reused by reconciles triggered by events. */
export const LOG_MAX_AGE_MS = 3000;

export function registerModelController(
  mgr: Manager,
  options: ModelControllerOptions = {},
) {
  const models = mgr.informers.informerFor<ModelObject>(Models);
  const pvcs = mgr.informers.informerFor<KubeObject>(
    PersistentVolumeClaims,
    OWNED_SELECTOR,
  );
  const jobs = mgr.informers.informerFor<Job>(Jobs, OWNED_SELECTOR);
  const applier = mgr.applier(MODELS_FIELD_MANAGER);
  const events = mgr.eventRecorder(MODELS_FIELD_MANAGER);
  const metrics = new ModelMetrics(mgr.metrics.registry, () =>
    models.store.list(),
  );
  const readLog = apiServerLogReader(mgr.client);
  const client = mgr.client;

  /**
   * Logs read recently, per Job uid: reconciles triggered by events in
   * between reuse them (progress is then at most LOG_MAX_AGE_MS older).
   */
  const logCache = new Map<
    string,
    { at: number; log: LogSummary | undefined }
  >();
  async function recentDownloadLog(
    namespace: string,
    jobName: string,
    jobUid: string,
    fresh: boolean,
  ): Promise<LogSummary | undefined> {
    const cached = logCache.get(jobUid);
    if (!fresh && cached && Date.now() - cached.at < LOG_MAX_AGE_MS)
      return cached.log;
    const log = await downloadLog(namespace, jobName);
    logCache.set(jobUid, { at: Date.now(), log });
    return log;
  }

  /** The newest download pod's log, summarized; undefined when there is no pod or no log (yet). */
  async function downloadLog(
    namespace: string,
    jobName: string,
  ): Promise<LogSummary | undefined> {
    try {
      const pods = await client.list(Pods, {
        namespace,
        labelSelector: `batch.kubernetes.io/job-name=${jobName}`,
      });
      const newest = [...pods.items]
        .sort((a, b) =>
          (a.metadata?.creationTimestamp ?? '').localeCompare(
            b.metadata?.creationTimestamp ?? '',
          ),
        )
        .pop();
      if (!newest) return undefined;
      return summarizeLog(
        await readLog(namespace, newest.metadata!.name!, DOWNLOADER_CONTAINER),
      );
    } catch (err) {
      // No log (a pod not started yet, or a node that serves none): progress stays as it was.
      mgr.logger.debug('no download log', {
        namespace,
        job: jobName,
        error: errorText(err),
      });
      return undefined;
    }
  }

  const reconcile: Reconciler = async request => {
    const key = keyOf(request);
    const model = models.store.get(key);
    if (!model || model.metadata?.deletionTimestamp) return {};
    if (logCache.size > 10_000) logCache.clear(); // uids of finished Jobs: bounded, not tracked one by one
    const namespace = model.metadata!.namespace!;
    const name = model.metadata!.name!;
    const pvcKey = `${namespace}/${modelPvcName(name)}`;
    const jobKey = `${namespace}/${modelDownloadJobName(name)}`;
    const source = modelSourceType(model.spec?.source) ?? 'unknown';

    let pvc = pvcs.store.get(pvcKey);
    const job = jobs.store.get(jobKey);
    const observedJob = observeJob(job);
    const phase = model.status?.phase ?? 'Pending';
    // Logs are read only while they can change the status: during a download and when it ends.
    const log =
      phase === 'Downloading' && observedJob && hasPodLog(job!)
        ? await recentDownloadLog(
            namespace,
            modelDownloadJobName(name),
            observedJob.uid,
            // A Job that just ended: its pod's last lines (done or error) are what the status must show.
            jobEnded(observedJob),
          )
        : undefined;
    const input = {
      model,
      pvc: observePvc(pvc),
      job: observedJob,
      log,
      now: new Date().toISOString(),
    };
    const decision = decideModel(input);
    if (decision.action === 'skip') return {};

    let status = decision.status;
    try {
      for (const op of decision.ops) {
        if (op.kind === 'createPvc') {
          try {
            pvc = await client.create(PersistentVolumeClaims, buildPvc(model), {
              fieldManager: MODELS_FIELD_MANAGER,
            });
          } catch (err) {
            if (!isAlreadyExists(err))
              throw Object.assign(err as Error, {
                failedObject: ['PersistentVolumeClaim', modelPvcName(name)],
              });
            pvc = await client.get(PersistentVolumeClaims, {
              namespace,
              name: modelPvcName(name),
            });
          }
        } else if (op.kind === 'createJob') {
          try {
            await client.create(
              Jobs,
              buildJob(model, {
                image: options.downloaderImage,
                pvcUid: pvc?.metadata?.uid,
              }),
              { fieldManager: MODELS_FIELD_MANAGER },
            );
            metrics.downloadsStarted.inc({ source });
          } catch (err) {
            if (!isAlreadyExists(err))
              throw Object.assign(err as Error, {
                failedObject: ['Job', modelDownloadJobName(name)],
              });
          }
        } else {
          try {
            // Background: the old pods go with the Job; the uid makes sure only the Job that was seen is deleted.
            await client.delete(
              Jobs,
              { namespace, name: modelDownloadJobName(name) },
              { propagationPolicy: 'Background', uid: op.uid },
            );
          } catch (err) {
            if (!isNotFound(err) && (err as { code?: number }).code !== 409)
              throw err;
          }
        }
      }
    } catch (err) {
      const failed = (
        err as { failedObject?: ['PersistentVolumeClaim' | 'Job', string] }
      ).failedObject;
      if (!failed) throw err;
      status = creationFailedStatus(
        input,
        status,
        failed[0],
        failed[1],
        errorText(err),
      );
      if (status.message !== model.status?.message)
        events.event(model, 'Warning', 'CreateFailed', status.message!);
      await applier.applyStatus({
        apiVersion: model.apiVersion,
        kind: model.kind,
        metadata: { name, namespace },
        status,
      });
      throw err; // retried with the work queue's backoff
    }

    if (!sameStatus(status, model.status)) {
      await applier.applyStatus({
        apiVersion: model.apiVersion,
        kind: model.kind,
        metadata: { name, namespace },
        status,
      });
    }
    for (const e of decision.events)
      events.event(model, e.type, e.reason, e.message);
    if (decision.outcome === 'succeeded' || decision.outcome === 'failed') {
      const counter =
        decision.outcome === 'succeeded'
          ? metrics.downloadsSucceeded
          : metrics.downloadsFailed;
      counter.inc({ source });
      if (decision.outcome === 'succeeded' && status.download?.totalBytes)
        metrics.downloadedBytes.inc({ source }, status.download.totalBytes);
      const started = observedJob?.startTime
        ? Date.parse(observedJob.startTime)
        : NaN;
      const ended = observedJob?.completionTime
        ? Date.parse(observedJob.completionTime)
        : Date.now();
      if (Number.isFinite(started))
        metrics.downloadDuration.observe(
          { source, result: decision.outcome },
          Math.max(0, (ended - started) / 1000),
        );
    }
    return { requeueAfterMs: decision.requeueAfterMs };
  };

  const controller = mgr
    .controller()
    .named('model')
    // Spec changes and creates; the status is ours (its changes need no reconcile), and PVC/Job events come through owns().
    .for<ModelObject>(Models, { predicates: [generationChanged] })
    .owns(PersistentVolumeClaims, { selector: OWNED_SELECTOR })
    .owns(Jobs, { selector: OWNED_SELECTOR })
    .withOptions({
      maxConcurrentReconciles: options.maxConcurrentReconciles ?? 16,
    })
    .complete(reconcile);
  return { controller, models, pvcs, jobs, metrics };
}

import {
  creationFailedStatus,
  decideModel,
  type ModelInput,
  type ObservedJob,
  REQUEUE,
} from './decide';
import type { ModelObject } from './resources';

const NOW = '2026-11-25T18:00:00Z';

function model(
  phase?: string,
  status: Record<string, unknown> = {},
): ModelObject {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name: 'llama', namespace: 'ml', uid: 'm-uid', generation: 2 },
    spec: {
      source: { huggingFace: { repoId: 'meta/llama', revision: 'main' } },
      storage: { storageClass: 'gp3', size: '1Gi' },
    },
    ...(phase ? { status: { phase, ...status } } : {}),
  } as ModelObject;
}

const pvc = { uid: 'pvc-1', deleting: false };
function job(partial: Partial<ObservedJob> = {}): ObservedJob {
  return {
    uid: 'job-1',
    pvcUid: 'pvc-1',
    deleting: false,
    succeeded: 0,
    failed: 0,
    complete: false,
    ...partial,
  };
}

function act(input: Partial<ModelInput> & { model: ModelObject }) {
  const decision = decideModel({ now: NOW, ...input });
  if (decision.action !== 'act') throw new Error('expected act');
  return decision;
}

describe('decideModel: seed 003 state machine', () => {
  it('skips a Model being deleted (garbage collection removes PVC and Job; nothing blocks it)', () => {
    const m = model('Ready');
    m.metadata!.deletionTimestamp = NOW;
    expect(decideModel({ model: m, pvc, job: job(), now: NOW })).toEqual({
      action: 'skip',
    });
  });

  it('Pending: creates the PVC, then the Job, and moves to Downloading with one event', () => {
    const d = act({ model: model() });
    expect(d.ops).toEqual([{ kind: 'createPvc' }, { kind: 'createJob' }]);
    expect(d.status).toMatchObject({
      phase: 'Downloading',
      pvcName: 'model-llama',
      progress: 0,
      observedGeneration: 2,
    });
    expect(d.outcome).toBe('started');
    expect(d.events).toEqual([
      {
        type: 'Normal',
        reason: 'DownloadStarted',
        message:
          'Downloading HuggingFace meta/llama@main into PVC model-llama with Job model-download-llama',
      },
    ]);
    expect(d.requeueAfterMs).toBe(REQUEUE.downloading);
  });

  it('Pending after a crash with both objects present: creates nothing again', () => {
    const d = act({ model: model('Pending'), pvc, job: job() });
    expect(d.ops).toEqual([]);
    expect(d.outcome).toBeUndefined();
    expect(d.status.phase).toBe('Downloading');
  });

  it('Pending with the PVC but no Job (crash between the two creates): creates only the Job', () => {
    expect(act({ model: model('Pending'), pvc }).ops).toEqual([
      { kind: 'createJob' },
    ]);
  });

  it('Pending with a Job made for a PVC that is gone: deletes the stale Job first', () => {
    const d = act({
      model: model('Pending'),
      job: job({ complete: true, succeeded: 1 }),
    });
    expect(d.ops).toEqual([
      { kind: 'deleteJob', uid: 'job-1' },
      { kind: 'createPvc' },
    ]);
    expect(d.status.phase).toBe('Pending');
    const other = act({
      model: model('Pending'),
      pvc: { uid: 'pvc-2', deleting: false },
      job: job(),
    });
    expect(other.ops).toEqual([{ kind: 'deleteJob', uid: 'job-1' }]);
  });

  it('Pending waits while the old PVC or Job is still being deleted', () => {
    expect(
      act({ model: model('Pending'), pvc: { uid: 'x', deleting: true } }),
    ).toMatchObject({ ops: [], requeueAfterMs: REQUEUE.waiting });
    expect(
      act({ model: model('Pending'), pvc, job: job({ deleting: true }) }).status
        .message,
    ).toBe('Waiting for the old Job model-download-llama to be deleted');
  });

  it('Downloading: reads progress from the log into status.progress and status.download', () => {
    const d = act({
      model: model('Downloading'),
      pvc,
      job: job(),
      log: {
        progress: {
          event: 'progress',
          bytesDone: 512 * 1024 * 1024,
          bytesTotal: 1024 * 1024 * 1024,
          bytesPerSecond: 10 * 1024 * 1024,
          etaSeconds: 51,
        },
      },
    });
    expect(d.ops).toEqual([]);
    expect(d.events).toEqual([]);
    expect(d.status).toMatchObject({
      phase: 'Downloading',
      progress: 50,
      download: {
        bytesDownloaded: 536870912,
        totalBytes: 1073741824,
        bytesPerSecond: 10485760,
        remainingSeconds: 51,
      },
      message: 'Downloading: 50% (512.0 MiB of 1.0 GiB, 10.0 MiB/s, 51 s left)',
    });
    expect(d.requeueAfterMs).toBeLessThanOrEqual(10_000);
  });

  it('Downloading: a failed attempt that will be retried is shown with its error', () => {
    const d = act({
      model: model('Downloading'),
      pvc,
      job: job({ failed: 1 }),
      log: {
        error: {
          event: 'error',
          message: 'connection reset',
          permanent: false,
        },
      },
    });
    expect(d.status.phase).toBe('Downloading');
    expect(d.status.message).toContain(
      'attempt 1 failed (connection reset); retrying',
    );
  });

  it('Downloading → Ready when the Job succeeded, progress 100', () => {
    const d = act({
      model: model('Downloading', { progress: 40 }),
      pvc,
      job: job({ succeeded: 1, complete: true }),
      log: { done: { event: 'done', bytesTotal: 2048, files: 2, seconds: 1 } },
    });
    expect(d.status).toMatchObject({
      phase: 'Ready',
      progress: 100,
      message: 'Model files are in PVC model-llama (2.0 KiB)',
    });
    expect(d.status.download).toEqual({
      bytesDownloaded: 2048,
      totalBytes: 2048,
      bytesPerSecond: 0,
      remainingSeconds: 0,
    });
    expect(d.status.conditions?.find(c => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'Downloaded',
      observedGeneration: 2,
    });
    expect(d.outcome).toBe('succeeded');
    expect(d.events.map(e => e.reason)).toEqual(['DownloadSucceeded']);
    expect(d.requeueAfterMs).toBe(REQUEUE.ready);
  });

  it.each([
    ['failed >= backoffLimit (3)', job({ failed: 3 })],
    [
      'the Job failed condition (pod failure policy)',
      job({
        failed: 1,
        failedCondition: { reason: 'PodFailurePolicy', message: 'exit code 2' },
      }),
    ],
  ])("Downloading → Failed on %s, with the downloader's error", (_label, j) => {
    const d = act({
      model: model('Downloading'),
      pvc,
      job: j,
      log: {
        error: {
          event: 'error',
          message: 'needs 3.0 GiB but spec.storage.size is 1Gi',
          permanent: true,
        },
      },
    });
    expect(d.status.phase).toBe('Failed');
    expect(d.status.message).toBe(
      'Download failed: needs 3.0 GiB but spec.storage.size is 1Gi. Fix the cause, then delete Job model-download-llama to retry',
    );
    expect(d.outcome).toBe('failed');
    expect(d.events).toEqual([
      { type: 'Warning', reason: 'DownloadFailed', message: d.status.message },
    ]);
  });

  it('Downloading with the Job missing: recreates it (seed: "If Job not found: Recreate it")', () => {
    const d = act({ model: model('Downloading'), pvc });
    expect(d.ops).toEqual([{ kind: 'createJob' }]);
    expect(d.status.phase).toBe('Downloading');
    expect(d.events.map(e => e.reason)).toEqual(['JobRecreated']);
  });

  it('Downloading with the PVC deleted: deletes the Job and starts again from Pending', () => {
    const d = act({ model: model('Downloading'), job: job() });
    expect(d.ops).toEqual([{ kind: 'deleteJob', uid: 'job-1' }]);
    expect(d.status.phase).toBe('Pending');
  });

  it('Ready stays Ready while the PVC exists, polling slowly, with no event', () => {
    const d = act({
      model: model('Ready', { message: 'Model files are in PVC model-llama' }),
      pvc,
      job: job({ complete: true, succeeded: 1 }),
    });
    expect(d).toMatchObject({
      ops: [],
      events: [],
      requeueAfterMs: REQUEUE.ready,
      status: { phase: 'Ready', progress: 100 },
    });
  });

  it('Ready → Pending when the PVC was deleted (the old Job is deleted too)', () => {
    const d = act({
      model: model('Ready'),
      job: job({ complete: true, succeeded: 1 }),
    });
    expect(d.ops).toEqual([{ kind: 'deleteJob', uid: 'job-1' }]);
    expect(d.status).toMatchObject({ phase: 'Pending', progress: 0 });
    expect(d.events.map(e => e.reason)).toEqual(['PVCDeleted']);
  });

  it('Failed stays Failed while its Job exists; Job deleted → Pending (retry)', () => {
    expect(
      act({
        model: model('Failed', { message: 'Download failed: x' }),
        pvc,
        job: job({ failed: 4 }),
      }),
    ).toMatchObject({
      ops: [],
      events: [],
      requeueAfterMs: REQUEUE.failed,
      status: { phase: 'Failed', message: 'Download failed: x' },
    });
    const retry = act({ model: model('Failed'), pvc });
    expect(retry.status.phase).toBe('Pending');
    expect(retry.events.map(e => e.reason)).toEqual(['Retrying']);
  });

  it("keeps a condition's lastTransitionTime while its status does not change", () => {
    const first = act({ model: model('Downloading'), pvc, job: job() });
    const again = act({
      model: model('Downloading', {
        conditions: first.status.conditions!.map(c => ({
          ...c,
          lastTransitionTime: '2020-01-01T00:00:00Z',
        })),
      }),
      pvc,
      job: job(),
      now: '2026-11-25T19:00:00Z',
    });
    expect(
      again.status.conditions!.every(
        c => c.lastTransitionTime === '2020-01-01T00:00:00Z',
      ),
    ).toBe(true);
  });
});

describe('creationFailedStatus', () => {
  it('names the object and the server reason, keeps the phase', () => {
    const input = { model: model(), now: NOW };
    const decided = act(input).status;
    const status = creationFailedStatus(
      input,
      decided,
      'PersistentVolumeClaim',
      'model-llama',
      'exceeded quota: storage',
    );
    expect(status.phase).toBe('Pending');
    expect(status.message).toBe(
      'Could not create PersistentVolumeClaim model-llama: exceeded quota: storage. Retrying with backoff',
    );
    expect(
      status.conditions?.find(c => c.type === 'StorageCreated'),
    ).toMatchObject({ status: 'False', reason: 'PVCCreateFailed' });
  });
});

/**
 * The Model controller on a real control plane (API server, the real job,
 * garbage-collector, quota and pvc-protection controllers of
 * kube-controller-manager, kwok nodes), acting as its ServiceAccount with
 * the RBAC of controllers/deploy/models: every transition of seed 003's
 * state machine, creation failures, a restart, deletion.
 */
import {
  isNotFound,
  Jobs,
  PersistentVolumeClaims,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { Models } from './reconciler';
import {
  eventsRecorded,
  eventually,
  finishJobPod,
  getModel,
  modelObject,
  startModels,
  useModelsCluster,
} from './__testUtils__/cluster';

const ResourceQuotas: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
};
const NS = 'ml';
const env = useModelsCluster({
  name: 'models-controller',
  namespaces: [NS, 'quota'],
  flags: ['--webhook-mode=off', '--downloader-image=downloader:test'],
});

const hfSpec = (size = '1Gi') => ({
  source: { huggingFace: { repoId: 'Qwen/Qwen2.5-0.5B' } },
  storage: { storageClass: 'local-models', size },
  credentialsSecret: 'hf-token',
  nodeSelector: { type: 'kwok' },
});

async function phaseOf(namespace: string, name: string, phase: string) {
  return eventually(
    `Model ${name} to be ${phase}`,
    async () => {
      const m = await getModel(env.client, namespace, name);
      return m.status?.phase === phase && m;
    },
    60_000,
  );
}

async function get(
  rt: ResourceType,
  namespace: string,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await env.client.get(rt, { namespace, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

describe('the Model controller', () => {
  it('Pending → PVC and Job (owned, configured) → Downloading → Ready with progress 100', async () => {
    const created = await env.client.create(
      Models,
      modelObject(NS, 'qwen', hfSpec()),
    );
    const m = await phaseOf(NS, 'qwen', 'Downloading');
    expect(m.status).toMatchObject({
      pvcName: 'model-qwen',
      observedGeneration: 1,
    });

    const pvc = (await get(PersistentVolumeClaims, NS, 'model-qwen')) as any;
    expect(pvc.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Model',
        name: 'qwen',
        uid: created.metadata!.uid,
        controller: true,
      }),
    ]);
    expect(pvc.spec).toMatchObject({
      storageClassName: 'local-models',
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
    });
    const job = (await get(Jobs, NS, 'model-download-qwen')) as any;
    expect(job.metadata.ownerReferences[0]).toMatchObject({
      kind: 'Model',
      uid: created.metadata!.uid,
    });
    expect(job.metadata.annotations['models.airunway.ai/pvc-uid']).toBe(
      pvc.metadata.uid,
    );
    expect(job.spec).toMatchObject({
      backoffLimit: 3,
      ttlSecondsAfterFinished: 3600,
    });
    expect(job.spec.template.spec).toMatchObject({
      nodeSelector: { type: 'kwok' },
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 },
    });
    expect(job.spec.template.spec.containers[0].env).toContainEqual({
      name: 'HF_TOKEN',
      valueFrom: {
        secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN', optional: true },
      },
    });

    await finishJobPod(env.client, NS, 'model-download-qwen', 0);
    const ready = await phaseOf(NS, 'qwen', 'Ready');
    expect(ready.status).toMatchObject({
      progress: 100,
      message: 'Model files are in PVC model-qwen',
    });
    expect(
      ready.status!.conditions!.find(c => c.type === 'Ready'),
    ).toMatchObject({ status: 'True', reason: 'Downloaded' });
    await eventsRecorded(
      env.client,
      NS,
      'qwen',
      'DownloadStarted',
      'DownloadSucceeded',
    );
    const metrics = await env.models.manager.metrics.registry.metrics();
    expect(metrics).toMatch(
      /airunway_model_downloads_started_total\{source="huggingface"\} 1/,
    );
    expect(metrics).toMatch(
      /airunway_model_downloads_succeeded_total\{source="huggingface"\} 1/,
    );
    expect(metrics).toMatch(
      /airunway_model_download_duration_seconds_count\{source="huggingface",result="succeeded"\} 1/,
    );
    expect(metrics).toMatch(/airunway_models\{phase="Ready"\} 1/);
  }, 120_000);

  it('Ready, PVC deleted → Pending → a new PVC and a new Job (the old Job deleted) → Downloading', async () => {
    const oldJob = (await get(Jobs, NS, 'model-download-qwen'))!;
    const oldPvc = (await get(PersistentVolumeClaims, NS, 'model-qwen'))!;
    await env.client.delete(PersistentVolumeClaims, {
      namespace: NS,
      name: 'model-qwen',
    });
    const { pvc, model } = await eventually(
      'a new PVC and Job (bound to the new PVC), and Downloading',
      async () => {
        const [newPvc, job, m] = await Promise.all([
          get(PersistentVolumeClaims, NS, 'model-qwen'),
          get(Jobs, NS, 'model-download-qwen'),
          getModel(env.client, NS, 'qwen'),
        ]);
        return (
          newPvc &&
          newPvc.metadata!.uid !== oldPvc.metadata!.uid &&
          job &&
          job.metadata!.uid !== oldJob.metadata!.uid &&
          m.status?.phase === 'Downloading' &&
          job.metadata!.annotations!['models.airunway.ai/pvc-uid'] ===
            newPvc.metadata!.uid && { pvc: newPvc, model: m }
        );
      },
      60_000,
    );
    // The new PVC is the Model's too: deleting the Model still removes it.
    expect(pvc.metadata!.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Model',
        uid: model.metadata!.uid,
        controller: true,
      }),
    ]);
    await eventsRecorded(env.client, NS, 'qwen', 'PVCDeleted');
  }, 120_000);

  it('Downloading, Job deleted → the Job is recreated', async () => {
    const oldJob = (await get(Jobs, NS, 'model-download-qwen'))!;
    await env.client.delete(
      Jobs,
      { namespace: NS, name: 'model-download-qwen' },
      { propagationPolicy: 'Background' },
    );
    await eventually(
      'a recreated Job',
      async () => {
        const job = await get(Jobs, NS, 'model-download-qwen');
        return job && job.metadata!.uid !== oldJob.metadata!.uid;
      },
      60_000,
    );
    expect((await getModel(env.client, NS, 'qwen')).status?.phase).toBe(
      'Downloading',
    );
    await eventsRecorded(env.client, NS, 'qwen', 'JobRecreated');
  }, 120_000);

  it('a restarted operator creates nothing twice and keeps the status (level-triggered)', async () => {
    const before = (await get(Jobs, NS, 'model-download-qwen'))!;
    await env.models.manager.stop();
    await env.running;
    ({ models: env.models, running: env.running } = await startModels(
      env.cluster,
      ['--webhook-mode=off', '--downloader-image=downloader:test'],
      { kubeConfig: env.account.kubeConfig },
    ));
    await new Promise(r => setTimeout(r, 2000));
    const after = (await get(Jobs, NS, 'model-download-qwen'))!;
    expect(after.metadata!.uid).toBe(before.metadata!.uid);
    expect((await getModel(env.client, NS, 'qwen')).status?.phase).toBe(
      'Downloading',
    );
  }, 120_000);

  it('Downloading → Failed when the downloader exits "cannot retry" (pod failure policy); Job deleted → retried', async () => {
    await finishJobPod(env.client, NS, 'model-download-qwen', 2);
    const failed = await phaseOf(NS, 'qwen', 'Failed');
    expect(failed.status!.message).toMatch(
      /^Download failed: .*\. Fix the cause, then delete Job model-download-qwen to retry$/,
    );
    await eventsRecorded(env.client, NS, 'qwen', 'DownloadFailed');

    const failedJob = (await get(Jobs, NS, 'model-download-qwen'))!;
    await env.client.delete(
      Jobs,
      { namespace: NS, name: 'model-download-qwen' },
      { propagationPolicy: 'Background' },
    );
    await eventually(
      'a new Job and Downloading again',
      async () => {
        const [job, m] = await Promise.all([
          get(Jobs, NS, 'model-download-qwen'),
          getModel(env.client, NS, 'qwen'),
        ]);
        return (
          job &&
          job.metadata!.uid !== failedJob.metadata!.uid &&
          m.status?.phase === 'Downloading'
        );
      },
      60_000,
    );
    await eventsRecorded(env.client, NS, 'qwen', 'Retrying');
  }, 120_000);

  it('Downloading → Failed after 3 failed attempts (seed: failed >= backoffLimit), retried pods in between', async () => {
    await env.client.create(Models, modelObject(NS, 'flaky', hfSpec()));
    await phaseOf(NS, 'flaky', 'Downloading');
    // Exit code 1 (a retry may help): the real job controller makes a new pod after its backoff (10 s, 20 s).
    const phases: Array<string | undefined> = [];
    for (const attempt of [1, 2]) {
      await finishJobPod(env.client, NS, 'model-download-flaky', 1);
      await eventually(
        `attempt ${attempt} counted`,
        async () =>
          ((await get(Jobs, NS, 'model-download-flaky')) as any)?.status
            ?.failed === attempt,
        30_000,
      );
      phases.push((await getModel(env.client, NS, 'flaky')).status?.phase);
    }
    expect(phases).toEqual(['Downloading', 'Downloading']);
    await finishJobPod(env.client, NS, 'model-download-flaky', 1);
    const failed = await phaseOf(NS, 'flaky', 'Failed');
    expect(failed.status!.message).toMatch(
      /^Download failed: .*\. Fix the cause, then delete Job model-download-flaky to retry$/,
    );
    await env.client.delete(Models, { namespace: NS, name: 'flaky' });
  }, 180_000);

  it('a PVC the API server refuses: the status names the PVC and the reason, and it is retried', async () => {
    await env.client.create(ResourceQuotas, {
      metadata: { name: 'no-pvcs', namespace: 'quota' },
      spec: { hard: { persistentvolumeclaims: '0' } },
    });
    await eventually(
      'the quota to be counted',
      async () =>
        (
          (await env.client.get(ResourceQuotas, {
            namespace: 'quota',
            name: 'no-pvcs',
          })) as any
        ).status?.hard,
    );
    await env.client.create(Models, modelObject('quota', 'blocked', hfSpec()));
    const m = await eventually(
      'the creation failure in the status',
      async () => {
        const model = await getModel(env.client, 'quota', 'blocked');
        return (
          model.status?.message?.startsWith(
            'Could not create PersistentVolumeClaim model-blocked: ',
          ) && model
        );
      },
    );
    expect(m.status!.message).toContain('exceeded quota');
    expect(
      m.status!.conditions!.find(c => c.type === 'StorageCreated'),
    ).toMatchObject({ status: 'False', reason: 'PVCCreateFailed' });
    await env.client.delete(ResourceQuotas, {
      namespace: 'quota',
      name: 'no-pvcs',
    });
    await phaseOf('quota', 'blocked', 'Downloading');
  }, 120_000);

  it('rejects invalid specs with the field named (the generated CRD)', async () => {
    const bad = [
      [
        {
          ...hfSpec(),
          source: {
            huggingFace: { repoId: 'a/b' },
            url: { url: 'https://x/y' },
          },
        },
        'spec.source must set exactly one of huggingFace, s3 or url',
      ],
      [hfSpec('20GB'), 'spec.storage.size'],
      [
        { ...hfSpec(), source: { huggingFace: { repoId: 'no-owner' } } },
        'spec.source.huggingFace.repoId',
      ],
    ] as const;
    for (const [spec, message] of bad) {
      await expect(
        env.client.create(
          Models,
          modelObject(NS, 'bad', spec as Record<string, unknown>),
        ),
      ).rejects.toThrow(message);
    }
  });

  it('deleting a Model leaves no PVC or Job behind, whatever their state', async () => {
    await env.client.delete(Models, { namespace: NS, name: 'qwen' });
    await env.client.delete(Models, { namespace: 'quota', name: 'blocked' });
    await eventually(
      'the Models, PVCs and Jobs to be gone',
      async () => {
        const left = await Promise.all([
          get(Models, NS, 'qwen'),
          get(PersistentVolumeClaims, NS, 'model-qwen'),
          get(Jobs, NS, 'model-download-qwen'),
          get(Models, 'quota', 'blocked'),
          get(PersistentVolumeClaims, 'quota', 'model-blocked'),
          get(Jobs, 'quota', 'model-download-blocked'),
        ]);
        return left.every(x => x === undefined);
      },
      90_000,
    );
    expect(await get(PersistentVolumeClaims, NS, 'model-qwen')).toBeUndefined();
  }, 120_000);
});

/**
 * The pod-injection webhook called by a real API server (url mode: the
 * operator registers the MutatingWebhookConfiguration itself, with the CA it
 * made), on real pod creates and on the pods a Deployment's ReplicaSet
 * creates.
 */
import {
  Deployments,
  type KubeObject,
  Pods,
} from '@runway-portal/controller-runtime';
import { Models } from './reconciler';
import {
  eventually,
  finishJobPod,
  freePort,
  getModel,
  modelObject,
  useModelsCluster,
} from './__testUtils__/cluster';

const NS = 'apps';
const env = useModelsCluster({
  name: 'models-webhook',
  namespaces: [NS],
  asAdmin: true,
  flags: async () => [
    '--webhook-mode=url',
    `--webhook-port=${await freePort()}`,
    '--downloader-image=downloader:test',
  ],
});

type Pod = KubeObject & {
  spec: {
    containers: Array<{
      name: string;
      image?: string;
      env?: Array<{ name: string; value: string }>;
      volumeMounts?: unknown[];
    }>;
    volumes?: unknown[];
  };
};

function pod(
  name: string,
  annotations: Record<string, string>,
  labels?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      annotations,
      ...(labels ? { labels } : {}),
    },
    spec: {
      containers: [
        { name: 'server', image: 'vllm/vllm-openai:latest' },
        { name: 'sidecar', image: 'busybox' },
      ],
    },
  };
}

beforeAll(async () => {
  await env.client.create(
    Models,
    modelObject(NS, 'llama-3-8b', {
      source: { huggingFace: { repoId: 'meta-llama/Llama-3.1-8B-Instruct' } },
      version: '3.1',
      storage: { storageClass: 'local-models', size: '20Gi' },
    }),
  );
  await env.client.create(
    Models,
    modelObject(NS, 'busy', {
      source: { url: { url: 'https://example.com/m.gguf' } },
      storage: { storageClass: 'x', size: '1Gi' },
    }),
  );
  await eventually('the download Job of llama-3-8b', () =>
    getModel(env.client, NS, 'llama-3-8b').then(
      m => m.status?.phase === 'Downloading',
    ),
  );
  await finishJobPod(env.client, NS, 'model-download-llama-3-8b', 0);
  await eventually(
    'llama-3-8b to be Ready',
    () =>
      getModel(env.client, NS, 'llama-3-8b').then(
        m => m.status?.phase === 'Ready',
      ),
    60_000,
  );
  await eventually('busy to be Downloading', () =>
    getModel(env.client, NS, 'busy').then(
      m => m.status?.phase === 'Downloading',
    ),
  );
}, 120_000);

describe('the injection webhook', () => {
  it('injects the volume, mount, MODEL_* variables and label into a created pod (seed 003 example)', async () => {
    const created = await env.client.create<Pod>(
      Pods,
      pod('vllm', { 'models.airunway.ai/inject': 'llama-3-8b' }),
    );
    expect(created.metadata!.labels).toEqual({
      'models.airunway.ai/injected': 'true',
    });
    expect(created.spec.volumes).toContainEqual({
      name: 'model-llama-3-8b',
      persistentVolumeClaim: { claimName: 'model-llama-3-8b', readOnly: true },
    });
    const server = created.spec.containers[0];
    expect(server.volumeMounts).toContainEqual({
      name: 'model-llama-3-8b',
      mountPath: '/models/llama-3-8b',
      readOnly: true,
    });
    expect(server.env).toEqual([
      { name: 'MODEL_LLAMA_3_8B_NAME', value: 'llama-3-8b' },
      { name: 'MODEL_LLAMA_3_8B_VERSION', value: '3.1' },
      { name: 'MODEL_LLAMA_3_8B_SOURCE_TYPE', value: 'huggingface' },
      {
        name: 'MODEL_LLAMA_3_8B_REPO_ID',
        value: 'meta-llama/Llama-3.1-8B-Instruct',
      },
      { name: 'MODEL_LLAMA_3_8B_MOUNT_PATH', value: '/models/llama-3-8b' },
    ]);
    expect(created.spec.containers[1].env).toBeUndefined();
  });

  it('honours container, mount-path, read-only and inject-env', async () => {
    const created = await env.client.create<Pod>(
      Pods,
      pod('custom', {
        'models.airunway.ai/inject': 'llama-3-8b',
        'models.airunway.ai/container': 'sidecar',
        'models.airunway.ai/mount-path': '/weights',
        'models.airunway.ai/read-only': 'false',
        'models.airunway.ai/inject-env': 'false',
      }),
    );
    expect(created.spec.containers[0].volumeMounts ?? []).not.toContainEqual(
      expect.objectContaining({ name: 'model-llama-3-8b' }),
    );
    expect(created.spec.containers[1].volumeMounts).toContainEqual({
      name: 'model-llama-3-8b',
      mountPath: '/weights',
    });
    expect(created.spec.containers[1].env).toBeUndefined();
  });

  /** The admission requests the operator's webhook server has answered. */
  const webhookCalls = async () =>
    (await env.models.manager.metrics.webhookRequests.get()).values.reduce(
      (sum, v) => sum + v.value,
      0,
    );

  it('leaves a pod without the annotation unchanged, without calling the webhook (matchConditions)', async () => {
    const before = await webhookCalls();
    const created = await env.client.create<Pod>(
      Pods,
      pod('plain', { 'prometheus.io/scrape': 'true' }),
    );
    expect(created.metadata!.labels).toBeUndefined();
    expect(await webhookCalls()).toBe(before);
    // A pod that asks for a model is still sent (and denied here: no such model).
    await expect(
      env.client.create(
        Pods,
        pod('asks', { 'models.airunway.ai/inject': 'nope' }),
      ),
    ).rejects.toThrow('model "nope" not found');
    expect(await webhookCalls()).toBe(before + 1);
  });

  it.each([
    [
      'a missing model',
      { 'models.airunway.ai/inject': 'nope' },
      'model "nope" not found: models.models.airunway.ai "nope" not found',
    ],
    [
      'a model not Ready',
      { 'models.airunway.ai/inject': 'busy' },
      'model "busy" is not ready (phase: Downloading)',
    ],
    [
      'an invalid annotation value',
      {
        'models.airunway.ai/inject': 'llama-3-8b',
        'models.airunway.ai/read-only': 'maybe',
      },
      'invalid value "maybe" for annotation models.airunway.ai/read-only: use "true" or "false"',
    ],
  ])('denies %s with the message', async (_label, annotations, message) => {
    await expect(
      env.client.create(Pods, pod('denied', annotations)),
    ).rejects.toThrow(message);
  });

  it('does not call the webhook for a pod already labelled injected (objectSelector)', async () => {
    const created = await env.client.create<Pod>(
      Pods,
      pod(
        'pre-labelled',
        { 'models.airunway.ai/inject': 'nope' },
        { 'models.airunway.ai/injected': 'true' },
      ),
    );
    expect(
      created.spec.volumes?.some(
        v => (v as { name: string }).name === 'model-nope',
      ) ?? false,
    ).toBe(false);
  });

  it("injects into a Deployment's pods", async () => {
    await env.client.create(Deployments, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'vllm-server', namespace: NS },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'vllm' } },
        template: {
          metadata: {
            labels: { app: 'vllm' },
            annotations: { 'models.airunway.ai/inject': 'llama-3-8b' },
          },
          spec: {
            containers: [
              {
                name: 'vllm',
                image: 'vllm/vllm-openai:latest',
                args: ['--model', '/models/llama-3-8b'],
              },
            ],
          },
        },
      },
    } as KubeObject);
    const pods = await eventually(
      'two pods of the Deployment',
      async () => {
        const list = await env.client.list<Pod>(Pods, {
          namespace: NS,
          labelSelector: 'app=vllm',
        });
        return list.items.length === 2 && list.items;
      },
      60_000,
    );
    for (const p of pods) {
      expect(p.metadata!.labels).toMatchObject({
        'models.airunway.ai/injected': 'true',
      });
      expect(p.spec.containers[0].volumeMounts).toContainEqual({
        name: 'model-llama-3-8b',
        mountPath: '/models/llama-3-8b',
        readOnly: true,
      });
    }
  }, 90_000);

  it('never blocks pods when the webhook is down (failurePolicy Ignore)', async () => {
    await env.models.manager.stop();
    await env.running;
    const created = await env.client.create<Pod>(
      Pods,
      pod('webhook-down', { 'models.airunway.ai/inject': 'llama-3-8b' }),
    );
    expect(created.metadata!.labels).toBeUndefined();
  }, 60_000);
});

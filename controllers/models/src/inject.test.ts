import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  evaluateCondition,
  INJECTION_REQUESTED_CONDITION,
  toCel,
} from '@runway-portal/plugin-runway-common';
import { injectionWebhook, injectModels, type ModelLookup } from './inject';
import type { ModelObject } from './resources';

function model(
  name: string,
  phase: string | undefined,
  source: Record<string, unknown>,
  version?: string,
): ModelObject {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name, namespace: 'ml' },
    spec: {
      source,
      storage: { storageClass: 'x', size: '1Gi' },
      ...(version ? { version } : {}),
    },
    ...(phase ? { status: { phase } } : {}),
  } as ModelObject;
}

const models: Record<string, ModelObject> = {
  'llama-3-8b': model(
    'llama-3-8b',
    'Ready',
    { huggingFace: { repoId: 'meta-llama/Llama-3.1-8B-Instruct' } },
    '3.1',
  ),
  phi: model('phi', 'Ready', { url: { url: 'https://x/phi.gguf' } }),
  weights: model('weights', 'Ready', { s3: { bucket: 'b', key: 'k' } }),
  busy: model('busy', 'Downloading', { url: { url: 'https://x/y' } }),
};
const lookup: ModelLookup = async (_ns, name) =>
  models[name]
    ? { model: models[name] }
    : { notFound: `models.models.airunway.ai "${name}" not found` };

function pod(
  annotations: Record<string, string> | undefined,
  containers = [{ name: 'vllm', image: 'vllm' }],
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'ml',
      ...(annotations ? { annotations } : {}),
    },
    spec: { containers },
  } as KubeObject;
}

async function injected(
  annotations: Record<string, string>,
  containers?: Array<{ name: string; image: string }>,
) {
  const result = await injectModels(pod(annotations, containers), 'ml', lookup);
  if (!result.allowed || !result.pod)
    throw new Error(`expected injection, got ${JSON.stringify(result)}`);
  return result.pod as any;
}

describe('injectModels (seed 003 webhook)', () => {
  it('allows a pod without the annotation unchanged', async () => {
    expect(await injectModels(pod(undefined), 'ml', lookup)).toEqual({
      allowed: true,
      message: 'no injection requested',
    });
  });

  it('injects one model as the seed example shows', async () => {
    const p = await injected({ 'models.airunway.ai/inject': 'llama-3-8b' });
    expect(p.spec.volumes).toEqual([
      {
        name: 'model-llama-3-8b',
        persistentVolumeClaim: {
          claimName: 'model-llama-3-8b',
          readOnly: true,
        },
      },
    ]);
    expect(p.spec.containers[0].volumeMounts).toEqual([
      {
        name: 'model-llama-3-8b',
        mountPath: '/models/llama-3-8b',
        readOnly: true,
      },
    ]);
    expect(p.spec.containers[0].env).toEqual([
      { name: 'MODEL_LLAMA_3_8B_NAME', value: 'llama-3-8b' },
      { name: 'MODEL_LLAMA_3_8B_VERSION', value: '3.1' },
      { name: 'MODEL_LLAMA_3_8B_SOURCE_TYPE', value: 'huggingface' },
      {
        name: 'MODEL_LLAMA_3_8B_REPO_ID',
        value: 'meta-llama/Llama-3.1-8B-Instruct',
      },
      { name: 'MODEL_LLAMA_3_8B_MOUNT_PATH', value: '/models/llama-3-8b' },
    ]);
    expect(p.metadata.labels).toEqual({
      'models.airunway.ai/injected': 'true',
    });
  });

  it('injects several models; mount-path is then the base path; URL and S3 env vars', async () => {
    const p = await injected({
      'models.airunway.ai/inject': ' phi, weights ',
      'models.airunway.ai/mount-path': '/data/',
    });
    expect(
      p.spec.containers[0].volumeMounts.map((m: any) => m.mountPath),
    ).toEqual(['/data/phi', '/data/weights']);
    const env = Object.fromEntries(
      p.spec.containers[0].env.map((e: any) => [e.name, e.value]),
    );
    expect(env).toMatchObject({
      MODEL_PHI_URL: 'https://x/phi.gguf',
      MODEL_PHI_SOURCE_TYPE: 'url',
      MODEL_WEIGHTS_BUCKET: 'b',
      MODEL_WEIGHTS_SOURCE_TYPE: 's3',
    });
    expect(env.MODEL_PHI_VERSION).toBeUndefined();
  });

  it('uses mount-path as the path for a single model', async () => {
    const p = await injected({
      'models.airunway.ai/inject': 'phi',
      'models.airunway.ai/mount-path': '/m',
    });
    expect(p.spec.containers[0].volumeMounts[0].mountPath).toBe('/m');
    expect(
      p.spec.containers[0].env.find(
        (e: any) => e.name === 'MODEL_PHI_MOUNT_PATH',
      ).value,
    ).toBe('/m');
  });

  it('mounts read-write with read-only=false', async () => {
    const p = await injected({
      'models.airunway.ai/inject': 'phi',
      'models.airunway.ai/read-only': 'false',
    });
    expect(p.spec.volumes[0].persistentVolumeClaim.readOnly).toBe(false);
    expect(p.spec.containers[0].volumeMounts[0].readOnly).toBe(false);
  });

  it('targets the named container', async () => {
    const p = await injected(
      {
        'models.airunway.ai/inject': 'phi',
        'models.airunway.ai/container': 'server',
      },
      [
        { name: 'sidecar', image: 's' },
        { name: 'server', image: 'v' },
      ],
    );
    expect(p.spec.containers[0].volumeMounts).toBeUndefined();
    expect(p.spec.containers[1].volumeMounts).toHaveLength(1);
  });

  it('injects no env vars with inject-env=false', async () => {
    const p = await injected({
      'models.airunway.ai/inject': 'phi',
      'models.airunway.ai/inject-env': 'false',
    });
    expect(p.spec.containers[0].env).toBeUndefined();
    expect(p.spec.containers[0].volumeMounts).toHaveLength(1);
  });

  it.each([
    [
      { 'models.airunway.ai/inject': 'nope' },
      'model "nope" not found: models.models.airunway.ai "nope" not found',
    ],
    [
      { 'models.airunway.ai/inject': 'busy' },
      'model "busy" is not ready (phase: Downloading)',
    ],
    [
      {
        'models.airunway.ai/inject': 'phi',
        'models.airunway.ai/read-only': 'yes',
      },
      'invalid value "yes" for annotation models.airunway.ai/read-only: use "true" or "false"',
    ],
    [
      {
        'models.airunway.ai/inject': 'phi',
        'models.airunway.ai/inject-env': '1',
      },
      'invalid value "1" for annotation models.airunway.ai/inject-env: use "true" or "false"',
    ],
    [
      {
        'models.airunway.ai/inject': 'phi',
        'models.airunway.ai/container': 'x',
      },
      'invalid value "x" for annotation models.airunway.ai/container: the pod has no such container (containers: vllm)',
    ],
    [
      {
        'models.airunway.ai/inject': 'phi',
        'models.airunway.ai/mount-path': 'rel',
      },
      'invalid value "rel" for annotation models.airunway.ai/mount-path: use an absolute path such as "/models"',
    ],
    [{ 'models.airunway.ai/inject': ' , ' }, 'list one or more Model names'],
    [{ 'models.airunway.ai/inject': 'Phi' }, '"Phi" is not a Model name'],
  ])('denies %j', async (annotations, message) => {
    const result = await injectModels(pod(annotations), 'ml', lookup);
    expect(result.allowed).toBe(false);
    expect(result.message).toContain(message);
  });
});

describe('injectionWebhook', () => {
  const review = (object: unknown) => ({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u1', namespace: 'ml', operation: 'CREATE', object },
  });

  it('answers with an RFC 6902 patch', async () => {
    const reply = (await injectionWebhook(lookup)(
      review(pod({ 'models.airunway.ai/inject': 'phi' })),
    )) as any;
    expect(reply.status).toBe(200);
    expect(reply.body.response).toMatchObject({
      uid: 'u1',
      allowed: true,
      patchType: 'JSONPatch',
    });
    const patch = JSON.parse(
      Buffer.from(reply.body.response.patch, 'base64').toString(),
    );
    expect(patch).toContainEqual({
      op: 'add',
      path: '/metadata/labels',
      value: { 'models.airunway.ai/injected': 'true' },
    });
    expect(patch.map((o: any) => o.path)).toEqual(
      expect.arrayContaining([
        '/spec/volumes',
        '/spec/containers/0/volumeMounts',
        '/spec/containers/0/env',
      ]),
    );
  });

  it('denies with 403 and the message; 400 for a body that is not a review', async () => {
    const denied = (await injectionWebhook(lookup)(
      review(pod({ 'models.airunway.ai/inject': 'busy' })),
    )) as any;
    expect(denied.body.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: {
        code: 403,
        reason: 'Forbidden',
        message: 'model "busy" is not ready (phase: Downloading)',
      },
    });
    expect((await injectionWebhook(lookup)({ nope: 1 })).status).toBe(400);
  });

  it('never throws: a failing lookup denies with 500 and its message', async () => {
    const reply = (await injectionWebhook(async () => {
      throw new Error('API server unreachable');
    })(review(pod({ 'models.airunway.ai/inject': 'phi' })))) as any;
    expect(reply.body.response.status).toEqual({
      code: 500,
      reason: 'InternalError',
      message: 'model injection failed: API server unreachable',
    });
  });
});

describe('INJECTION_REQUESTED_CONDITION (the API server calls the webhook only when it is true)', () => {
  const asked = (p: KubeObject) => {
    const outcome = evaluateCondition(
      INJECTION_REQUESTED_CONDITION.expression,
      {
        object: toCel(p),
      },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value;
  };

  it.each([
    ['no annotations', undefined],
    ['empty annotations', {}],
    ['only other annotations', { 'prometheus.io/scrape': 'true' }],
    [
      "only the injection's options",
      { 'models.airunway.ai/mount-path': '/weights' },
    ],
  ])(
    'is false for a pod with %s, which the webhook lets through unchanged',
    async (_label, annotations) => {
      expect(asked(pod(annotations))).toBe(false);
      expect(await injectModels(pod(annotations), 'ml', lookup)).toEqual({
        allowed: true,
        message: 'no injection requested',
      });
    },
  );

  it.each([
    ['a model', { 'models.airunway.ai/inject': 'llama-3-8b' }],
    [
      'an empty list (denied by the webhook)',
      { 'models.airunway.ai/inject': '' },
    ],
    ['a missing model (denied)', { 'models.airunway.ai/inject': 'nope' }],
  ])('is true for a pod asking for %s', async (_label, annotations) => {
    expect(asked(pod(annotations))).toBe(true);
    expect(await injectModels(pod(annotations), 'ml', lookup)).not.toEqual({
      allowed: true,
      message: 'no injection requested',
    });
  });
});

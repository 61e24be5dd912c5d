import fs from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  DESIRED_ANNOTATION,
  IDENTITY_ANNOTATION,
  TransformError,
  desiredObjects,
} from '@runway-portal/provider-shared';
import { parse } from 'yaml';
import { kaitoProvider, prepareKaito } from './definition';
import { mapKaitoStatus } from './status';
import { GPU_PRESENT_LABEL, ggufModelUri } from './transform';

const testdata = (file: string) =>
  parse(fs.readFileSync(path.join(__dirname, 'testdata', file), 'utf8'));

function example2(): ModelDeployment {
  const deployment = testdata(
    'example2-modeldeployment.yaml',
  ) as ModelDeployment;
  deployment.metadata!.uid = '00000000-0000-0000-0000-000000000002';
  deployment.status = { provider: { name: 'kaito' } };
  return deployment;
}

function withoutHashes(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  delete copy.metadata!.annotations;
  return copy;
}

const v1beta1 = { apiVersion: 'kaito.sh/v1beta1' };

function md(spec: Partial<ModelDeployment['spec']>): ModelDeployment {
  return {
    metadata: { name: 'llm', namespace: 'ns', uid: 'u' },
    spec: {
      model: { id: 'microsoft/Phi-4-mini-instruct' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      ...spec,
    },
    status: { provider: { name: 'kaito' } },
  };
}

describe('KAITO transform', () => {
  it('produces seed 000 example 2 (golden file)', () => {
    const { objects, warnings } = desiredObjects(
      kaitoProvider,
      example2(),
      v1beta1,
    );
    expect(warnings).toEqual([]);
    expect(objects).toHaveLength(1);
    expect(withoutHashes(objects[0])).toEqual(
      testdata('example2-workspace.yaml'),
    );
    expect(Object.keys(objects[0].metadata!.annotations!).sort()).toEqual([
      DESIRED_ANNOTATION,
      IDENTITY_ANNOTATION,
    ]);
  });

  it('writes the detected API version', () => {
    expect(
      desiredObjects(kaitoProvider, example2(), {
        apiVersion: 'kaito.sh/v1alpha1',
      }).objects[0].apiVersion,
    ).toBe('kaito.sh/v1alpha1');
  });

  it('mounts storage volumes in a template-mode Workspace and creates the PVC of a sized volume', () => {
    const storage = {
      volumes: [
        {
          name: 'model-cache',
          purpose: 'modelCache' as const,
          claimName: 'pvc-claim',
        },
        { name: 'compile', purpose: 'compilationCache' as const, size: '50Gi' },
        {
          name: 'datasets',
          claimName: 'team-datasets',
          mountPath: '/data',
          readOnly: true,
        },
      ],
    };
    const { objects } = desiredObjects(
      kaitoProvider,
      md({
        model: { id: 'microsoft/Phi-4-mini-instruct', storage },
        image: 'vllm/vllm-openai:v0.11.0',
        env: [{ name: 'LOG_LEVEL', value: 'debug' }],
      }),
      v1beta1,
    );
    const pod = (objects[0] as any).inference.template.spec;
    expect(pod.volumes).toEqual([
      {
        name: 'model-cache',
        persistentVolumeClaim: { claimName: 'pvc-claim' },
      },
      { name: 'compile', persistentVolumeClaim: { claimName: 'llm-compile' } },
      {
        name: 'datasets',
        persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
      },
    ]);
    expect(pod.containers[0].volumeMounts).toEqual([
      { name: 'model-cache', mountPath: '/model-cache' },
      { name: 'compile', mountPath: '/compilation-cache' },
      { name: 'datasets', mountPath: '/data', readOnly: true },
    ]);
    expect(pod.containers[0].env).toEqual([
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'HF_HOME', value: '/model-cache' },
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ]);
    expect(objects.slice(1)).toHaveLength(1);
    expect(objects[1]).toMatchObject({
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'llm-compile',
        ownerReferences: [
          { kind: 'ModelDeployment', name: 'llm', controller: true },
        ],
      },
      spec: {
        accessModes: ['ReadWriteMany'],
        resources: { requests: { storage: '50Gi' } },
      },
    });
  });

  it('gives a llama.cpp template the model cache but no vLLM cache variable', () => {
    const d = example2();
    d.spec.model.storage = {
      volumes: [
        { name: 'model-cache', purpose: 'modelCache', claimName: 'gguf' },
        { name: 'compile', purpose: 'compilationCache', claimName: 'c' },
      ],
    };
    const container = (
      desiredObjects(kaitoProvider, d, v1beta1).objects[0] as any
    ).inference.template.spec.containers[0];
    expect(container.env).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
    expect(container.volumeMounts.map((m: { name: string }) => m.name)).toEqual(
      ['model-cache', 'compile'],
    );
  });

  it('fails a preset with storage volumes naming the field, rather than dropping them', () => {
    const d = md({
      model: {
        id: 'microsoft/Phi-4-mini-instruct',
        storage: {
          volumes: [
            { name: 'model-cache', purpose: 'modelCache', size: '100Gi' },
          ],
        },
      },
    });
    expect(() => desiredObjects(kaitoProvider, d, v1beta1)).toThrow(
      TransformError,
    );
    expect(() => desiredObjects(kaitoProvider, d, v1beta1)).toThrow(
      /^spec\.model\.storage\.volumes: KAITO presets build their own pods and cannot mount volumes: set spec\.image .*or choose another provider/,
    );
  });

  it('fails a volume it cannot mount, naming the field', () => {
    const d = example2();
    d.spec.model.storage = {
      volumes: [{ name: 'data', claimName: 'team-data' }],
    };
    expect(() => desiredObjects(kaitoProvider, d, v1beta1)).toThrow(
      /^spec\.model\.storage\.volumes\[0\]\.mountPath: /,
    );
  });

  it("runs the GGUF file prepare chose, and keeps the quantisation away from llama.cpp's flags", () => {
    const d = example2();
    d.spec.model.id = 'bartowski/Llama-3.2-1B-Instruct-GGUF';
    d.spec.engine = {
      type: 'llamacpp',
      args: { quantization: 'Q8_0', threads: '4' },
    };
    const { objects } = desiredObjects(kaitoProvider, d, {
      ...v1beta1,
      inputs: { ggufFile: 'Llama-3.2-1B-Instruct-Q8_0.gguf' },
    });
    expect(
      (objects[0].inference as any).template.spec.containers[0].args,
    ).toEqual([
      'huggingface://bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q8_0.gguf',
      '--address=:5000',
      '--threads=4',
    ]);
  });

  it('looks up a GGUF file only for a llama.cpp repository id with an image', async () => {
    expect(await prepareKaito(md({}))).toBeUndefined();
    const gguf = example2();
    gguf.spec.model.id = 'org/repo/model-Q4_0.gguf';
    expect(await prepareKaito(gguf)).toBeUndefined();
    const noImage = example2();
    delete noImage.spec.image;
    expect(await prepareKaito(noImage)).toBeUndefined();
  });

  it('derives GGUF files', () => {
    expect(ggufModelUri('google/gemma-3-1b-it-qat-q8_0-gguf')).toBe(
      'huggingface://google/gemma-3-1b-it-qat-q8_0-gguf/gemma-3-1b-it-q8_0.gguf',
    );
    expect(ggufModelUri('org/repo/model-Q4.gguf')).toBe(
      'huggingface://org/repo/model-Q4.gguf',
    );
  });

  it('uses a vLLM preset with the model access secret and an inference ConfigMap for the served name and engine flags', () => {
    const { objects } = desiredObjects(
      kaitoProvider,
      md({
        engine: {
          type: 'vllm',
          contextLength: 8192,
          trustRemoteCode: true,
          args: { 'gpu-memory-utilization': '0.9' },
        },
        secrets: { huggingFaceToken: 'hf' },
        scaling: { replicas: 2 },
      }),
      { ...v1beta1, upstreamRelease: '0.9.0' },
    );
    expect(objects[0]).toMatchObject({
      resource: { count: 2 },
      inference: {
        preset: {
          name: 'microsoft/Phi-4-mini-instruct',
          presetOptions: { modelAccessSecret: 'hf' },
        },
        config: 'llm-inference-config',
      },
    });
    expect(objects[1]).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'llm-inference-config', namespace: 'ns' },
    });
    expect(
      parse(
        (objects[1].data as Record<string, string>)['inference_config.yaml'],
      ),
    ).toEqual({
      vllm: {
        'max-model-len': 8192,
        'trust-remote-code': true,
        'served-model-name': 'Phi-4-mini-instruct',
        'gpu-memory-utilization': '0.9',
      },
    });
  });

  it('tells a preset its served name even when spec.model.servedName is unset (KAITO would serve the preset name)', () => {
    const { objects } = desiredObjects(kaitoProvider, md({}), v1beta1);
    expect((objects[0].inference as any).config).toBe('llm-inference-config');
    expect(
      parse(
        (objects[1].data as Record<string, string>)['inference_config.yaml'],
      ),
    ).toEqual({ vllm: { 'served-model-name': 'Phi-4-mini-instruct' } });
  });

  it('warns that v1alpha1 presets cannot take the secret, and names the built-in preset there', () => {
    const { objects, warnings } = desiredObjects(
      kaitoProvider,
      md({
        model: { id: 'mistralai/Mistral-7B-Instruct-v0.3' },
        secrets: { huggingFaceToken: 'hf' },
      }),
      { apiVersion: 'kaito.sh/v1alpha1' },
    );
    expect((objects[0].inference as any).preset).toEqual({
      name: 'mistral-7b-instruct',
    });
    expect(warnings).toEqual([
      expect.stringContaining("secrets.huggingFaceToken 'hf' is not passed"),
    ]);
  });

  it('refuses on a v1alpha1-only KAITO (older than v0.4.5) a preset that came with v0.4.5 or later', () => {
    expect(() =>
      desiredObjects(kaitoProvider, md({}), {
        apiVersion: 'kaito.sh/v1alpha1',
      }),
    ).toThrow(
      /^spec\.model\.id: KAITO's preset 'phi-4-mini-instruct' for 'microsoft\/Phi-4-mini-instruct' needs KAITO v0\.4\.5 or later, and this KAITO is older than v0\.4\.5: set spec\.image /,
    );
  });

  describe('preset names for the installed KAITO release', () => {
    const preset = (id: string, upstreamRelease?: string) =>
      (
        desiredObjects(kaitoProvider, md({ model: { id } }), {
          ...v1beta1,
          upstreamRelease,
        }).objects[0].inference as any
      ).preset.name;

    it('writes the Hugging Face id from v0.9.0 on (and when the release is unknown, as in the preview)', () => {
      expect(preset('mistralai/Mistral-7B-Instruct-v0.3', '0.9.0')).toBe(
        'mistralai/Mistral-7B-Instruct-v0.3',
      );
      expect(preset('Qwen/Qwen3-0.6B', '0.12.0')).toBe('Qwen/Qwen3-0.6B');
      expect(preset('Qwen/Qwen3-0.6B')).toBe('Qwen/Qwen3-0.6B');
    });

    it("writes KAITO's built-in preset name before v0.9.0 (not the lower-cased basename)", () => {
      expect(preset('mistralai/Mistral-7B-Instruct-v0.3', '0.4.5')).toBe(
        'mistral-7b-instruct',
      );
      expect(preset('google/gemma-3-27b-it', '0.4.5')).toBe(
        'gemma-3-27b-instruct',
      );
      expect(preset('meta-llama/llama-3.1-8b-instruct', '0.4.5')).toBe(
        'llama-3.1-8b-instruct',
      );
    });

    it('warns when the built-in preset is newer than the release the CRD shows', () => {
      const { warnings } = desiredObjects(
        kaitoProvider,
        md({ model: { id: 'google/gemma-3-4b-it' } }),
        { ...v1beta1, upstreamRelease: '0.4.5' },
      );
      expect(warnings).toEqual([
        expect.stringContaining(
          "KAITO preset 'gemma-3-4b-instruct' for google/gemma-3-4b-it needs KAITO v0.8.0 or later",
        ),
      ]);
    });

    it('fails a model without a built-in preset before v0.9.0, naming spec.model.id and the alternatives', () => {
      const d = md({ model: { id: 'Qwen/Qwen3-0.6B' } });
      expect(() =>
        desiredObjects(kaitoProvider, d, {
          ...v1beta1,
          upstreamRelease: '0.4.5',
        }),
      ).toThrow(TransformError);
      expect(() =>
        desiredObjects(kaitoProvider, d, {
          ...v1beta1,
          upstreamRelease: '0.4.5',
        }),
      ).toThrow(
        /^spec\.model\.id: 'Qwen\/Qwen3-0\.6B' has no KAITO preset .*set spec\.image .*upgrade KAITO to v0\.9\.0 .*another provider .*microsoft\/Phi-4-mini-instruct/,
      );
    });
  });

  describe('node selection (upstream AI Runway adds nvidia.com/gpu.present for GPU)', () => {
    const selector = (spec: Partial<ModelDeployment['spec']>) =>
      (
        desiredObjects(kaitoProvider, md(spec), v1beta1).objects[0]
          .resource as any
      ).labelSelector.matchLabels;

    it('selects NVIDIA GPU nodes for a GPU deployment, so KAITO never picks CPU nodes of a mixed pool', () => {
      expect(selector({})).toEqual({
        'kubernetes.io/os': 'linux',
        [GPU_PRESENT_LABEL]: 'true',
      });
      expect(selector({ image: 'vllm/vllm-openai:v0.11.0' })).toEqual({
        'kubernetes.io/os': 'linux',
        [GPU_PRESENT_LABEL]: 'true',
      });
    });

    it('keeps any Linux node for CPU (seed 000 example 2), other GPU vendors, and spec.nodeSelector as given', () => {
      expect(
        (
          desiredObjects(kaitoProvider, example2(), v1beta1).objects[0]
            .resource as any
        ).labelSelector.matchLabels,
      ).toEqual({ 'kubernetes.io/os': 'linux' });
      expect(
        selector({
          image: 'x',
          resources: { gpu: { count: 1, type: 'amd.com/gpu' } },
        }),
      ).toEqual({ 'kubernetes.io/os': 'linux' });
      expect(selector({ nodeSelector: { pool: 'a100' } })).toEqual({
        pool: 'a100',
      });
    });
  });

  it('runs a vLLM image with flags, env, secret, GPUs and scheduling when spec.image is set', () => {
    const { objects } = desiredObjects(
      kaitoProvider,
      md({
        image: 'vllm/vllm-openai:v0.11.0',
        engine: { type: 'vllm', contextLength: 4096 },
        env: [{ name: 'A', value: 'b' }],
        secrets: { huggingFaceToken: 'hf' },
        nodeSelector: { pool: 'gpu' },
        tolerations: [{ key: 'gpu', operator: 'Exists' }],
      }),
      v1beta1,
    );
    expect(objects[0]).toMatchObject({
      resource: { labelSelector: { matchLabels: { pool: 'gpu' } } },
      inference: {
        template: {
          spec: {
            tolerations: [{ key: 'gpu', operator: 'Exists' }],
            containers: [
              {
                image: 'vllm/vllm-openai:v0.11.0',
                args: [
                  '--model',
                  'microsoft/Phi-4-mini-instruct',
                  '--served-model-name',
                  'Phi-4-mini-instruct',
                  '--port=5000',
                  '--max-model-len=4096',
                ],
                env: [{ name: 'A', value: 'b' }],
                envFrom: [{ secretRef: { name: 'hf' } }],
                resources: {
                  requests: { 'nvidia.com/gpu': 1 },
                  limits: { 'nvidia.com/gpu': 1 },
                },
              },
            ],
          },
        },
      },
    });
  });

  it('rejects llama.cpp without an image, naming the field', () => {
    const spec = example2();
    delete spec.spec.image;
    expect(() => desiredObjects(kaitoProvider, spec, v1beta1)).toThrow(
      TransformError,
    );
    expect(() => desiredObjects(kaitoProvider, spec, v1beta1)).toThrow(
      /^spec\.image: KAITO has no default llama\.cpp image/,
    );
  });
});

describe('KAITO status mapping (seed 000 section 4.9)', () => {
  const ws = (conditions: object[]) => ({
    metadata: { name: 'gemma-cpu' },
    resource: { count: 2 },
    status: { conditions },
  });
  it('WorkspaceSucceeded True is Running', () => {
    expect(
      mapKaitoStatus(
        example2(),
        ws([
          {
            type: 'WorkspaceSucceeded',
            status: 'True',
            reason: 'workspaceSucceeded',
            message: '',
          },
        ]),
      ),
    ).toEqual({
      phase: 'Running',
      message: 'Workspace is ready',
      ready: true,
      reason: 'WorkspaceSucceeded',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'gemma-cpu', port: 80 },
    });
  });
  it('InferenceReady False is Deploying with its message', () => {
    const s = mapKaitoStatus(
      example2(),
      ws([
        {
          type: 'InferenceReady',
          status: 'False',
          reason: 'InferencePending',
          message: 'pods not ready',
        },
      ]),
    );
    expect(s).toMatchObject({
      phase: 'Deploying',
      message: 'pods not ready',
      ready: false,
      reason: 'InferencePending',
      replicas: { ready: 0 },
    });
  });
  it('an error condition is Failed with the error', () => {
    const s = mapKaitoStatus(
      example2(),
      ws([
        {
          type: 'WorkspaceSucceeded',
          status: 'False',
          reason: 'workspaceFailed',
          message: 'insufficient GPUs',
        },
      ]),
    );
    expect(s).toMatchObject({
      phase: 'Failed',
      message: 'insufficient GPUs',
      reason: 'workspaceFailed',
    });
  });
  it('no status yet is Deploying', () => {
    expect(
      mapKaitoStatus(example2(), { metadata: { name: 'x' } }),
    ).toMatchObject({
      phase: 'Deploying',
      message: 'Waiting for KAITO to deploy the workspace',
    });
  });
});

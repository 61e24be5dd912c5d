import fs from 'fs';
import path from 'path';
import YAML from 'yaml';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  checkOverrides,
  desiredObjects,
  resolveDeployment,
} from '@runway-portal/provider-shared';
import { dynamoProvider } from './definition';
import { shellQuote, workerCommand } from './engine';
import { DYNAMO_OVERRIDES, readDynamoOverrides } from './overrides';
import { buildDynamoGraphDeployment, type Json } from './transform';

const testdata = (file: string) => path.join(__dirname, 'testdata', file);
const readYaml = (file: string) =>
  YAML.parse(fs.readFileSync(testdata(file), 'utf8'));
const seed = (n: number): ModelDeployment =>
  resolveDeployment(readYaml(`seed-example-${n}.modeldeployment.yaml`));

function build(md: ModelDeployment, version: 'v1alpha1' | 'v1beta1') {
  return buildDynamoGraphDeployment(md, version).object as any;
}

function gpuDeployment(
  spec: Partial<ModelDeployment['spec']> = {},
): ModelDeployment {
  return resolveDeployment({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'm', namespace: 'ns', uid: 'u1' },
    spec: {
      model: { id: 'org/model' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      ...spec,
    },
  });
}

describe('golden files', () => {
  it.each([
    [1, 'v1alpha1'],
    [1, 'v1beta1'],
    [3, 'v1alpha1'],
    [3, 'v1beta1'],
  ] as const)('seed example %i as %s matches its golden file', (n, version) => {
    expect(build(seed(n), version)).toEqual(
      readYaml(`seed-example-${n}.dgd.${version}.yaml`),
    );
  });
});

describe('seed 000 example 1 (v1alpha1) has the seed field values', () => {
  const dgd = build(seed(1), 'v1alpha1');
  it('names, owner and backend (as the shared loop applies it)', () => {
    const [applied] = desiredObjects(
      dynamoProvider,
      readYaml('seed-example-1.modeldeployment.yaml'),
      {
        apiVersion: 'nvidia.com/v1alpha1',
      },
    ).objects as any[];
    expect(applied.apiVersion).toBe('nvidia.com/v1alpha1');
    expect(applied.kind).toBe('DynamoGraphDeployment');
    expect(applied.metadata).toMatchObject({
      name: 'llama-8b',
      namespace: 'default',
    });
    expect(applied.metadata.ownerReferences[0]).toMatchObject({
      kind: 'ModelDeployment',
      name: 'llama-8b',
      controller: true,
    });
    expect(applied.spec).toEqual(dgd.spec);
    expect(dgd.spec.backendFramework).toBe('vllm');
  });
  it('frontend', () => {
    expect(dgd.spec.services.Frontend).toMatchObject({
      componentType: 'frontend',
      dynamoNamespace: 'llama-8b',
      replicas: 1,
      envFromSecret: 'hf-token',
      extraPodSpec: {
        mainContainer: { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1' },
      },
    });
  });
  it('worker', () => {
    expect(dgd.spec.services.VllmWorker).toMatchObject({
      componentType: 'worker',
      dynamoNamespace: 'llama-8b',
      replicas: 1,
      envFromSecret: 'hf-token',
      resources: { limits: { gpu: '1', memory: '32Gi' } },
      extraPodSpec: {
        mainContainer: {
          image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
          command: ['/bin/sh', '-c'],
          args: [
            'python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --served-model-name Llama-3.1-8B-Instruct --max-model-len 8192',
          ],
        },
      },
    });
  });
});

describe('seed 000 example 3 (v1alpha1) has the seed field values', () => {
  const dgd = build(seed(3), 'v1alpha1');
  it('frontend from overrides', () => {
    expect(dgd.spec.services.Frontend).toMatchObject({
      replicas: 2,
      envs: [{ name: 'DYN_ROUTER_MODE', value: 'kv' }],
      resources: { requests: { cpu: '4', memory: '8Gi' } },
    });
  });
  it('prefill and decode workers', () => {
    expect(dgd.spec.services.VllmPrefillWorker).toMatchObject({
      componentType: 'worker',
      subComponentType: 'prefill',
      replicas: 2,
      resources: { limits: { gpu: '4', memory: '128Gi' } },
    });
    expect(dgd.spec.services.VllmDecodeWorker).toMatchObject({
      componentType: 'worker',
      subComponentType: 'decode',
      replicas: 4,
      resources: { limits: { gpu: '2', memory: '64Gi' } },
    });
    // The seed's command, plus the served name the gateway advertises (seed 000: the id's basename) and
    // tensor parallelism over the worker's GPUs (without it 3 of 4 GPUs idle).
    expect(
      dgd.spec.services.VllmPrefillWorker.extraPodSpec.mainContainer.args[0],
    ).toBe(
      'python3 -m dynamo.vllm --model meta-llama/Llama-3.1-70B-Instruct --is-prefill-worker --served-model-name Llama-3.1-70B-Instruct --tensor-parallel-size 4',
    );
  });
});

describe("v1beta1 follows Dynamo's current examples", () => {
  it('disaggregated workers are prefill/decode components with the NIXL connector', () => {
    const dgd = build(seed(3), 'v1beta1');
    const byName = Object.fromEntries(
      dgd.spec.components.map((c: Json) => [c.name, c]),
    );
    expect(Object.keys(byName)).toEqual([
      'Frontend',
      'VllmPrefillWorker',
      'VllmDecodeWorker',
    ]);
    expect(byName.VllmPrefillWorker.type).toBe('prefill');
    const main = byName.VllmDecodeWorker.podTemplate.spec.containers[0];
    expect(main.command).toEqual(['python3', '-m', 'dynamo.vllm']);
    expect(main.args).toEqual([
      '--model',
      'meta-llama/Llama-3.1-70B-Instruct',
      '--disaggregation-mode',
      'decode',
      '--kv-transfer-config',
      '{"kv_connector":"NixlConnector","kv_role":"kv_both"}',
      '--served-model-name',
      'Llama-3.1-70B-Instruct',
      '--tensor-parallel-size',
      '2',
    ]);
    expect(main.resources.limits).toEqual({
      memory: '64Gi',
      'nvidia.com/gpu': '2',
    });
    expect(main.envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
  });

  it('puts env, pod metadata, node selector and tolerations into the pod template', () => {
    const dgd = build(
      gpuDeployment({
        env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
        podTemplate: {
          metadata: { labels: { team: 'a' }, annotations: { note: 'x' } },
        },
        nodeSelector: { pool: 'gpu' },
        tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      }),
      'v1beta1',
    );
    const worker = dgd.spec.components[1];
    expect(worker.podTemplate.metadata).toEqual({
      labels: { team: 'a' },
      annotations: { note: 'x' },
    });
    expect(worker.podTemplate.spec.nodeSelector).toEqual({ pool: 'gpu' });
    expect(worker.podTemplate.spec.tolerations).toHaveLength(1);
    expect(worker.podTemplate.spec.containers[0].env).toEqual([
      { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
    ]);
  });
});

describe('storage volumes', () => {
  const md = resolveDeployment(readYaml('storage.modeldeployment.yaml'));
  const plainVolumes = [
    { name: 'model-cache', persistentVolumeClaim: { claimName: 'pvc-claim' } },
    {
      name: 'datasets',
      persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
    },
  ];
  const plainMounts = [
    { name: 'model-cache', mountPath: '/model-cache' },
    { name: 'datasets', mountPath: '/data', readOnly: true },
  ];

  it('v1alpha1: compilation cache through the graph PVC list, the rest as pod volumes, HF_HOME at the model cache', () => {
    const dgd = build(md, 'v1alpha1');
    expect(dgd.spec.pvcs).toEqual([
      { name: 'llama-8b-storage-compile', create: false },
    ]);
    const worker = dgd.spec.services.VllmWorker;
    expect(worker.volumeMounts).toEqual([
      {
        name: 'llama-8b-storage-compile',
        mountPoint: '/compilation-cache',
        useAsCompilationCache: true,
      },
    ]);
    expect(worker.extraPodSpec.volumes).toEqual(plainVolumes);
    expect(worker.extraPodSpec.mainContainer.volumeMounts).toEqual(plainMounts);
    expect(worker.envs).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
    const frontend = dgd.spec.services.Frontend;
    expect([
      frontend.volumeMounts,
      frontend.extraPodSpec.volumes,
      frontend.extraPodSpec.mainContainer.volumeMounts,
    ]).toEqual([undefined, undefined, undefined]);
  });

  it("v1beta1: the component's compilationCache, the rest in the pod template", () => {
    const [frontend, worker] = build(md, 'v1beta1').spec.components;
    expect(worker.compilationCache).toEqual({
      pvcName: 'llama-8b-storage-compile',
      mountPath: '/compilation-cache',
    });
    expect(worker.podTemplate.spec.volumes).toEqual(plainVolumes);
    const main = worker.podTemplate.spec.containers[0];
    expect(main.volumeMounts).toEqual(plainMounts);
    expect(main.env).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
    expect([
      frontend.compilationCache,
      frontend.podTemplate.spec.volumes,
    ]).toEqual([undefined, undefined]);
  });

  it('mounts storage on both prefill and decode workers', () => {
    const disaggregated = resolveDeployment({
      ...readYaml('seed-example-3.modeldeployment.yaml'),
      spec: {
        ...readYaml('seed-example-3.modeldeployment.yaml').spec,
        model: readYaml('storage.modeldeployment.yaml').spec.model,
      },
    });
    const workers = build(disaggregated, 'v1beta1').spec.components.slice(1);
    expect(workers.map((c: Json) => c.name)).toEqual([
      'VllmPrefillWorker',
      'VllmDecodeWorker',
    ]);
    for (const w of workers) {
      expect(w.podTemplate.spec.volumes).toEqual(plainVolumes);
      expect(w.compilationCache.pvcName).toMatch(/-compile$/);
    }
  });

  it('a read-only compilation cache stays read-only (a pod volume, as Dynamo cannot mount its own cache read-only)', () => {
    const ro = gpuDeployment({
      model: {
        id: 'org/model',
        storage: {
          volumes: [
            {
              name: 'cc',
              purpose: 'compilationCache',
              claimName: 'cc',
              readOnly: true,
            },
          ],
        },
      },
    });
    const dgd = build(ro, 'v1alpha1');
    expect(dgd.spec.pvcs).toBeUndefined();
    expect(
      dgd.spec.services.VllmWorker.extraPodSpec.mainContainer.volumeMounts,
    ).toEqual([
      { name: 'cc', mountPath: '/compilation-cache', readOnly: true },
    ]);
  });

  it("keeps the user's HF_HOME and refuses a volume without a mount path, naming the field", () => {
    const own = gpuDeployment({
      env: [{ name: 'HF_HOME', value: '/hf' }],
      model: {
        id: 'org/model',
        storage: {
          volumes: [{ name: 'mc', purpose: 'modelCache', claimName: 'mc' }],
        },
      },
    });
    expect(
      build(own, 'v1beta1').spec.components[1].podTemplate.spec.containers[0]
        .env,
    ).toEqual([{ name: 'HF_HOME', value: '/hf' }]);
    const bad = gpuDeployment({
      model: {
        id: 'org/model',
        storage: { volumes: [{ name: 'x', claimName: 'x' }] },
      },
    });
    expect(() => build(bad, 'v1alpha1')).toThrow(
      'spec.model.storage.volumes[0].mountPath: is required when purpose is custom: set an absolute path',
    );
  });
});

describe('engine flags (seed 000 section 15)', () => {
  it('maps vLLM and SGLang flags and keeps args sorted', () => {
    const spec = gpuDeployment({
      model: { id: 'org/m', servedName: 'm' },
      engine: {
        type: 'sglang',
        contextLength: 4096,
        trustRemoteCode: true,
        enablePrefixCaching: false,
        enforceEager: true,
        args: { zeta: '1', alpha: '' },
        extraArgs: ['--raw'],
      },
    }).spec;
    expect(
      workerCommand('sglang', spec, 'aggregated', 2, 'v1beta1').args,
    ).toEqual([
      '--model-path',
      'org/m',
      '--served-model-name',
      'm',
      '--context-length',
      '4096',
      '--trust-remote-code',
      '--disable-radix-cache',
      '--disable-cuda-graph',
      '--tp',
      '2',
      '--alpha',
      '--zeta',
      '1',
      '--raw',
    ]);
    expect(
      workerCommand('vllm', spec, 'aggregated', 1, 'v1beta1').args,
    ).toEqual([
      '--model',
      'org/m',
      '--served-model-name',
      'm',
      '--max-model-len',
      '4096',
      '--trust-remote-code',
      '--no-enable-prefix-caching',
      '--enforce-eager',
      '--alpha',
      '--zeta',
      '1',
      '--raw',
    ]);
  });

  it('ignores context length and trust remote code for TensorRT-LLM with a warning naming the field', () => {
    const spec = gpuDeployment({
      engine: { type: 'trtllm', contextLength: 4096, trustRemoteCode: true },
    }).spec;
    const command = workerCommand('trtllm', spec, 'aggregated', 1, 'v1alpha1');
    expect(command.args).toEqual([
      '--model-path',
      'org/model',
      '--served-model-name',
      'model',
    ]);
    expect(command.warnings).toEqual([
      expect.stringContaining(
        'spec.engine.contextLength is ignored for TensorRT-LLM',
      ),
      expect.stringContaining(
        'spec.engine.trustRemoteCode is ignored for TensorRT-LLM',
      ),
    ]);
  });

  it('refuses an engine arg key that is not a flag name', () => {
    expect(() =>
      buildDynamoGraphDeployment(
        gpuDeployment({ engine: { type: 'vllm', args: { 'a b': '1' } } }),
        'v1alpha1',
      ),
    ).toThrow(/^spec\.engine\.args: key "a b" is not a flag name/);
  });

  it('quotes shell words so v1alpha1 commands pass values through unchanged', () => {
    expect(shellQuote('8192')).toBe('8192');
    expect(shellQuote('{"a": 1}')).toBe(`'{"a": 1}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const dgd = build(
      gpuDeployment({
        engine: {
          type: 'vllm',
          args: { 'kv-transfer-config': '{"x": "$HOME"}' },
        },
      }),
      'v1alpha1',
    );
    expect(
      dgd.spec.services.VllmWorker.extraPodSpec.mainContainer.args[0],
    ).toBe(
      `python3 -m dynamo.vllm --model org/model --served-model-name model --kv-transfer-config '{"x": "$HOME"}'`,
    );
  });
});

describe('images, labels and engines', () => {
  it('uses the engine default image, spec.image, then engine.image', () => {
    const image = (spec: Partial<ModelDeployment['spec']>) =>
      build(gpuDeployment(spec), 'v1alpha1').spec.services.Frontend.extraPodSpec
        .mainContainer.image;
    expect(image({ engine: { type: 'trtllm' } })).toBe(
      'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.1',
    );
    expect(image({ image: 'my/image:1' })).toBe('my/image:1');
    expect(
      image({
        image: 'my/image:1',
        engine: { type: 'vllm', image: 'eng/image:2' },
      }),
    ).toBe('eng/image:2');
  });

  it('uses the engine the core selected when the spec names none', () => {
    const md = resolveDeployment({
      metadata: { name: 'm' },
      spec: { model: { id: 'org/model' }, resources: { gpu: { count: 1 } } },
      status: { engine: { type: 'sglang' } },
    });
    expect(build(md, 'v1alpha1').spec.services.SglangWorker).toBeDefined();
  });

  it('refuses llamacpp with a message naming the field', () => {
    expect(() =>
      buildDynamoGraphDeployment(
        gpuDeployment({ engine: { type: 'llamacpp' } }),
        'v1beta1',
      ),
    ).toThrow(
      'spec.engine.type: "llamacpp" cannot run on Dynamo: use vllm, sglang or trtllm',
    );
  });
});

describe('overrides (seed 000 section 4.15)', () => {
  it('declares the seed keys: typos at any depth are unknown, wrong types are errors naming the field', () => {
    const check = checkOverrides(
      {
        replicsa: 2,
        routerMode: 'kv',
        frontend: {
          replicsa: 3,
          replicas: 'two',
          resources: { cpu: 4, memory: '8Gi', gpu: 1 },
        },
      },
      DYNAMO_OVERRIDES,
    );
    expect(check.unknown).toEqual([
      'spec.provider.overrides.replicsa',
      'spec.provider.overrides.frontend.replicsa',
      'spec.provider.overrides.frontend.resources.gpu',
    ]);
    expect(check.errors).toEqual([
      expect.stringMatching(
        /^spec\.provider\.overrides\.frontend\.replicas must be a whole number/,
      ),
      expect.stringMatching(
        /^spec\.provider\.overrides\.frontend\.resources\.cpu must be a string/,
      ),
    ]);
  });

  it('fills in the seed defaults', () => {
    expect(readDynamoOverrides(undefined)).toEqual({
      routerMode: 'round-robin',
      frontend: { replicas: 1, resources: { cpu: '2', memory: '4Gi' } },
    });
    expect(
      readDynamoOverrides({ frontend: { resources: { memory: '8Gi' } } })
        .frontend.resources,
    ).toEqual({ cpu: '2', memory: '8Gi' });
  });

  it('refuses an unknown router mode, naming the field and the choices', () => {
    expect(() => readDynamoOverrides({ routerMode: 'fastest' })).toThrow(
      'spec.provider.overrides.routerMode: must be one of kv, round-robin, none, got "fastest"',
    );
  });
});

import fs from 'fs';
import path from 'path';
import YAML from 'yaml';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  checkOverrides,
  desiredObjects,
  resolveDeployment,
} from '@runway-portal/provider-shared';
import { llmdProvider } from './definition';
import {
  LLMD_EPP_CONFIG,
  LLMD_OVERRIDES,
  LLMD_PD_EPP_CONFIG,
  readLlmdOverrides,
} from './overrides';
import { buildLlmdObjects } from './transform';

const testdata = (file: string) => path.join(__dirname, 'testdata', file);
const raw = (mode: string) =>
  YAML.parse(fs.readFileSync(testdata(`${mode}.modeldeployment.yaml`), 'utf8'));
const load = (mode: string): ModelDeployment => resolveDeployment(raw(mode));
const golden = (mode: string) =>
  YAML.parseAllDocuments(
    fs.readFileSync(testdata(`${mode}.objects.yaml`), 'utf8'),
  ).map(d => d.toJSON());

const build = (md: ModelDeployment) => buildLlmdObjects(md) as any[];

const find = (objects: KubeObject[], kind: string, name?: string): any =>
  objects.find(o => o.kind === kind && (!name || o.metadata?.name === name));

function deployment(
  spec: Partial<ModelDeployment['spec']> = {},
): ModelDeployment {
  return resolveDeployment({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'm', namespace: 'ns', uid: 'u1' },
    spec: {
      model: { id: 'org/model' },
      provider: { name: 'llmd' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      ...spec,
    },
  });
}

describe('golden files (upstream AI Runway llm-d samples)', () => {
  it.each(['aggregated', 'disaggregated'])(
    '%s matches its golden file',
    mode => {
      expect(build(load(mode))).toEqual(golden(mode));
    },
  );
});

describe('aggregated', () => {
  const objects = build(load('aggregated'));
  it('is an InferencePool (primary), one decode Deployment and a Service, then the endpoint picker', () => {
    expect(
      objects.slice(0, 3).map(o => `${o.kind}/${o.metadata.name}`),
    ).toEqual([
      'InferencePool/llama-8b-llmd',
      'Deployment/llama-8b-llmd-decode',
      'Service/llama-8b-llmd',
    ]);
  });
  it('gets namespace, owner and labels from the shared loop', () => {
    const md = raw('aggregated');
    const applied = desiredObjects(llmdProvider, md, {
      apiVersion: 'inference.networking.k8s.io/v1',
    }).objects;
    for (const o of applied) {
      expect(o.metadata).toMatchObject({
        namespace: 'default',
        labels: { 'airunway.ai/managed-by': 'airunway' },
      });
      expect(o.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'ModelDeployment',
        name: 'llama-8b-llmd',
        controller: true,
      });
    }
  });
  it("runs vLLM with the spec's model, replicas, resources and secret", () => {
    const d = find(objects, 'Deployment');
    expect(d.spec.replicas).toBe(2);
    const c = d.spec.template.spec.containers[0];
    expect(c.args.slice(0, 5)).toEqual([
      'meta-llama/Llama-3.1-8B-Instruct',
      '--port',
      '8000',
      '--served-model-name',
      'Llama-3.1-8B-Instruct',
    ]);
    expect(c.resources.limits).toEqual({
      'nvidia.com/gpu': '1',
      memory: '24Gi',
    });
    expect(c.envFrom).toEqual([{ secretRef: { name: 'llm-d-hf-token' } }]);
    expect(d.spec.template.spec.initContainers).toBeUndefined();
  });
  it('the pool selects every model-server pod of this deployment on the serving port', () => {
    const pool = find(objects, 'InferencePool');
    const labels = find(objects, 'Deployment').spec.template.metadata.labels;
    for (const [k, v] of Object.entries(pool.spec.selector.matchLabels))
      expect(labels[k]).toBe(v);
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
  });
});

describe('disaggregated', () => {
  const objects = build(load('disaggregated'));
  it('decode pods run the routing sidecar on the serving port and vLLM behind it', () => {
    const decode = find(objects, 'Deployment', 'llama-70b-llmd-pd-decode');
    expect(decode.spec.replicas).toBe(1);
    expect(decode.spec.template.spec.initContainers[0]).toMatchObject({
      name: 'routing-proxy',
      restartPolicy: 'Always',
    });
    expect(decode.spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining(['--port', '8200', '--tensor-parallel-size', '4']),
    );
  });
  it('prefill pods serve directly with the NIXL connector', () => {
    const prefill = find(objects, 'Deployment', 'llama-70b-llmd-pd-prefill');
    expect(prefill.spec.replicas).toBe(4);
    expect(prefill.spec.template.metadata.labels['llm-d.ai/role']).toBe(
      'prefill',
    );
    expect(prefill.spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining([
        '--port',
        '8000',
        '--kv-transfer-config',
        '{"kv_connector":"NixlConnector","kv_role":"kv_both"}',
      ]),
    );
  });
  it('the Service reaches decode pods only', () => {
    expect(find(objects, 'Service').spec.selector['llm-d.ai/role']).toBe(
      'decode',
    );
  });
});

describe('spec fields', () => {
  it('maps engine flags, env, pod metadata and scheduling', () => {
    const objects = build(
      deployment({
        model: { id: 'org/model', servedName: 'mine' },
        engine: {
          type: 'vllm',
          contextLength: 4096,
          trustRemoteCode: true,
          enforceEager: true,
          enablePrefixCaching: false,
          args: { quantization: 'awq' },
          extraArgs: ['--x'],
        },
        env: [{ name: 'A', value: '1' }],
        podTemplate: {
          metadata: {
            labels: { team: 't', 'llm-d.ai/role': 'hijack' },
            annotations: { a: 'b' },
          },
        },
        nodeSelector: { pool: 'gpu' },
        tolerations: [{ key: 'gpu', operator: 'Exists' }],
        image: 'my/vllm:1',
      }),
    );
    const pod = find(objects, 'Deployment').spec.template;
    expect(pod.metadata.labels).toMatchObject({
      team: 't',
      'llm-d.ai/role': 'decode',
    });
    expect(pod.metadata.annotations).toEqual({ a: 'b' });
    expect(pod.spec.nodeSelector).toEqual({ pool: 'gpu' });
    expect(pod.spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }]);
    const c = pod.spec.containers[0];
    expect(c.image).toBe('my/vllm:1');
    expect(c.env).toEqual([{ name: 'A', value: '1' }]);
    expect(c.args).toEqual([
      'org/model',
      '--port',
      '8000',
      '--served-model-name',
      'mine',
      '--max-model-len',
      '4096',
      '--trust-remote-code',
      '--no-enable-prefix-caching',
      '--enforce-eager',
      '--quantization',
      'awq',
      '--x',
    ]);
  });

  it('refuses other engines and a port override, naming the field', () => {
    expect(() =>
      buildLlmdObjects(deployment({ engine: { type: 'sglang' } })),
    ).toThrow(
      'spec.engine.type: "sglang" cannot run on llm-d: llm-d only supports vllm engine',
    );
    expect(() =>
      buildLlmdObjects(
        deployment({ engine: { type: 'vllm', args: { port: '9000' } } }),
      ),
    ).toThrow(
      'spec.engine.args.port: cannot be set for llm-d: the Service, InferencePool and probes use port 8000',
    );
  });
});

describe('storage volumes', () => {
  const objects = build(load('storage'));
  const pod = find(objects, 'Deployment').spec.template;
  it('mounts every claim at its path, read-only only where the spec says', () => {
    expect(pod.spec.volumes).toEqual([
      {
        name: 'model-cache',
        persistentVolumeClaim: { claimName: 'pvc-claim' },
      },
      {
        name: 'compile',
        persistentVolumeClaim: { claimName: 'qwen-storage-compile' },
      },
      {
        name: 'datasets',
        persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
      },
    ]);
    expect(pod.spec.containers[0].volumeMounts).toEqual([
      { name: 'model-cache', mountPath: '/model-cache' },
      { name: 'compile', mountPath: '/compilation-cache' },
      { name: 'datasets', mountPath: '/data', readOnly: true },
    ]);
  });
  it('creates the claim of the volume with a size (the others exist), before the model servers', () => {
    expect(
      objects.map(o => `${o.kind}/${o.metadata.name}`).slice(0, 3),
    ).toEqual([
      'InferencePool/qwen-storage',
      'PersistentVolumeClaim/qwen-storage-compile',
      'Deployment/qwen-storage-decode',
    ]);
    expect(find(objects, 'PersistentVolumeClaim').spec).toEqual({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '50Gi' } },
    });
  });
  it('downloads into the model cache and compiles into the compilation cache', () => {
    expect(pod.spec.containers[0].env).toEqual([
      { name: 'HF_HOME', value: '/model-cache' },
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ]);
  });
  it("keeps the user's own HF_HOME", () => {
    const md = load('storage');
    md.spec.env = [{ name: 'HF_HOME', value: '/elsewhere' }];
    expect(
      find(build(md), 'Deployment').spec.template.spec.containers[0].env,
    ).toEqual([
      { name: 'HF_HOME', value: '/elsewhere' },
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ]);
  });
  it('mounts them on prefill and decode model servers, not on the routing sidecar', () => {
    const md = load('storage');
    md.spec.serving = { mode: 'disaggregated' };
    md.spec.scaling = {
      prefill: { gpu: { count: 1 }, memory: '16Gi' },
      decode: { gpu: { count: 1 }, memory: '16Gi' },
    };
    md.spec.resources = undefined;
    const servers = build(md).filter(
      o => o.kind === 'Deployment' && o.metadata.name !== 'qwen-storage-epp',
    );
    expect(servers).toHaveLength(2);
    for (const d of servers) {
      expect(d.spec.template.spec.volumes.map((v: any) => v.name)).toEqual([
        'model-cache',
        'compile',
        'datasets',
      ]);
      expect(d.spec.template.spec.containers[0].volumeMounts).toHaveLength(3);
      expect(
        d.spec.template.spec.initContainers?.[0]?.volumeMounts,
      ).toBeUndefined();
    }
  });
  it('refuses a volume without a claim, naming the field', () => {
    const md = deployment({
      model: {
        id: 'org/model',
        storage: { volumes: [{ name: 'v', mountPath: '/v' }] },
      },
    });
    expect(() => buildLlmdObjects(md)).toThrow(
      'spec.model.storage.volumes[0].claimName: is required when size is not set: name an existing PVC, or set size',
    );
  });
  it('adds nothing without storage', () => {
    const d = find(build(load('aggregated')), 'Deployment').spec.template.spec;
    expect(d.volumes).toBeUndefined();
    expect(d.containers[0].volumeMounts).toBeUndefined();
  });
});

describe('endpoint picker (EPP), one per pool as llm-d runs it', () => {
  const objects = build(load('aggregated'));
  const epp = (kind: string, objs: any[] = objects) =>
    find(objs, kind, 'llama-8b-llmd-epp');

  it('is a ServiceAccount, Role, RoleBinding, ConfigMap, Deployment and Service named <name>-epp', () => {
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'InferencePool/llama-8b-llmd',
      'Deployment/llama-8b-llmd-decode',
      'Service/llama-8b-llmd',
      'ServiceAccount/llama-8b-llmd-epp',
      'Role/llama-8b-llmd-epp',
      'RoleBinding/llama-8b-llmd-epp',
      'ConfigMap/llama-8b-llmd-epp',
      'Deployment/llama-8b-llmd-epp',
      'Service/llama-8b-llmd-epp',
    ]);
  });
  it("the pool's endpointPickerRef is the EPP Service's gRPC ext-proc port", () => {
    const ref = find(objects, 'InferencePool').spec.endpointPickerRef;
    expect(ref).toEqual({ name: 'llama-8b-llmd-epp', port: { number: 9002 } });
    const ports = epp('Service').spec.ports.map((p: any) => [p.name, p.port]);
    expect(ports).toEqual([
      ['grpc-ext-proc', 9002],
      ['grpc-health', 9003],
      ['metrics', 9090],
    ]);
    expect(epp('Service').spec.selector).toEqual(
      epp('Deployment').spec.selector.matchLabels,
    );
  });
  it("runs llm-d's inference scheduler for this pool with its plugins config, as its own ServiceAccount", () => {
    const pod = epp('Deployment').spec.template.spec;
    expect(pod.serviceAccountName).toBe('llama-8b-llmd-epp');
    expect(pod.containers[0].image).toBe(
      'ghcr.io/llm-d/llm-d-inference-scheduler:v0.4.0',
    );
    expect(pod.containers[0].args).toEqual(
      expect.arrayContaining([
        '--pool-name',
        'llama-8b-llmd',
        '--pool-namespace',
        'default',
      ]),
    );
    expect(pod.volumes).toEqual([
      { name: 'plugins-config', configMap: { name: 'llama-8b-llmd-epp' } },
    ]);
    expect(epp('ConfigMap').data['default-plugins.yaml']).toBe(LLMD_EPP_CONFIG);
  });
  it('may read pods and InferencePools (and objectives, rewrites) in its namespace only', () => {
    expect(epp('Role').rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      {
        apiGroups: ['inference.networking.k8s.io'],
        resources: ['inferencepools'],
        verbs: ['get', 'list', 'watch'],
      },
      {
        apiGroups: ['inference.networking.x-k8s.io'],
        resources: ['inferenceobjectives', 'inferencemodelrewrites'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    expect(epp('RoleBinding')).toMatchObject({
      roleRef: { kind: 'Role', name: 'llama-8b-llmd-epp' },
      subjects: [
        {
          kind: 'ServiceAccount',
          name: 'llama-8b-llmd-epp',
          namespace: 'default',
        },
      ],
    });
  });
  it("is labelled as llm-d's (the core removes only what it labelled as its own)", () => {
    for (const o of objects.slice(3))
      expect(o.metadata.labels['app.kubernetes.io/managed-by']).toBe(
        'airunway-provider-llmd',
      );
    expect(
      epp('Deployment').spec.template.metadata.labels[
        'app.kubernetes.io/managed-by'
      ],
    ).toBe('airunway-provider-llmd');
  });
  it('schedules prefill and decode pods with the P/D plugins when disaggregated', () => {
    const pd = build(load('disaggregated'));
    expect(find(pd, 'ConfigMap').data['default-plugins.yaml']).toBe(
      LLMD_PD_EPP_CONFIG,
    );
    expect(LLMD_PD_EPP_CONFIG).toMatch(/- type: pd-profile-handler/);
  });
});

describe('overrides', () => {
  it('runs another picker image and plugins config', () => {
    const objects = build(
      deployment({
        provider: {
          name: 'llmd',
          overrides: {
            endpointPicker: {
              image:
                'registry.k8s.io/gateway-api-inference-extension/epp:v1.6.0',
              config: 'kind: EndpointPickerConfig\n',
            },
          },
        },
      }),
    );
    expect(
      find(objects, 'Deployment', 'm-epp').spec.template.spec.containers[0]
        .image,
    ).toBe('registry.k8s.io/gateway-api-inference-extension/epp:v1.6.0');
    expect(
      find(objects, 'ConfigMap', 'm-epp').data['default-plugins.yaml'],
    ).toBe('kind: EndpointPickerConfig\n');
  });
  it('points the pool at a picker the user runs, and deploys none', () => {
    const objects = build(
      deployment({
        provider: {
          name: 'llmd',
          overrides: { endpointPicker: { name: 'shared-epp', port: 9003 } },
        },
      }),
    );
    expect(find(objects, 'InferencePool').spec.endpointPickerRef).toEqual({
      name: 'shared-epp',
      port: { number: 9003 },
    });
    expect(objects.map(o => o.kind)).toEqual([
      'InferencePool',
      'Deployment',
      'Service',
    ]);
  });
  it('declares its keys: unknown ones at any depth are reported, wrong types name the field', () => {
    const check = checkOverrides(
      {
        endpointPicker: { port: 'x', tls: true },
        routerMode: 'kv',
        routingSidecar: 'img',
      },
      LLMD_OVERRIDES,
    );
    expect(check.unknown).toEqual([
      'spec.provider.overrides.endpointPicker.tls',
      'spec.provider.overrides.routerMode',
    ]);
    expect(check.errors).toEqual([
      expect.stringMatching(
        /^spec\.provider\.overrides\.endpointPicker\.port must be a whole number/,
      ),
      expect.stringMatching(
        /^spec\.provider\.overrides\.routingSidecar must be an object/,
      ),
    ]);
  });
  it.each([
    [
      { endpointPicker: { name: 'e', port: 70000 } },
      'spec.provider.overrides.endpointPicker.port: must be a port number (1-65535), got 70000',
    ],
    [
      { endpointPicker: { port: 9003 } },
      "spec.provider.overrides.endpointPicker.port: applies only with spec.provider.overrides.endpointPicker.name (an endpoint picker you run): the provider's own picker listens on 9002",
    ],
    [
      { endpointPicker: { name: 'e', image: 'x' } },
      "spec.provider.overrides.endpointPicker.image: applies only to the provider's own endpoint picker: remove it, or remove spec.provider.overrides.endpointPicker.name",
    ],
  ])('refuses %j, naming the field', (overrides, message) => {
    expect(() => readLlmdOverrides(overrides)).toThrow(message);
  });
});

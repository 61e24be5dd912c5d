import fs from 'fs';
import path from 'path';
import YAML from 'yaml';
import { applyModelDeploymentDefaults, type ModelDeployment } from '@runway-portal/plugin-runway-common';
import { buildLlmdObjects, type Json } from './transform';
import { detectInferencePoolVersion } from './version';

const testdata = (file: string) => path.join(__dirname, 'testdata', file);
const load = (mode: string): ModelDeployment =>
  applyModelDeploymentDefaults(YAML.parse(fs.readFileSync(testdata(`${mode}.modeldeployment.yaml`), 'utf8')));
const golden = (mode: string) =>
  YAML.parseAllDocuments(fs.readFileSync(testdata(`${mode}.objects.yaml`), 'utf8')).map(d => d.toJSON());

function build(md: ModelDeployment, pool: Parameters<typeof buildLlmdObjects>[1] = 'inference.networking.k8s.io/v1') {
  const result = buildLlmdObjects(md, pool);
  expect(result.errors).toEqual([]);
  return result.objects as any[];
}

const find = (objects: Json[], kind: string, name?: string): any =>
  objects.find(o => o.kind === kind && (!name || (o.metadata as Json).name === name));

function deployment(spec: Partial<ModelDeployment['spec']> = {}): ModelDeployment {
  return applyModelDeploymentDefaults({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'm', namespace: 'ns', uid: 'u1' },
    spec: { model: { id: 'org/model' }, provider: { name: 'llmd' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } }, ...spec },
  });
}

describe('golden files (upstream AI Runway llm-d samples)', () => {
  it.each(['aggregated', 'disaggregated'])('%s matches its golden file', mode => {
    expect(build(load(mode))).toEqual(golden(mode));
  });
});

describe('aggregated', () => {
  const objects = build(load('aggregated'));
  it('is one decode Deployment, a Service and an InferencePool', () => {
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Deployment/llama-8b-llmd-decode',
      'Service/llama-8b-llmd',
      'InferencePool/llama-8b-llmd',
    ]);
  });
  it("runs vLLM with the spec's model, replicas, resources and secret", () => {
    const d = find(objects, 'Deployment');
    expect(d.spec.replicas).toBe(2);
    const c = d.spec.template.spec.containers[0];
    expect(c.args.slice(0, 5)).toEqual(['meta-llama/Llama-3.1-8B-Instruct', '--port', '8000', '--served-model-name', 'Llama-3.1-8B-Instruct']);
    expect(c.resources.limits).toEqual({ 'nvidia.com/gpu': '1', memory: '24Gi' });
    expect(c.envFrom).toEqual([{ secretRef: { name: 'llm-d-hf-token' } }]);
    expect(d.spec.template.spec.initContainers).toBeUndefined();
  });
  it('the pool selects every model-server pod of this deployment on the serving port', () => {
    const pool = find(objects, 'InferencePool');
    const labels = find(objects, 'Deployment').spec.template.metadata.labels;
    for (const [k, v] of Object.entries(pool.spec.selector.matchLabels)) expect(labels[k]).toBe(v);
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
  });
});

describe('disaggregated', () => {
  const objects = build(load('disaggregated'));
  it('decode pods run the routing sidecar on the serving port and vLLM behind it', () => {
    const decode = find(objects, 'Deployment', 'llama-70b-llmd-pd-decode');
    expect(decode.spec.replicas).toBe(1);
    expect(decode.spec.template.spec.initContainers[0]).toMatchObject({ name: 'routing-proxy', restartPolicy: 'Always' });
    expect(decode.spec.template.spec.containers[0].args).toEqual(expect.arrayContaining(['--port', '8200', '--tensor-parallel-size', '4']));
  });
  it('prefill pods serve directly with the NIXL connector', () => {
    const prefill = find(objects, 'Deployment', 'llama-70b-llmd-pd-prefill');
    expect(prefill.spec.replicas).toBe(4);
    expect(prefill.spec.template.metadata.labels['llm-d.ai/role']).toBe('prefill');
    expect(prefill.spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining(['--port', '8000', '--kv-transfer-config', '{"kv_connector":"NixlConnector","kv_role":"kv_both"}']),
    );
  });
  it('the Service reaches decode pods only', () => {
    expect(find(objects, 'Service').spec.selector['llm-d.ai/role']).toBe('decode');
  });
});

describe('InferencePool versions', () => {
  it('writes the v1alpha2 shape when only the older GAIE CRD is installed', () => {
    const pool = find(build(deployment(), 'inference.networking.x-k8s.io/v1alpha2'), 'InferencePool');
    expect(pool.apiVersion).toBe('inference.networking.x-k8s.io/v1alpha2');
    expect(pool.spec).toEqual({
      selector: { 'llm-d.ai/inference-serving': 'true', 'airunway.ai/model-deployment': 'm' },
      targetPortNumber: 8000,
      extensionRef: { name: 'm-epp', portNumber: 9002 },
    });
  });
  it('creates no pool, with a warning, when no InferencePool CRD is installed', () => {
    const result = buildLlmdObjects(deployment(), undefined);
    expect(result.objects.map(o => o.kind)).toEqual(['Deployment', 'Service']);
    expect(result.warnings).toEqual([expect.stringContaining('InferencePool CRD (Gateway API Inference Extension) not installed')]);
  });
  it('detects the installed version from CRD objects', () => {
    const crd = (name: string, version: string) => ({ metadata: { name }, spec: { versions: [{ name: version, served: true }] } });
    expect(detectInferencePoolVersion([crd('inferencepools.inference.networking.x-k8s.io', 'v1alpha2')])).toBe('inference.networking.x-k8s.io/v1alpha2');
    expect(
      detectInferencePoolVersion([crd('inferencepools.inference.networking.x-k8s.io', 'v1alpha2'), crd('inferencepools.inference.networking.k8s.io', 'v1')]),
    ).toBe('inference.networking.k8s.io/v1');
    expect(detectInferencePoolVersion([crd('workspaces.kaito.sh', 'v1beta1')])).toBeUndefined();
  });
});

describe('spec fields', () => {
  it('maps engine flags, env, pod metadata and scheduling', () => {
    const objects = build(
      deployment({
        model: { id: 'org/model', servedName: 'mine' },
        engine: { type: 'vllm', contextLength: 4096, trustRemoteCode: true, enforceEager: true, enablePrefixCaching: false, args: { quantization: 'awq' }, extraArgs: ['--x'] },
        env: [{ name: 'A', value: '1' }],
        podTemplate: { metadata: { labels: { team: 't', 'llm-d.ai/role': 'hijack' }, annotations: { a: 'b' } } },
        nodeSelector: { pool: 'gpu' },
        tolerations: [{ key: 'gpu', operator: 'Exists' }],
        image: 'my/vllm:1',
      }),
    );
    const pod = find(objects, 'Deployment').spec.template;
    expect(pod.metadata.labels).toMatchObject({ team: 't', 'llm-d.ai/role': 'decode' });
    expect(pod.metadata.annotations).toEqual({ a: 'b' });
    expect(pod.spec.nodeSelector).toEqual({ pool: 'gpu' });
    expect(pod.spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }]);
    const c = pod.spec.containers[0];
    expect(c.image).toBe('my/vllm:1');
    expect(c.env).toEqual([{ name: 'A', value: '1' }]);
    expect(c.args).toEqual([
      'org/model', '--port', '8000', '--served-model-name', 'mine', '--max-model-len', '4096', '--trust-remote-code',
      '--no-enable-prefix-caching', '--enforce-eager', '--quantization', 'awq', '--x',
    ]);
  });

  it('propagates only airunway.ai/ labels to the objects', () => {
    const md = deployment();
    md.metadata!.labels = { 'airunway.ai/team': 'a', other: 'b' };
    for (const o of build(md)) expect(o.metadata.labels).toEqual({ 'airunway.ai/team': 'a', 'airunway.ai/managed-by': 'airunway' });
  });

  it('refuses other engines and a port override, naming the field', () => {
    expect(buildLlmdObjects(deployment({ engine: { type: 'sglang' } }), undefined).errors).toEqual([
      'spec.engine.type "sglang" cannot run on llm-d: llm-d only supports vllm engine',
    ]);
    expect(buildLlmdObjects(deployment({ engine: { type: 'vllm', args: { port: '9000' } } }), undefined).errors).toEqual([
      'spec.engine.args.port cannot be set for llm-d: the Service, InferencePool and probes use port 8000',
    ]);
  });
});

describe('overrides', () => {
  it('points the pool at a named endpoint picker and warns about unknown keys', () => {
    const result = buildLlmdObjects(
      deployment({ provider: { name: 'llmd', overrides: { endpointPicker: { name: 'shared-epp', port: 9003, tls: true }, routerMode: 'kv' } } }),
      'inference.networking.k8s.io/v1',
    );
    expect(find(result.objects, 'InferencePool').spec.endpointPickerRef).toEqual({ name: 'shared-epp', port: { number: 9003 } });
    expect(result.warnings).toEqual([
      expect.stringContaining('spec.provider.overrides.routerMode'),
      expect.stringContaining('spec.provider.overrides.endpointPicker.tls'),
    ]);
  });
  it('fails on wrong types, naming the field', () => {
    const result = buildLlmdObjects(
      deployment({ provider: { name: 'llmd', overrides: { endpointPicker: { port: 'x' }, routingSidecar: 'img' } } }),
      'inference.networking.k8s.io/v1',
    );
    expect(result.objects).toEqual([]);
    expect(result.errors).toEqual([
      'spec.provider.overrides.endpointPicker.port must be a port number (1-65535), got "x"',
      'spec.provider.overrides.routingSidecar must be an object, got a string',
    ]);
  });
});

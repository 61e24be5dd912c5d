import { errorsOf, warningsOf } from '../schema/issues';
import { BUILT_IN_PROVIDERS } from './providers';
import { deployment, READY_BUILT_INS, ready } from './testing';
import type { ModelDeployment, ModelDeploymentSpec } from './types';
import {
  identityChanges,
  providerInstalledFrom,
  providerRequiresCRD,
  validateModelDeployment,
  validateModelDeploymentSpec,
  validateModelDeploymentUpdate,
  validateProviderConfig,
} from './validate';

const disaggregatedScaling = {
  prefill: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
  decode: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
};

function spec(patch: Record<string, unknown>): ModelDeploymentSpec {
  return { ...deployment().spec, ...patch } as ModelDeploymentSpec;
}

function issuesOf(patch: Record<string, unknown>, options = {}) {
  return validateModelDeployment(
    { ...deployment(), spec: spec(patch) },
    options,
  ).issues;
}

describe('seed 000 section 8 / seed 002 rules (exact messages)', () => {
  it.each([
    // [rule, invalid patch, path, message, a valid counterpart]
    [
      'vllm needs a GPU',
      { engine: { type: 'vllm' }, resources: { gpu: { count: 0 } } },
      'spec.resources.gpu.count',
      'vLLM engine requires GPU (set resources.gpu.count > 0)',
      { engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } },
    ],
    [
      'vllm with gpu omitted (treated as 0)',
      { engine: { type: 'vllm' }, resources: { memory: '8Gi' } },
      'spec.resources.gpu.count',
      'vLLM engine requires GPU (set resources.gpu.count > 0)',
      { engine: { type: 'llamacpp' }, resources: { memory: '8Gi' } },
    ],
    [
      'sglang needs a GPU',
      { engine: { type: 'sglang' }, resources: { gpu: { count: 0 } } },
      'spec.resources.gpu.count',
      'SGLang engine requires GPU (set resources.gpu.count > 0)',
      { engine: { type: 'sglang' }, resources: { gpu: { count: 2 } } },
    ],
    [
      'trtllm needs a GPU',
      { engine: { type: 'trtllm' }, resources: undefined },
      'spec.resources.gpu.count',
      'TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)',
      { engine: { type: 'trtllm' }, resources: { gpu: { count: 1 } } },
    ],
    [
      'disaggregated with resources.gpu',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: { gpu: { count: 1 } },
      },
      'spec.resources.gpu',
      'Cannot specify both resources.gpu and scaling.prefill/decode',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated without prefill',
      {
        serving: { mode: 'disaggregated' },
        scaling: { decode: disaggregatedScaling.decode },
        resources: undefined,
      },
      'spec.scaling',
      'Disaggregated mode requires scaling.prefill and scaling.decode',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated without scaling',
      { serving: { mode: 'disaggregated' }, resources: undefined },
      'spec.scaling',
      'Disaggregated mode requires scaling.prefill and scaling.decode',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated without prefill.gpu.count',
      {
        serving: { mode: 'disaggregated' },
        scaling: { ...disaggregatedScaling, prefill: { memory: '64Gi' } },
        resources: undefined,
      },
      'spec.scaling.prefill.gpu.count',
      'Disaggregated mode requires scaling.prefill.gpu.count',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated with decode.gpu.count 0',
      {
        serving: { mode: 'disaggregated' },
        scaling: {
          ...disaggregatedScaling,
          decode: { gpu: { count: 0 }, memory: '64Gi' },
        },
        resources: undefined,
      },
      'spec.scaling.decode.gpu.count',
      'Disaggregated mode requires scaling.decode.gpu.count',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated without prefill.memory',
      {
        serving: { mode: 'disaggregated' },
        scaling: { ...disaggregatedScaling, prefill: { gpu: { count: 1 } } },
        resources: undefined,
      },
      'spec.scaling.prefill.memory',
      'Disaggregated mode requires scaling.prefill.memory',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'disaggregated without decode.memory',
      {
        serving: { mode: 'disaggregated' },
        scaling: { ...disaggregatedScaling, decode: { gpu: { count: 1 } } },
        resources: undefined,
      },
      'spec.scaling.decode.memory',
      'Disaggregated mode requires scaling.decode.memory',
      {
        serving: { mode: 'disaggregated' },
        scaling: disaggregatedScaling,
        resources: undefined,
      },
    ],
    [
      'model.id for huggingface',
      { model: { source: 'huggingface' } },
      'spec.model.id',
      'model.id is required when source is huggingface',
      { model: { source: 'custom' }, image: 'registry.example/model:1' },
    ],
    [
      'model.id for the default source',
      { model: { id: '' } },
      'spec.model.id',
      'model.id is required when source is huggingface',
      { model: { id: 'Qwen/Qwen3-0.6B' } },
    ],
  ])('%s', (_rule, invalid, path, message, valid) => {
    expect(issuesOf(invalid)).toContainEqual({
      path,
      message,
      severity: 'error',
    });
    expect(errorsOf({ valid: true, issues: issuesOf(valid) })).toEqual([]);
  });

  it('refuses an httpRouteRef no HTTPRoute can be named, naming the field', () => {
    expect(
      errorsOf({
        valid: false,
        issues: issuesOf({ gateway: { httpRouteRef: 'Not A Valid Name!' } }),
      }),
    ).toEqual([
      {
        path: 'spec.gateway.httpRouteRef',
        message:
          "spec.gateway.httpRouteRef \"Not A Valid Name!\" must be the name of an HTTPRoute in the deployment's namespace: lower case letters, digits, '-' and '.', starting and ending with a letter or digit",
        severity: 'error',
      },
    ]);
    expect(
      errorsOf({
        valid: true,
        issues: issuesOf({ gateway: { httpRouteRef: 'my-route.v2' } }),
      }),
    ).toEqual([]);
  });

  it('warns that servedName is ignored for a custom source', () => {
    const issues = issuesOf({
      model: { source: 'custom', servedName: 'x' },
      image: 'registry.example/m:1',
    });
    expect(issues).toEqual([
      {
        path: 'spec.model.servedName',
        message: 'servedName is ignored for custom source',
        severity: 'warning',
      },
    ]);
    expect(issuesOf({ model: { id: 'a/b', servedName: 'x' } })).toEqual([]);
  });

  it('requires engine.type when the cluster cannot auto-select', () => {
    expect(
      issuesOf({ engine: {} }, { requireEngineType: true }),
    ).toContainEqual({
      path: 'spec.engine.type',
      message: 'engine.type is required',
      severity: 'error',
    });
    expect(issuesOf({ engine: {} })).toEqual([]);
  });

  it('checks engine availability when the providers are known', () => {
    expect(issuesOf({ engine: {} }, { providers: READY_BUILT_INS })).toEqual(
      [],
    );
    expect(
      issuesOf({ engine: {} }, { providers: BUILT_IN_PROVIDERS }),
    ).toContainEqual({
      path: 'spec.engine.type',
      message: 'engine.type is required: No healthy providers available',
      severity: 'error',
    });
  });

  it("reports a provider whose CRD is not installed with the seed's message", () => {
    const installed = (name: string) => name !== 'kuberay';
    expect(
      issuesOf(
        { provider: { name: 'kuberay' } },
        { providerInstalled: installed },
      ),
    ).toContainEqual({
      path: 'spec.provider.name',
      message: "Provider 'kuberay' CRD not installed in cluster",
      severity: 'error',
    });
    expect(
      issuesOf(
        { provider: { name: 'dynamo' } },
        { providerInstalled: installed },
      ),
    ).toEqual([]);
  });

  it('derives the CRD check from the registrations: reported without upstreamCRDVersion is not installed, unless no engine needs a CRD', () => {
    const [kaito, dynamo, , llmd] = BUILT_IN_PROVIDERS;
    const heartbeat = {
      ready: true,
      version: 'v1',
      lastHeartbeat: '2026-02-04T10:00:00Z',
    };
    const installed = providerInstalledFrom([
      {
        ...kaito,
        status: { ...heartbeat, upstreamCRDVersion: 'kaito.sh/v1beta1' },
      },
      { ...dynamo, status: heartbeat },
      { ...llmd, status: heartbeat },
    ]);
    expect(installed('kaito')).toBe(true);
    expect(installed('dynamo')).toBe(false);
    expect(installed('llmd')).toBe(true); // every llm-d engine declares requiresCRD: false
    expect(installed('kuberay')).toBeUndefined(); // not registered: the registration check reports it
    expect(
      providerInstalledFrom([dynamo, { ...kaito, status: { ready: true } }])(
        'dynamo',
      ),
    ).toBeUndefined(); // no report yet: not known
    expect(
      providerInstalledFrom([{ ...kaito, status: { ready: true } }])('kaito'),
    ).toBeUndefined();
    expect(providerRequiresCRD(llmd)).toBe(false);
    expect(providerRequiresCRD({ ...dynamo, spec: {} })).toBe(true);
    expect(
      issuesOf(
        { provider: { name: 'dynamo' } },
        { providerInstalled: installed },
      ),
    ).toContainEqual({
      path: 'spec.provider.name',
      message: "Provider 'dynamo' CRD not installed in cluster",
      severity: 'error',
    });
  });

  it('reports an unregistered provider and applies the named provider’s compatibility rules', () => {
    expect(
      issuesOf({ provider: { name: 'nope' } }, { providers: READY_BUILT_INS }),
    ).toContainEqual({
      path: 'spec.provider.name',
      message:
        'provider "nope" is not registered (no InferenceProviderConfig named nope; registered: kaito, dynamo, kuberay, llmd)',
      severity: 'error',
    });
    expect(
      issuesOf(
        { provider: { name: 'kaito' }, engine: { type: 'sglang' } },
        { providers: READY_BUILT_INS },
      ),
    ).toContainEqual({
      path: 'spec.engine.type',
      message: 'KAITO does not support sglang engine',
      severity: 'error',
    });
  });
});

describe("upstream's admission rules", () => {
  it.each([
    [
      'resources.gpu.count',
      { resources: { gpu: { count: 65 } } },
      'spec.resources.gpu.count',
      'spec.resources.gpu.count exceeds maximum allowed (64)',
      { resources: { gpu: { count: 64 } } },
    ],
    [
      'scaling.replicas',
      { scaling: { replicas: 33 } },
      'spec.scaling.replicas',
      'spec.scaling.replicas exceeds maximum allowed (32)',
      { scaling: { replicas: 32 } },
    ],
    [
      'resources.cpu',
      { resources: { gpu: { count: 1 }, cpu: '513' } },
      'spec.resources.cpu',
      'spec.resources.cpu exceeds maximum allowed (512)',
      { resources: { gpu: { count: 1 }, cpu: 512 } },
    ],
    [
      'resources.memory',
      { resources: { gpu: { count: 1 }, memory: '5Ti' } },
      'spec.resources.memory',
      'spec.resources.memory exceeds maximum allowed (4Ti)',
      { resources: { gpu: { count: 1 }, memory: '4096Gi' } },
    ],
    [
      'prefill replicas',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: {
          ...disaggregatedScaling,
          prefill: { ...disaggregatedScaling.prefill, replicas: 40 },
        },
      },
      'spec.scaling.prefill.replicas',
      'spec.scaling.prefill.replicas exceeds maximum allowed (32)',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: disaggregatedScaling,
      },
    ],
    [
      'decode gpu count',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: {
          ...disaggregatedScaling,
          decode: { ...disaggregatedScaling.decode, gpu: { count: 65 } },
        },
      },
      'spec.scaling.decode.gpu.count',
      'spec.scaling.decode.gpu.count exceeds maximum allowed (64)',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: disaggregatedScaling,
      },
    ],
    [
      'decode memory',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: {
          ...disaggregatedScaling,
          decode: { ...disaggregatedScaling.decode, memory: '8Ti' },
        },
      },
      'spec.scaling.decode.memory',
      'spec.scaling.decode.memory exceeds maximum allowed (4Ti)',
      {
        serving: { mode: 'disaggregated' },
        resources: undefined,
        scaling: disaggregatedScaling,
      },
    ],
    [
      'memory is a quantity',
      { resources: { gpu: { count: 1 }, memory: '32GB' } },
      'spec.resources.memory',
      'spec.resources.memory must be a Kubernetes quantity such as 32Gi (got "32GB")',
      { resources: { gpu: { count: 1 }, memory: '32G' } },
    ],
    [
      'cpu is a quantity',
      { resources: { gpu: { count: 1 }, cpu: 'four' } },
      'spec.resources.cpu',
      'spec.resources.cpu must be a Kubernetes quantity such as 4 or 500m (got "four")',
      { resources: { gpu: { count: 1 }, cpu: '500m' } },
    ],
    [
      'name without dots',
      { __name: 'llama.8b' },
      'metadata.name',
      'name must not contain dots (dots are invalid in derived Kubernetes volume and service names)',
      { __name: 'llama-8b' },
    ],
    [
      'name is a DNS name',
      { __name: 'Llama_8B' },
      'metadata.name',
      `metadata.name "Llama_8B" must consist of lower case letters, digits and '-', start and end with a letter or digit, at most 253 characters`,
      { __name: 'llama8b' },
    ],
    [
      'blocked override keys at any depth',
      {
        provider: {
          name: 'dynamo',
          overrides: {
            frontend: { podSpec: [{ securityContext: { privileged: true } }] },
          },
        },
      },
      'spec.provider.overrides.frontend.podSpec[0].securityContext',
      'overriding "securityContext" is not allowed for security reasons; remove spec.provider.overrides.frontend.podSpec[0].securityContext',
      {
        provider: {
          name: 'dynamo',
          overrides: {
            routerMode: 'kv',
            frontend: { replicas: 2, resources: { cpu: '4', memory: '8Gi' } },
          },
        },
      },
    ],
    [
      'httpRouteRef is an object name',
      { gateway: { httpRouteRef: 'Shared Route' } },
      'spec.gateway.httpRouteRef',
      `spec.gateway.httpRouteRef "Shared Route" must be the name of an HTTPRoute in the deployment's namespace: lower case letters, digits, '-' and '.', starting and ending with a letter or digit`,
      { gateway: { httpRouteRef: 'shared-route' } },
    ],
    [
      'one image',
      { image: 'a:1', engine: { type: 'vllm', image: 'b:1' } },
      'spec.engine.image',
      'spec.image and spec.engine.image name different images; set only one of them (spec.engine.image is the engine-specific override)',
      { engine: { type: 'vllm', image: 'b:1' } },
    ],
  ])('%s', (_rule, invalid, path, message, valid) => {
    const build = ({ __name, ...patch }: Record<string, any>) =>
      validateModelDeployment({
        ...deployment({}, __name ?? 'llama'),
        spec: spec(patch),
      }).issues;
    expect(build(invalid)).toContainEqual({ path, message, severity: 'error' });
    expect(errorsOf({ valid: true, issues: build(valid) })).toEqual([]);
  });

  it.each([
    [
      { engine: { type: 'vllm', trustRemoteCode: true } },
      'spec.engine.trustRemoteCode',
      'trustRemoteCode=true allows execution of arbitrary code from HuggingFace',
    ],
    [
      { engine: { type: 'trtllm', contextLength: 8192 } },
      'spec.engine.contextLength',
      'contextLength is ignored for TensorRT-LLM (must be configured at engine build time)',
    ],
  ])('warns: %j', (patch, path, message) => {
    const result = validateModelDeployment({
      ...deployment(),
      spec: spec(patch),
    });
    expect(result.valid).toBe(true);
    expect(warningsOf(result)).toEqual([
      { path, message, severity: 'warning' },
    ]);
  });
});

describe('storage volumes', () => {
  const volumes = (...list: object[]) => ({
    model: { id: 'a/b', storage: { volumes: list } },
  });
  it.each([
    [
      [{ name: 'cache', purpose: 'custom', mountPath: '/data' }],
      'spec.model.storage.volumes[0].claimName',
      'spec.model.storage.volumes[0].claimName is required when size is not set (it must name an existing PVC)',
    ],
    [
      [{ name: 'cache', size: '100Gi', readOnly: true, purpose: 'modelCache' }],
      'spec.model.storage.volumes[0].readOnly',
      'spec.model.storage.volumes[0].readOnly must not be true when size is set (controller-created PVCs need write access)',
    ],
    [
      [
        {
          name: 'cache',
          size: '100Gi',
          claimName: 'other',
          purpose: 'modelCache',
        },
      ],
      'spec.model.storage.volumes[0].claimName',
      'spec.model.storage.volumes[0].claimName must not be set when size is set (it is generated as "llama-cache")',
    ],
    [
      [
        {
          name: 'cache',
          claimName: 'pvc',
          accessMode: 'ReadWriteOnce',
          purpose: 'modelCache',
        },
      ],
      'spec.model.storage.volumes[0].accessMode',
      'spec.model.storage.volumes[0].accessMode only applies when size is set (controller-created PVCs)',
    ],
    [
      [
        {
          name: 'cache',
          claimName: 'pvc',
          storageClassName: 'fast',
          purpose: 'modelCache',
        },
      ],
      'spec.model.storage.volumes[0].storageClassName',
      'spec.model.storage.volumes[0].storageClassName only applies when size is set (controller-created PVCs)',
    ],
    [
      [
        { name: 'a', claimName: 'pvc-a', mountPath: '/data' },
        { name: 'b', claimName: 'pvc-b', mountPath: '/data' },
      ],
      'spec.model.storage.volumes[1].mountPath',
      'spec.model.storage.volumes[1].mountPath "/data" is used by another volume; use a unique mountPath',
    ],
    [
      [
        { name: 'a', claimName: 'pvc', mountPath: '/a' },
        { name: 'b', claimName: 'pvc', mountPath: '/b' },
      ],
      'spec.model.storage.volumes[1].claimName',
      'spec.model.storage.volumes[1].claimName "pvc" is used by another volume; use a unique claimName',
    ],
    [
      [{ name: 'a', claimName: 'pvc', mountPath: 'data' }],
      'spec.model.storage.volumes[0].mountPath',
      'spec.model.storage.volumes[0].mountPath must be an absolute path (start with /)',
    ],
    [
      [{ name: 'a', claimName: 'pvc', mountPath: '/etc/models' }],
      'spec.model.storage.volumes[0].mountPath',
      'spec.model.storage.volumes[0].mountPath must not overlap with system path /etc',
    ],
    [
      [{ name: 'a', claimName: 'pvc' }],
      'spec.model.storage.volumes[0].mountPath',
      'spec.model.storage.volumes[0].mountPath is required when purpose is custom',
    ],
    [
      [
        { name: 'a', claimName: 'p1', purpose: 'modelCache' },
        { name: 'b', claimName: 'p2', purpose: 'modelCache', mountPath: '/m2' },
      ],
      'spec.model.storage.volumes',
      'at most one volume with purpose=modelCache is allowed (found 2)',
    ],
    [
      [{ name: 'Bad_Name', claimName: 'p', mountPath: '/x' }],
      'spec.model.storage.volumes[0].name',
      'spec.model.storage.volumes[0].name "Bad_Name" does not match the required format ^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$',
    ],
  ])('%j is rejected', (list, path, message) => {
    expect(issuesOf(volumes(...list))).toContainEqual({
      path,
      message,
      severity: 'error',
    });
  });

  it('accepts managed and existing-claim volumes, with defaults applied', () => {
    const result = validateModelDeployment({
      ...deployment(),
      spec: spec(
        volumes(
          { name: 'cache', purpose: 'modelCache', size: '100Gi' },
          { name: 'cc', purpose: 'compilationCache', claimName: 'cc-pvc' },
        ),
      ),
    });
    expect(result).toEqual({ valid: true, issues: [] });
  });

  it('warns about read-only caches', () => {
    const issues = issuesOf(
      volumes(
        { name: 'm', purpose: 'modelCache', claimName: 'p1', readOnly: true },
        {
          name: 'c',
          purpose: 'compilationCache',
          claimName: 'p2',
          readOnly: true,
        },
      ),
    );
    expect(issues).toEqual([
      {
        path: 'spec.model.storage.volumes[0].readOnly',
        message:
          'storage volume "m" has purpose=modelCache with readOnly=true; model download will be skipped (ensure the PVC already contains the model data)',
        severity: 'warning',
      },
      {
        path: 'spec.model.storage.volumes[1].readOnly',
        message:
          'storage volume "c" has purpose=compilationCache with readOnly=true; compilation cache requires write access',
        severity: 'warning',
      },
    ]);
  });
});

describe('structure', () => {
  it.each([
    [
      { engine: { type: 'vlm' } },
      'spec.engine.type',
      'spec.engine.type must be one of: vllm, sglang, trtllm, llamacpp, custom (got "vlm")',
    ],
    [
      { serving: { mode: 'split' } },
      'spec.serving.mode',
      'spec.serving.mode must be one of: aggregated, disaggregated (got "split")',
    ],
    [
      { resources: { gpu: { count: -1 } } },
      'spec.resources.gpu.count',
      'spec.resources.gpu.count must be at least 0 (got number -1)',
    ],
    [
      { resources: { gpu: { count: '1' } } },
      'spec.resources.gpu.count',
      'spec.resources.gpu.count must be a whole number (got "1")',
    ],
    [
      { scaling: { replicas: -1 } },
      'spec.scaling.replicas',
      'spec.scaling.replicas must be at least 0 (got number -1)',
    ],
    [{ model: undefined }, 'spec.model', 'spec.model is required'],
    [
      { env: [{ value: 'x' }] },
      'spec.env[0].name',
      'spec.env[0].name is required',
    ],
    [
      { engine: { type: 'vllm', args: { 'max-num-seqs': 8 } } },
      'spec.engine.args["max-num-seqs"]',
      'spec.engine.args["max-num-seqs"] must be a string (got number 8)',
    ],
  ])('%j', (patch, path, message) => {
    expect(issuesOf(patch)).toContainEqual({
      path,
      message,
      severity: 'error',
    });
  });

  it('never throws on garbage and reports the field', () => {
    for (const garbage of [
      null,
      42,
      'x',
      [],
      { spec: 5 },
      { spec: { model: 'x', engine: [], resources: { gpu: 'lots' } } },
    ]) {
      const result = validateModelDeployment(garbage);
      expect(result.valid).toBe(false);
      expect(result.issues.length).toBeGreaterThan(0);
    }
    expect(
      validateModelDeployment({ metadata: { name: 'a' } }).issues,
    ).toContainEqual({
      path: 'spec',
      message: 'spec is required',
      severity: 'error',
    });
  });

  it('warns about unknown fields instead of dropping them silently', () => {
    expect(issuesOf({ engine: { type: 'vllm', contextLen: 4096 } })).toEqual([
      {
        path: 'spec.engine.contextLen',
        message:
          'spec.engine.contextLen is not a known field and would be dropped by the API server; check its spelling or remove it',
        severity: 'warning',
      },
    ]);
  });

  it('validates a spec alone for forms', () => {
    expect(validateModelDeploymentSpec({ model: {} }).issues).toContainEqual({
      path: 'spec.model.id',
      message: 'model.id is required when source is huggingface',
      severity: 'error',
    });
  });
});

describe('updates', () => {
  const withStatus = (
    md: ModelDeployment,
    status: ModelDeployment['status'],
  ): ModelDeployment => ({ ...md, status });

  it('rejects changing engine.type once set (CEL transition rule)', () => {
    const result = validateModelDeploymentUpdate(
      deployment(),
      deployment({ engine: { type: 'sglang' } }),
    );
    expect(result.issues).toContainEqual({
      path: 'spec.engine.type',
      message:
        'engine.type is immutable once set; delete and recreate the ModelDeployment to change the engine',
      severity: 'error',
    });
    expect(
      validateModelDeploymentUpdate(
        deployment({ engine: {} }),
        deployment({ engine: { type: 'sglang' } }),
      ).valid,
    ).toBe(true);
  });

  it('rejects changing away from an auto-selected engine', () => {
    const old = withStatus(deployment({ engine: {} }), {
      engine: { type: 'vllm', selectedReason: 'auto' },
    });
    expect(
      validateModelDeploymentUpdate(
        old,
        deployment({ engine: { type: 'sglang' } }),
      ).issues,
    ).toContainEqual({
      path: 'spec.engine.type',
      message:
        'engine.type is immutable once set; this deployment runs the auto-selected engine vllm: delete and recreate the ModelDeployment to change the engine',
      severity: 'error',
    });
    expect(
      validateModelDeploymentUpdate(
        old,
        deployment({ engine: { type: 'vllm' } }),
      ).valid,
    ).toBe(true);
  });

  it('warns for every other identity field change (delete and recreate)', () => {
    const old = withStatus(deployment(), { provider: { name: 'dynamo' } });
    const next = deployment({
      model: { id: 'Qwen/Qwen3-8B' },
      provider: { name: 'kuberay' },
    });
    const result = validateModelDeploymentUpdate(old, next);
    expect(result.valid).toBe(true);
    expect(warningsOf(result)).toEqual([
      {
        path: 'spec.model.id',
        message:
          'changing spec.model.id from meta-llama/Llama-3.1-8B-Instruct to Qwen/Qwen3-8B deletes and recreates the provider resource (brief downtime)',
        severity: 'warning',
      },
      {
        path: 'spec.provider.name',
        message:
          'changing spec.provider.name from dynamo to kuberay deletes and recreates the provider resource (brief downtime)',
        severity: 'warning',
      },
    ]);
  });

  it('lists identity changes with effective values', () => {
    const old = withStatus(deployment({ serving: undefined }), {
      provider: { name: 'dynamo' },
      engine: { type: 'vllm' },
    });
    expect(
      identityChanges(old, deployment({ serving: { mode: 'aggregated' } })),
    ).toEqual([]);
    expect(
      identityChanges(
        old,
        deployment({
          serving: { mode: 'disaggregated' },
          model: { id: 'x/y', source: 'huggingface' },
        }),
      ),
    ).toEqual([
      {
        field: 'model.id',
        from: 'meta-llama/Llama-3.1-8B-Instruct',
        to: 'x/y',
      },
      { field: 'serving.mode', from: 'aggregated', to: 'disaggregated' },
    ]);
  });

  it('keeps managed storage volumes immutable', () => {
    const withVolume = (size: string | undefined) =>
      deployment({
        model: {
          id: 'a/b',
          storage: {
            volumes: size
              ? [{ name: 'cache', purpose: 'modelCache', size }]
              : [],
          },
        },
      });
    expect(
      validateModelDeploymentUpdate(withVolume('100Gi'), withVolume('102400Mi'))
        .valid,
    ).toBe(true);
    expect(
      validateModelDeploymentUpdate(withVolume('100Gi'), withVolume('200Gi'))
        .issues,
    ).toContainEqual({
      path: 'spec.model.storage.volumes[0]',
      message:
        'managed storage volume "cache" is immutable once created (delete the ModelDeployment to change managed storage configuration)',
      severity: 'error',
    });
    expect(
      validateModelDeploymentUpdate(withVolume('100Gi'), withVolume(undefined))
        .issues,
    ).toContainEqual({
      path: 'spec.model.storage.volumes',
      message:
        'managed storage volume "cache" cannot be removed (it has an associated PVC; delete the ModelDeployment to clean up managed storage)',
      severity: 'error',
    });
  });
});

describe('validateProviderConfig', () => {
  it('accepts the built-in registrations', () => {
    for (const p of BUILT_IN_PROVIDERS)
      expect(validateProviderConfig(ready(p))).toEqual({
        valid: true,
        issues: [],
      });
  });

  it('accepts the flat capability form of the seeds', () => {
    const flat = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: 'kaito' },
      spec: {
        capabilities: {
          engines: ['vllm', 'llamacpp'],
          servingModes: ['aggregated'],
          cpuSupport: true,
          gpuSupport: true,
        },
        selectionRules: [
          {
            condition:
              '!has(spec.resources.gpu) || spec.resources.gpu.count == 0',
            priority: 100,
          },
        ],
        documentation: 'https://github.com/kubefoundry/kaito-provider',
      },
      status: {
        ready: true,
        version: 'kaito-provider:v1.2.0',
        lastHeartbeat: '2026-02-04T10:00:00Z',
        upstreamCRDVersion: 'kaito.sh/v1alpha1',
        upstreamSchemaHash: 'abc123def456',
      },
    };
    expect(validateProviderConfig(flat)).toEqual({ valid: true, issues: [] });
  });

  it.each([
    [
      { capabilities: { engines: ['vllm', 'vllm'] } },
      'spec.capabilities.engines[1].name',
      'spec.capabilities.engines[1].name: engine vllm is listed twice; list each engine once',
    ],
    [
      { capabilities: { engines: ['tgi'] } },
      'spec.capabilities.engines[0].name',
      'spec.capabilities.engines[0].name must be one of: vllm, sglang, trtllm, llamacpp, custom (got "tgi")',
    ],
    [
      { selectionRules: [{ condition: 'spec.engine.type ==', priority: 1 }] },
      'spec.selectionRules[0].condition',
      expect.stringMatching(
        /^spec\.selectionRules\[0\]\.condition is not a valid CEL expression \(.+\)$/,
      ),
    ],
    [
      { selectionRules: [{ priority: 1 }] },
      'spec.selectionRules[0].condition',
      'spec.selectionRules[0].condition is required',
    ],
    [
      { selectionRules: [{ condition: 'true', priority: -1 }] },
      'spec.selectionRules[0].priority',
      'spec.selectionRules[0].priority must be at least 0 (got number -1)',
    ],
    [
      { compatibilityRules: [{ rule: '((', message: 'x' }] },
      'spec.compatibilityRules[0].rule',
      expect.stringMatching(/is not a valid CEL expression/),
    ],
  ])('%j', (specPatch, path, message) => {
    const result = validateProviderConfig({
      metadata: { name: 'p' },
      spec: specPatch,
    });
    expect(result.valid).toBe(false);
    expect(result.issues).toContainEqual({ path, message, severity: 'error' });
  });
});

import {
  type InferenceProviderConfig,
  type ModelDeployment,
  OBSERVED_IDENTITY_ANNOTATION,
  previewSelection,
  selectDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  DESIRED_ANNOTATION,
  IDENTITY_ANNOTATION,
  type ProviderDefinition,
  TransformError,
} from '@runway-portal/provider-shared';
import {
  previewWrite,
  providerObjectsPreview,
  STACK_OPERATOR,
  stackDistributions,
  stackObjectsPreview,
} from './preview';

/** The preview's selection of an object: the core's own `selectDeployment`, shown. */
const selectionPreview = (md: object, registered: InferenceProviderConfig[]) =>
  previewSelection(selectDeployment(md as ModelDeployment, registered));

const provider = (
  name: string,
  ready: boolean,
  engines: unknown[],
  rules: unknown[],
  upstreamCRDVersion?: string,
): InferenceProviderConfig => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'InferenceProviderConfig',
  metadata: { name },
  spec: { capabilities: { engines }, selectionRules: rules } as any,
  status: { ready, ...(upstreamCRDVersion ? { upstreamCRDVersion } : {}) },
});

const kaitoConfig = provider(
  'kaito',
  true,
  [
    {
      name: 'llamacpp',
      servingModes: ['aggregated'],
      cpuSupport: true,
      gpuSupport: true,
    },
  ],
  [
    {
      condition: '!has(spec.resources.gpu) || spec.resources.gpu.count == 0',
      priority: 100,
    },
  ],
  'example.com/v1beta1',
);
const providers = [
  kaitoConfig,
  provider(
    'dynamo',
    true,
    [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }],
    [
      {
        condition:
          "has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm'",
        priority: 50,
      },
    ],
  ),
];

const deployment = (spec: Record<string, unknown>, name = 'x') => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: {
    name,
    namespace: 'a',
    uid: 'uid-1',
    labels: { 'airunway.ai/team': 'blue', other: 'no' },
  },
  spec: { model: { id: 'org/model', source: 'huggingface' }, ...spec },
});

/**
 * A provider definition written for these tests (the real ones are tested
 * in their packages and, through the API, in router.integration.test.ts):
 * one `Box` per deployment, named after it, carrying the engine and the
 * `size` override; `spec.image` of "bad" is refused.
 */
const boxes: ProviderDefinition = {
  name: 'kaito',
  registration: { ...kaitoConfig, status: undefined },
  version: 'test',
  upstream: {
    group: 'example.com',
    kind: 'Box',
    plural: 'boxes',
    versions: ['v1beta1', 'v1alpha1'],
  },
  overrides: { size: 'integer' },
  transform(md, ctx) {
    if (md.spec.image === 'bad')
      throw new TransformError(
        'spec.image',
        'boxes cannot run "bad"; use another image',
      );
    const size = md.spec.provider?.overrides?.size;
    return {
      objects: [
        {
          apiVersion: ctx.apiVersion,
          kind: 'Box',
          metadata: { name: md.metadata!.name! },
          spec: { engine: md.spec.engine?.type, size },
        },
      ],
      warnings: size ? [] : ['no size given: boxes are small'],
    };
  },
  mapStatus: () => ({
    phase: 'Running',
    message: '',
    ready: true,
    reason: 'Ready',
  }),
};

const previewOf = (
  spec: Record<string, unknown>,
  registered = providers,
  builtIn = [boxes],
) => {
  const md = deployment(spec);
  return providerObjectsPreview({
    md,
    selection: selectDeployment(md as ModelDeployment, registered),
    registered,
    builtIn,
    cluster: 'east',
  });
};

describe('selectionPreview', () => {
  it('shows the engine and provider the core controller would select', () => {
    expect(
      selectionPreview(
        deployment({ resources: { gpu: { count: 1 } } }),
        providers,
      ),
    ).toMatchObject({
      engine: { ok: true, engine: 'vllm', auto: true },
      provider: { ok: true, provider: 'dynamo', auto: true },
    });
    expect(
      selectionPreview(
        deployment({ resources: { memory: '16Gi' } }),
        providers,
      ),
    ).toMatchObject({
      engine: { ok: true, engine: 'llamacpp' },
      provider: { ok: true, provider: 'kaito' },
    });
  });

  it('says why nothing can be selected', () => {
    const result = selectionPreview(deployment({}), []);
    expect(result.engine.ok).toBe(false);
    expect(result.engine.reason).toMatch(/No healthy providers available/);
    expect(result.provider).toBeUndefined();
  });

  it('refuses an explicit provider that is not registered or not ready, as the core does', () => {
    const missing = selectionPreview(
      deployment({ engine: { type: 'vllm' }, provider: { name: 'kuberay' } }),
      providers,
    );
    expect(missing.provider).toEqual({
      ok: false,
      reason:
        "Provider 'kuberay' is not registered (no InferenceProviderConfig named kuberay; registered: kaito, dynamo); install its provider controller or change spec.provider.name",
    });
    const notReady = selectionPreview(
      deployment({ engine: { type: 'vllm' }, provider: { name: 'dynamo' } }),
      [provider('dynamo', false, [], [])],
    );
    expect(notReady.provider?.reason).toMatch(
      /^Provider 'dynamo' is not ready \(its InferenceProviderConfig reports status.ready=false\)/,
    );
  });

  it('refuses an explicit provider whose controller reports no upstream CRD (seed 000 §8), as the core does', () => {
    const reported = (
      config: InferenceProviderConfig,
      upstreamCRDVersion?: string,
    ): InferenceProviderConfig => ({
      ...config,
      status: {
        ...config.status,
        lastHeartbeat: '2026-11-21T06:00:00Z',
        ...(upstreamCRDVersion ? { upstreamCRDVersion } : {}),
      },
    });
    const gpu = { engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const withoutCrd = [kaitoConfig, reported(providers[1])];
    expect(
      selectionPreview(
        deployment({ ...gpu, provider: { name: 'dynamo' } }),
        withoutCrd,
      ).provider,
    ).toEqual({
      ok: false,
      reason:
        "No provider selected: the spec is not valid: Provider 'dynamo' CRD not installed in cluster",
    });
    // Auto-selection is not judged by this check; an installed CRD passes.
    expect(
      selectionPreview(deployment(gpu), withoutCrd).provider,
    ).toMatchObject({ ok: true, provider: 'dynamo' });
    const installed = [
      kaitoConfig,
      reported(providers[1], 'nvidia.com/v1beta1'),
    ];
    expect(
      selectionPreview(
        deployment({ ...gpu, provider: { name: 'dynamo' } }),
        installed,
      ).provider,
    ).toMatchObject({ ok: true, provider: 'dynamo' });
  });
});

describe('what the core keeps on update (its recorded identity)', () => {
  const status = {
    engine: { type: 'vllm', selectedReason: 'vllm for GPU' },
    provider: { name: 'dynamo', selectedReason: 'rule → dynamo' },
  };
  const recorded = JSON.stringify({
    'model.id': 'org/model',
    'model.source': 'huggingface',
    'serving.mode': 'aggregated',
  });
  const stored = (spec: Record<string, unknown>) => {
    const md = deployment(spec);
    return {
      ...md,
      metadata: {
        ...md.metadata,
        annotations: { [OBSERVED_IDENTITY_ANNOTATION]: recorded },
      },
      status,
    };
  };

  it('keeps the engine and provider the core chose while no identity field changes', () => {
    // Even when the rules would now pick another provider (dynamo is no longer registered).
    const scaled = stored({
      resources: { gpu: { count: 1 } },
      scaling: { replicas: 3 },
    });
    expect(selectionPreview(scaled, [kaitoConfig])).toEqual({
      engine: { ok: true, engine: 'vllm', reason: 'vllm for GPU', auto: true },
      provider: {
        ok: true,
        provider: 'dynamo',
        reason: 'rule → dynamo',
        auto: true,
      },
    });
  });

  it('selects afresh when an identity field changes', () => {
    const moved = stored({
      model: { id: 'org/other', source: 'huggingface' },
      resources: { memory: '16Gi' },
    });
    expect(selectionPreview(moved, providers)).toMatchObject({
      engine: { ok: true, engine: 'llamacpp' },
      provider: { ok: true, provider: 'kaito' },
    });
  });
});

describe('providerObjectsPreview', () => {
  it("is the provider's transformation at the apiVersion it reports, decorated as its controller writes it", () => {
    const result = previewOf({
      resources: { memory: '16Gi' },
      provider: { overrides: { size: 3, colour: 'red' } },
    });
    expect(result).toMatchObject({
      status: 'available',
      provider: 'kaito',
      apiVersion: 'example.com/v1beta1',
    });
    expect(result.message).toBe(
      "Provider 'kaito' would write Box x (example.com/v1beta1)",
    );
    expect(result.objects).toHaveLength(1);
    const [box] = result.objects;
    expect(box).toMatchObject({
      apiVersion: 'example.com/v1beta1',
      kind: 'Box',
      // The engine the core selected, handed to the provider; the override as given.
      spec: { engine: 'llamacpp', size: 3 },
      metadata: {
        name: 'x',
        namespace: 'a',
        labels: {
          'airunway.ai/team': 'blue',
          'airunway.ai/managed-by': 'airunway',
        },
        ownerReferences: [
          {
            kind: 'ModelDeployment',
            name: 'x',
            uid: 'uid-1',
            controller: true,
          },
        ],
      },
    });
    expect(box.metadata?.labels?.other).toBeUndefined();
    expect(Object.keys(box.metadata?.annotations ?? {}).sort()).toEqual([
      DESIRED_ANNOTATION,
      IDENTITY_ANNOTATION,
    ]);
    expect(result.warnings).toEqual([
      "Unknown override key spec.provider.overrides.colour is ignored by provider 'kaito'",
    ]);
  });

  it("passes the provider's warnings on", () => {
    expect(previewOf({ resources: { memory: '16Gi' } }).warnings).toEqual([
      'no size given: boxes are small',
    ]);
  });

  it('names the field the provider refuses', () => {
    expect(
      previewOf({ resources: { memory: '16Gi' }, image: 'bad' }),
    ).toMatchObject({
      status: 'invalid',
      field: 'spec.image',
      message: 'spec.image: boxes cannot run "bad"; use another image',
      objects: [],
    });
    expect(
      previewOf({
        resources: { memory: '16Gi' },
        provider: { overrides: { size: 'big' } },
      }),
    ).toMatchObject({
      status: 'invalid',
      field: 'spec.provider.overrides',
      message: expect.stringContaining('spec.provider.overrides.size must be'),
    });
  });

  it("gives the core's reason when no provider can serve the deployment", () => {
    const result = previewOf({
      resources: { gpu: { count: 1 } },
      engine: { type: 'llamacpp' },
    });
    expect(result.status).toBe('no-provider');
    expect(result.message).toMatch(
      /^No provider can serve this deployment: No provider's selection rules match/,
    );
    expect(previewOf({}, []).message).toMatch(/No healthy providers available/);
  });

  it('says when the named provider is not registered or not ready in that cluster', () => {
    const result = previewOf({
      engine: { type: 'vllm' },
      provider: { name: 'kuberay' },
    });
    expect(result).toMatchObject({
      status: 'provider-unavailable',
      provider: 'kuberay',
      objects: [],
    });
    expect(result.message).toMatch(
      /Provider 'kuberay' is not registered .* \(cluster "east"\)$/,
    );
  });

  it('says when the provider reports no upstream CRD, or one this portal cannot write', () => {
    const noCrd = previewOf({ resources: { memory: '16Gi' } }, [
      { ...kaitoConfig, status: { ready: true } },
    ]);
    expect(noCrd).toMatchObject({
      status: 'provider-unavailable',
      provider: 'kaito',
    });
    expect(noCrd.message).toMatch(
      /CRD not installed in cluster "east".*install the Box CRD \(boxes.example.com\)/,
    );
    const newer = previewOf({ resources: { memory: '16Gi' } }, [
      {
        ...kaitoConfig,
        status: { ready: true, upstreamCRDVersion: 'example.com/v2' },
      },
    ]);
    expect(newer).toMatchObject({
      status: 'provider-unavailable',
      apiVersion: 'example.com/v2',
    });
    expect(newer.message).toMatch(
      /does not write \(example.com\/v1beta1, example.com\/v1alpha1\)/,
    );
  });

  it('says when the portal does not include the selected provider', () => {
    const result = previewOf({ resources: { memory: '16Gi' } }, providers, []);
    expect(result).toMatchObject({
      status: 'not-built-in',
      provider: 'kaito',
      objects: [],
    });
    expect(result.message).toMatch(/built in: none/);
  });

  it('reports a failing transformation without failing the preview', () => {
    const broken = {
      ...boxes,
      transform: () => {
        throw new Error('boom');
      },
    };
    expect(
      previewOf({ resources: { memory: '16Gi' } }, providers, [broken]),
    ).toMatchObject({
      status: 'error',
      message: "Provider 'kaito' could not transform this deployment: boom",
    });
  });
});

describe('previewWrite', () => {
  const dryRunResult = {
    object: deployment({ resources: { memory: '16Gi' } }),
    warnings: [],
  };

  it('dry-runs the write and adds what the provider would write', async () => {
    const create = jest.fn(async () => dryRunResult);
    const clusterClient = {
      create,
      providerConfigs: async () => providers,
    } as any;
    const body = deployment({ resources: { memory: '16Gi' } });
    const preview = await previewWrite({
      clusterClient,
      kind: 'deployments',
      cluster: 'east',
      mode: 'create',
      body,
      builtInProviders: [boxes],
    });
    expect(create).toHaveBeenCalledWith('deployments', 'east', body, {
      dryRun: true,
    });
    expect(preview.objects).toEqual([
      { action: 'create', object: dryRunResult.object },
    ]);
    expect(preview.providerObjects).toMatchObject({
      status: 'available',
      provider: 'kaito',
      objects: [{ kind: 'Box' }],
    });
  });

  it('on update, previews with the provider the deployment already has (the dry run answers with its status)', async () => {
    const live = {
      ...dryRunResult.object,
      status: { engine: { type: 'llamacpp' }, provider: { name: 'kaito' } },
    };
    const clusterClient = {
      update: async () => ({ object: live, warnings: [] }),
      providerConfigs: async () => [
        {
          ...kaitoConfig,
          status: { ready: false, upstreamCRDVersion: 'example.com/v1beta1' },
        },
      ],
    } as any;
    const preview = await previewWrite({
      clusterClient,
      kind: 'deployments',
      cluster: 'east',
      mode: 'update',
      body: live,
      builtInProviders: [boxes],
    });
    expect(preview.selection?.provider).toMatchObject({
      ok: true,
      provider: 'kaito',
      reason: 'selected earlier',
    });
    expect(preview.providerObjects).toMatchObject({
      status: 'available',
      objects: [{ kind: 'Box', spec: { engine: 'llamacpp' } }],
    });
  });

  it('has no provider objects for models', async () => {
    const clusterClient = {
      create: async () => ({ object: { kind: 'Model' }, warnings: [] }),
    } as any;
    const preview = await previewWrite({
      clusterClient,
      kind: 'models',
      cluster: 'east',
      mode: 'create',
      body: {},
      builtInProviders: [boxes],
    });
    expect(preview.providerObjects).toMatchObject({
      status: 'not-applicable',
      objects: [],
    });
    expect(preview.selection).toBeUndefined();
  });

  it("shows, for a stack, what the stack operator would write for the dry run's object", async () => {
    const stored = {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'chat', namespace: 'ml', uid: 'dry-run' },
      spec: { distribution: { name: 'starter' } },
    };
    const clusterClient = {
      create: async () => ({ object: stored, warnings: [] }),
    } as any;
    const preview = await previewWrite({
      clusterClient,
      kind: 'stacks',
      cluster: 'east',
      mode: 'create',
      body: stored,
      builtInProviders: [boxes],
    });
    expect(preview.objects).toEqual([{ action: 'create', object: stored }]);
    expect(preview.providerObjects.status).toBe('available');
    expect(preview.providerObjects.objects[0].kind).toBe('ConfigMap');
    expect(preview.selection).toBeUndefined();
  });

  it('still answers when the providers cannot be read', async () => {
    const clusterClient = {
      update: async () => dryRunResult,
      providerConfigs: async () => {
        throw new Error('cluster "east" is not synced');
      },
    } as any;
    const preview = await previewWrite({
      clusterClient,
      kind: 'deployments',
      cluster: 'east',
      mode: 'update',
      body: deployment({}),
      builtInProviders: [boxes],
    });
    expect(preview.objects[0].action).toBe('update');
    const reason =
      'cannot read the providers registered in cluster "east": cluster "east" is not synced';
    expect(preview.selection).toEqual({ engine: { ok: false, reason } });
    expect(preview.providerObjects).toMatchObject({
      status: 'provider-unavailable',
      message: reason,
    });
  });
});

describe('stackObjectsPreview', () => {
  const stack = (spec: object) => ({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name: 'chat', namespace: 'ml', uid: 'dry-run' },
    spec,
  });

  it("shows the config.yaml the stack operator's own code generates, secrets as env references", () => {
    const preview = stackObjectsPreview(
      stack({
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              id: 'llama',
              provider: 'vllm',
              endpoint: 'http://llama.ml.svc:8000/v1',
              apiKey: { secretKeyRef: { name: 'vllm-key', key: 'token' } },
            },
          ],
        },
        resources: { models: [{ name: 'llama-3', provider: 'llama' }] },
      }) as any,
      '2026-01-01T00:00:00Z',
    );
    expect(preview.status).toBe('available');
    expect(preview.provider).toBe(STACK_OPERATOR);
    expect(preview.objects.map(o => o.kind)).toEqual([
      'ConfigMap',
      'Deployment',
      'Service',
    ]);
    const config = (preview.objects[0] as any).data['config.yaml'] as string;
    expect(config).toContain('provider_type: remote::vllm');
    expect(config).toContain('base_url: http://llama.ml.svc:8000/v1');
    expect(config).toContain('${env.LLSD_LLAMA_API_KEY}');
    expect(config).not.toContain('vllm-key');
    expect(preview.message).toMatch(
      /^The stack operator would generate config.yaml \(1 provider, 1 resource\) into ConfigMap chat-config-[0-9a-f]{8} and run image docker.io\/llamastack\/distribution-starter:latest/,
    );
  });

  it("says why the operator would not write it (an image without base config), and what a stack's own config means", () => {
    const refused = stackObjectsPreview(
      stack({ distribution: { image: 'example.com/llama:1' } }) as any,
      '2026-01-01T00:00:00Z',
    );
    expect(refused).toMatchObject({ status: 'invalid', objects: [] });
    expect(refused.message).toMatch(/base config|overrideConfig/);
    const own = stackObjectsPreview(
      stack({
        distribution: { image: 'example.com/llama:1' },
        overrideConfig: { configMapName: 'my-config' },
      }) as any,
      '2026-01-01T00:00:00Z',
    );
    expect(own.status).toBe('not-applicable');
    expect(own.message).toMatch(/my-config/);
  });

  it("lists the operator's embedded distributions by name", () => {
    expect(stackDistributions().map(d => d.name)).toEqual([
      'postgres-demo',
      'starter',
      'starter-gpu',
    ]);
  });
});

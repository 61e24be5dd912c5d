import {
  BUILT_IN_PROVIDERS,
  DYNAMO_PROVIDER,
  KAITO_PROVIDER,
  KUBERAY_PROVIDER,
  LLMD_PROVIDER,
} from './providers';
import {
  chooseProvider,
  EXPLICIT_PROVIDER_REASON,
  NO_HEALTHY_PROVIDERS,
  resolveDeployment,
  selectEngine,
  selectProvider,
} from './selection';
import { deployment, provider, READY_BUILT_INS, ready } from './testing';
import type { ModelDeploymentSpec } from './types';

const gpu = (count: number) => ({
  resources: { gpu: { count }, memory: '32Gi' },
});
const disaggregated = {
  serving: { mode: 'disaggregated' as const },
  resources: undefined,
  scaling: {
    prefill: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
    decode: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
  },
};

function spec(patch: Partial<ModelDeploymentSpec>): ModelDeploymentSpec {
  return deployment(patch).spec;
}

describe('selectProvider with the built-in providers reproduces seed 000 section 4.4', () => {
  it.each([
    [
      'gpu.count == 0',
      'kaito',
      spec({ engine: { type: 'llamacpp' }, ...gpu(0) }),
      'no GPU requested → kaito (only CPU provider)',
    ],
    [
      'resources.gpu omitted',
      'kaito',
      spec({
        engine: { type: 'llamacpp' },
        resources: { memory: '16Gi', cpu: '8' },
      }),
      'no GPU requested → kaito (only CPU provider)',
    ],
    [
      'resources omitted, no engine GPU need',
      'kaito',
      spec({ engine: { type: 'llamacpp' }, resources: undefined }),
      'no GPU requested → kaito (only CPU provider)',
    ],
    [
      'no GPU wins over engine=sglang (first branch first)',
      'kaito',
      spec({ engine: { type: 'sglang' }, ...gpu(0) }),
      'no GPU requested → kaito (only CPU provider)',
    ],
    [
      'engine=trtllm',
      'dynamo',
      spec({ engine: { type: 'trtllm' }, ...gpu(1) }),
      'engine=trtllm → dynamo (only trtllm provider)',
    ],
    [
      'engine=sglang',
      'dynamo',
      spec({ engine: { type: 'sglang' }, ...gpu(2) }),
      'engine=sglang → dynamo (only sglang provider)',
    ],
    [
      'engine=sglang, disaggregated (engine branch first)',
      'dynamo',
      spec({ engine: { type: 'sglang' }, ...disaggregated }),
      'engine=sglang → dynamo (only sglang provider)',
    ],
    [
      'engine=llamacpp with GPU',
      'kaito',
      spec({ engine: { type: 'llamacpp' }, ...gpu(1) }),
      'engine=llamacpp → kaito (only llamacpp provider)',
    ],
    [
      'engine=llamacpp, disaggregated (llamacpp branch before mode)',
      'kaito',
      spec({ engine: { type: 'llamacpp' }, ...disaggregated }),
      'engine=llamacpp → kaito (only llamacpp provider)',
    ],
    [
      'mode=disaggregated',
      'dynamo',
      spec({ engine: { type: 'vllm' }, ...disaggregated }),
      'mode=disaggregated → dynamo (best disaggregated support)',
    ],
    [
      'default: GPU + vllm',
      'dynamo',
      spec({ engine: { type: 'vllm' }, ...gpu(1) }),
      'default → dynamo (GPU inference default)',
    ],
    [
      'default: 8 GPUs + vllm (KubeRay never auto-selected)',
      'dynamo',
      spec({ engine: { type: 'vllm' }, ...gpu(8) }),
      'default → dynamo (GPU inference default)',
    ],
  ])('%s → %s', (_name, expected, s, reason) => {
    const result = selectProvider(
      resolveDeployment(s, READY_BUILT_INS).spec,
      READY_BUILT_INS,
    );
    expect(result).toMatchObject({
      ok: true,
      provider: expected,
      reason,
      auto: true,
    });
  });

  it('never auto-selects KubeRay or llm-d, even when they are the only ready providers', () => {
    const only = [ready(KUBERAY_PROVIDER), ready(LLMD_PROVIDER)];
    const result = selectProvider(spec(gpu(4)), only);
    expect(result.ok).toBe(false);
    expect(result.reason).toBe(
      "No provider's selection rules match this deployment (ready providers: kuberay, llmd); set spec.provider.name",
    );
  });

  it('uses an explicit provider as is, KubeRay included', () => {
    expect(
      selectProvider(spec({ provider: { name: 'kuberay' } }), READY_BUILT_INS),
    ).toMatchObject({
      ok: true,
      provider: 'kuberay',
      reason: EXPLICIT_PROVIDER_REASON,
      auto: false,
    });
  });

  it('says "No healthy providers available" when none is ready', () => {
    const none = BUILT_IN_PROVIDERS.map(p => ready(p, false));
    expect(selectProvider(spec(gpu(1)), none)).toMatchObject({
      ok: false,
      reason: NO_HEALTHY_PROVIDERS,
    });
    expect(selectProvider(spec(gpu(1)), BUILT_IN_PROVIDERS)).toMatchObject({
      ok: false,
      reason: NO_HEALTHY_PROVIDERS,
    });
    expect(selectProvider(spec(gpu(1)), [])).toMatchObject({
      ok: false,
      reason: NO_HEALTHY_PROVIDERS,
    });
  });

  it('skips a provider that is not ready and falls back to the next match', () => {
    const providers = [ready(KAITO_PROVIDER), ready(DYNAMO_PROVIDER, false)];
    const result = selectProvider(
      spec({ engine: { type: 'llamacpp' }, ...gpu(1) }),
      providers,
    );
    expect(result).toMatchObject({ ok: true, provider: 'kaito' });
    expect(result.considered.find(p => p.name === 'dynamo')).toEqual({
      name: 'dynamo',
      ready: false,
      rules: [],
    });
  });
});

describe('selectProvider with custom registrations', () => {
  const s = spec(gpu(2));

  it('picks the highest priority', () => {
    const result = selectProvider(s, [
      provider('a', [{ condition: 'true', priority: 5 }]),
      provider('b', [{ condition: 'true', priority: 7 }]),
    ]);
    expect(result).toMatchObject({
      ok: true,
      provider: 'b',
      priority: 7,
      reason: 'rule "true" (priority 7) → b',
    });
  });

  it('breaks a tie by provider name, whatever the input order, and says so', () => {
    const a = provider('alpha', [
      { condition: 'true', priority: 5, reason: 'alpha wins' },
    ]);
    const z = provider('zulu', [{ condition: 'true', priority: 5 }]);
    for (const order of [
      [a, z],
      [z, a],
    ]) {
      expect(selectProvider(s, order)).toMatchObject({
        ok: true,
        provider: 'alpha',
        reason: 'alpha wins (tied at priority 5 with zulu; chosen by name)',
      });
    }
  });

  it('uses the first of several equal rules of one provider', () => {
    const p = provider('p', [
      { condition: 'true', priority: 3, reason: 'first' },
      { condition: 'true', priority: 3, reason: 'second' },
    ]);
    expect(selectProvider(s, [p])).toMatchObject({
      provider: 'p',
      reason: 'first',
    });
  });

  it('treats a missing priority as 0', () => {
    const result = selectProvider(s, [
      provider('a', [{ condition: 'true' }]),
      provider('b', [{ condition: 'false', priority: 9 }]),
    ]);
    expect(result).toMatchObject({ ok: true, provider: 'a', priority: 0 });
  });

  it('skips a broken rule with its error and still selects', () => {
    const broken = provider('broken', [
      { condition: 'spec.resources.gpu.count +', priority: 100 },
      { condition: 'spec.nothing.here == 1', priority: 100 },
      { condition: 'spec.engine.type', priority: 100 },
    ]);
    const fine = provider('fine', [
      { condition: 'spec.resources.gpu.count >= 2', priority: 1 },
    ]);
    const result = selectProvider(s, [broken, fine]);
    expect(result).toMatchObject({ ok: true, provider: 'fine' });
    const rules = result.considered.find(p => p.name === 'broken')!.rules;
    expect(rules.map(r => r.matched)).toEqual([false, false, false]);
    expect(rules[0].error).toMatch(/^invalid CEL expression/);
    expect(rules[1].error).toContain('nothing');
    expect(rules[2].error).toBe(
      'condition must evaluate to a bool, got string',
    );
  });

  it('reports every rule it evaluated', () => {
    const result = selectProvider(s, [
      provider('a', [
        { condition: 'spec.resources.gpu.count > 4', priority: 1 },
      ]),
    ]);
    expect(result.ok).toBe(false);
    expect(result.considered).toEqual([
      {
        name: 'a',
        ready: true,
        rules: [
          {
            condition: 'spec.resources.gpu.count > 4',
            priority: 1,
            matched: false,
          },
        ],
      },
    ]);
  });
});

describe('selectEngine (seed 002)', () => {
  it('keeps an explicit engine', () => {
    expect(
      selectEngine(spec({ engine: { type: 'sglang' } }), []),
    ).toMatchObject({ ok: true, engine: 'sglang', auto: false });
  });

  it('prefers vllm > sglang > trtllm > llamacpp among ready providers', () => {
    const result = selectEngine(
      spec({ engine: {}, ...gpu(1) }),
      READY_BUILT_INS,
    );
    expect(result).toEqual({
      ok: true,
      engine: 'vllm',
      auto: true,
      reason:
        'vllm for GPU, aggregated serving (preferred over sglang, trtllm, llamacpp; offered by dynamo, kaito, kuberay, llmd)',
    });
  });

  it.each([
    [
      'sglang when no ready provider offers vllm',
      [
        provider(
          'p',
          [],
          [
            { name: 'trtllm', gpuSupport: true },
            { name: 'sglang', gpuSupport: true },
          ],
        ),
      ],
      gpu(1),
      'sglang',
    ],
    [
      'trtllm over llamacpp',
      [
        provider(
          'p',
          [],
          [
            { name: 'llamacpp', gpuSupport: true },
            { name: 'trtllm', gpuSupport: true },
          ],
        ),
      ],
      gpu(1),
      'trtllm',
    ],
    ['llamacpp for a CPU-only deployment', READY_BUILT_INS, gpu(0), 'llamacpp'],
    [
      'vllm for disaggregated (trtllm lacks the mode)',
      READY_BUILT_INS,
      disaggregated,
      'vllm',
    ],
    [
      'only engines that support the mode',
      [
        provider(
          'p',
          [],
          [
            { name: 'vllm', gpuSupport: true, servingModes: ['aggregated'] },
            {
              name: 'sglang',
              gpuSupport: true,
              servingModes: ['disaggregated'],
            },
          ],
        ),
      ],
      disaggregated,
      'sglang',
    ],
    [
      'engines of the named provider only',
      READY_BUILT_INS,
      { provider: { name: 'kaito' }, ...gpu(0) },
      'llamacpp',
    ],
  ])('%s', (_name, providers, patch, engine) => {
    expect(
      selectEngine(spec({ engine: {}, ...patch }), providers),
    ).toMatchObject({ ok: true, engine, auto: true });
  });

  it('ignores providers that are not ready', () => {
    const providers = [ready(DYNAMO_PROVIDER, false), ready(KAITO_PROVIDER)];
    expect(
      selectEngine(spec({ engine: {}, ...gpu(1) }), providers),
    ).toMatchObject({
      engine: 'vllm',
      reason: expect.stringContaining('offered by kaito'),
    });
    expect(
      selectEngine(spec({ engine: {}, ...disaggregated }), providers),
    ).toEqual({
      ok: false,
      reason:
        'engine.type is required: no ready provider (kaito) offers an engine for GPU, disaggregated serving',
    });
  });

  it.each([
    [
      'no provider is ready',
      BUILT_IN_PROVIDERS,
      {},
      'engine.type is required: No healthy providers available',
    ],
    [
      'the named provider is missing',
      READY_BUILT_INS,
      { provider: { name: 'nope' } },
      'engine.type is required: provider nope is not registered or not ready',
    ],
    [
      'no CPU engine',
      [ready(DYNAMO_PROVIDER)],
      gpu(0),
      'engine.type is required: no ready provider (dynamo) offers an engine for CPU-only, aggregated serving',
    ],
  ])('fails when %s', (_name, providers, patch, reason) => {
    expect(selectEngine(spec({ engine: {}, ...patch }), providers)).toEqual({
      ok: false,
      reason,
    });
  });

  it('accepts the flat capability form of the seeds', () => {
    const flat = {
      metadata: { name: 'kaito' },
      spec: {
        capabilities: {
          engines: ['vllm', 'llamacpp'],
          servingModes: ['aggregated'],
          cpuSupport: true,
          gpuSupport: true,
        },
      },
      status: { ready: true },
    } as any;
    expect(selectEngine(spec({ engine: {}, ...gpu(0) }), [flat])).toMatchObject(
      { ok: true, engine: 'vllm' },
    );
  });
});

describe("chooseProvider (the core's choice)", () => {
  const explicit = (name: string) =>
    spec({ engine: { type: 'vllm' }, ...gpu(1), provider: { name } });

  it('hands the deployment to a named provider that is registered and ready', () => {
    expect(chooseProvider(explicit('kuberay'), READY_BUILT_INS)).toMatchObject({
      ok: true,
      provider: 'kuberay',
      reason: EXPLICIT_PROVIDER_REASON,
      auto: false,
    });
  });

  it('refuses a named provider that is not registered, listing those that are', () => {
    expect(
      chooseProvider(explicit('kuberay'), [
        ready(KAITO_PROVIDER),
        ready(DYNAMO_PROVIDER),
      ]),
    ).toEqual({
      ok: false,
      reason:
        "Provider 'kuberay' is not registered (no InferenceProviderConfig named kuberay; registered: kaito, dynamo); install its provider controller or change spec.provider.name",
      considered: [],
    });
    expect(chooseProvider(explicit('kuberay'), [])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('registered: none)'),
    });
  });

  it('refuses a named provider that is not ready', () => {
    expect(
      chooseProvider(explicit('dynamo'), [ready(DYNAMO_PROVIDER, false)]),
    ).toEqual({
      ok: false,
      reason:
        "Provider 'dynamo' is not ready (its InferenceProviderConfig reports status.ready=false); waiting for its controller",
      considered: [],
    });
  });

  it('says why a named provider is not ready from its Ready condition', () => {
    const notReady = ready(DYNAMO_PROVIDER, false);
    const withReason = {
      ...notReady,
      status: {
        ...notReady.status,
        conditions: [
          {
            type: 'Ready',
            status: 'False' as const,
            reason: 'CRDNotInstalled',
            message:
              'Upstream CRD dynamographdeployments.nvidia.com is not installed',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    };
    expect(chooseProvider(explicit('dynamo'), [withReason])).toMatchObject({
      ok: false,
      reason:
        "Provider 'dynamo' is not ready: Upstream CRD dynamographdeployments.nvidia.com is not installed",
    });
  });

  it('runs the selection rules when no provider is named', () => {
    const s = spec({ engine: { type: 'vllm' }, ...gpu(1) });
    expect(chooseProvider(s, READY_BUILT_INS)).toEqual(
      selectProvider(s, READY_BUILT_INS),
    );
  });
});

describe('resolveDeployment', () => {
  it('auto-selects the engine, then the provider with the resolved engine', () => {
    const result = resolveDeployment(
      spec({ engine: undefined, resources: { cpu: '8', memory: '16Gi' } }),
      READY_BUILT_INS,
      'cpu',
    );
    expect(result.engine).toMatchObject({ ok: true, engine: 'llamacpp' });
    expect(result.spec.engine?.type).toBe('llamacpp');
    expect(result.spec.serving?.mode).toBe('aggregated');
    expect(result.provider).toMatchObject({
      ok: true,
      provider: 'kaito',
      reason: 'no GPU requested → kaito (only CPU provider)',
    });
  });

  it("makes the core's provider choice: a named provider must be registered", () => {
    const result = resolveDeployment(
      spec({ engine: { type: 'vllm' }, provider: { name: 'kuberay' } }),
      [ready(DYNAMO_PROVIDER)],
    );
    expect(result.provider).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Provider 'kuberay' is not registered/),
    });
  });

  it('stops after a failed engine selection', () => {
    const result = resolveDeployment(spec({ engine: undefined }), []);
    expect(result.engine.ok).toBe(false);
    expect(result.provider).toBeUndefined();
  });

  it('does not modify its input', () => {
    const input = spec({ engine: undefined });
    const copy = structuredClone(input);
    resolveDeployment(input, READY_BUILT_INS);
    expect(input).toEqual(copy);
  });
});

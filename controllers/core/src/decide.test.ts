import {
  BUILT_IN_PROVIDERS,
  type InferenceProviderConfig,
  type ModelDeployment,
  type ModelDeploymentSpec,
} from '@runway-portal/plugin-runway-common';
import {
  type CoreInput,
  decide,
  OBSERVED_IDENTITY_ANNOTATION,
  parseIdentity,
  PROVIDER_LABEL,
  SECRET_RECHECK_MS,
} from './decide';

const NOW = '2026-11-21T06:00:00.000Z';
const LATER = '2026-11-21T07:00:00.000Z';
const ready = (
  p: InferenceProviderConfig,
  isReady = true,
): InferenceProviderConfig => ({ ...p, status: { ready: isReady } });
const READY = BUILT_IN_PROVIDERS.map(p => ready(p));

function md(
  spec: Partial<ModelDeploymentSpec> = {},
  extra: Partial<ModelDeployment> = {},
): ModelDeployment {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'llama', namespace: 'team-a', generation: 3 },
    spec: {
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      ...spec,
    },
    ...extra,
  };
}

function run(input: Partial<CoreInput> & { md: ModelDeployment }) {
  const decision = decide({
    providers: READY,
    gateway: {},
    now: NOW,
    ...input,
  });
  if (decision.action !== 'write')
    throw new Error(
      `expected a write, got ${decision.action} (${decision.why})`,
    );
  return decision;
}

const condition = (d: ReturnType<typeof run>, type: string) =>
  d.status.conditions.find(c => c.type === type);

describe('decide', () => {
  it('auto-selects Dynamo for a GPU vLLM deployment, with the seed reason, event and observedGeneration', () => {
    const d = run({ md: md() });
    expect(d.status.provider).toEqual({
      name: 'dynamo',
      selectedReason: 'default → dynamo (GPU inference default)',
    });
    expect(d.status.engine).toEqual({
      type: 'vllm',
      selectedReason: expect.stringContaining('explicit'),
    });
    expect(d.status.phase).toBeUndefined();
    expect(d.status.observedGeneration).toBe(3);
    expect(condition(d, 'Validated')).toMatchObject({
      status: 'True',
      observedGeneration: 3,
    });
    expect(condition(d, 'ProviderSelected')).toMatchObject({
      status: 'True',
      reason: 'AutoSelected',
    });
    expect(d.events).toContainEqual({
      type: 'Normal',
      reason: 'ProviderSelected',
      message:
        "Selected provider 'dynamo': default → dynamo (GPU inference default)",
    });
    expect(d.labels).toEqual({ [PROVIDER_LABEL]: 'dynamo' });
    expect(parseIdentity(d.annotations[OBSERVED_IDENTITY_ANNOTATION])).toEqual({
      'model.id': 'meta-llama/Llama-3.1-8B-Instruct',
      'model.source': 'huggingface',
      'engine.type': 'vllm',
      'serving.mode': 'aggregated',
    });
  });

  it('auto-selects the engine when spec.engine.type is empty', () => {
    const d = run({ md: md({ engine: undefined, resources: undefined }) });
    expect(d.status.engine?.type).toBe('llamacpp');
    expect(condition(d, 'EngineSelected')).toMatchObject({
      status: 'True',
      reason: 'AutoSelected',
    });
    expect(d.status.provider?.name).toBe('kaito');
    expect(run({ md: md({ engine: undefined }) }).status.engine?.type).toBe(
      'vllm',
    );
  });

  it('holds the deployment Pending when no provider is installed', () => {
    const d = run({ md: md(), providers: [] });
    expect(d.status.provider).toBeUndefined();
    expect(d.status.phase).toBe('Pending');
    expect(d.status.message).toBe('No healthy providers available');
    expect(condition(d, 'ProviderSelected')).toMatchObject({
      status: 'False',
      reason: 'NoHealthyProviders',
      message: 'No healthy providers available',
    });
    expect(d.labels).toEqual({});
    expect(d.annotations).toEqual({});
  });

  it('skips unready providers', () => {
    const d = run({
      md: md(),
      providers: BUILT_IN_PROVIDERS.map(p => ready(p, false)),
    });
    expect(d.status.message).toBe('No healthy providers available');
  });

  it('waits for an explicitly named provider that is not ready or not registered', () => {
    const unready = run({
      md: md({ provider: { name: 'kuberay' } }),
      providers: [ready(BUILT_IN_PROVIDERS[2], false)],
    });
    expect(unready.status.provider).toBeUndefined();
    expect(unready.status.phase).toBe('Pending');
    expect(condition(unready, 'ProviderSelected')?.status).toBe('False');
    const missing = run({
      md: md({ provider: { name: 'kuberay' } }),
      providers: [READY[0]],
    });
    expect(missing.status.message).toContain(
      "Provider 'kuberay' is not registered",
    );
    expect(missing.status.message).toContain('change spec.provider.name');
  });

  it('hands an explicit incompatible provider its deployment: the provider reports ProviderCompatible', () => {
    const d = run({
      md: md({ engine: { type: 'sglang' }, provider: { name: 'kaito' } }),
    });
    expect(d.status.provider).toEqual({
      name: 'kaito',
      selectedReason: 'explicit provider selection',
    });
    expect(condition(d, 'ProviderSelected')).toMatchObject({
      status: 'True',
      reason: 'Specified',
    });
    expect(d.status.conditions.map(c => c.type)).not.toContain(
      'ProviderCompatible',
    );
  });

  it('validates at reconcile time and holds an invalid deployment Pending with the message', () => {
    const d = run({
      md: md({
        provider: {
          name: 'dynamo',
          overrides: { securityContext: { privileged: true } },
        },
      }),
    });
    expect(condition(d, 'Validated')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
    });
    expect(d.status.phase).toBe('Pending');
    expect(d.status.message).toMatch(
      /^Validation failed: spec\.provider\.overrides/,
    );
    expect(d.status.provider).toBeUndefined();
    expect(condition(d, 'ProviderSelected')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
    });
  });

  it("holds an explicit provider without its CRD Pending with the seed's message (no webhook)", () => {
    const reported = READY.map(p => ({
      ...p,
      status: { ...p.status, lastHeartbeat: NOW },
    }));
    const d = run({
      md: md({ provider: { name: 'dynamo' } }),
      providers: reported,
    });
    expect(condition(d, 'Validated')).toMatchObject({
      status: 'False',
      message:
        "spec.provider.name: Provider 'dynamo' CRD not installed in cluster",
    });
    expect(d.status.phase).toBe('Pending');
    expect(d.status.message).toContain(
      "Provider 'dynamo' CRD not installed in cluster",
    );
    expect(d.status.provider).toBeUndefined();
    const installed = reported.map(p =>
      p.metadata?.name === 'dynamo'
        ? {
            ...p,
            status: { ...p.status, upstreamCRDVersion: 'nvidia.com/v1beta1' },
          }
        : p,
    );
    expect(
      run({ md: md({ provider: { name: 'dynamo' } }), providers: installed })
        .status.provider?.name,
    ).toBe('dynamo');
  });

  it('keeps a provider selected before when the spec turns invalid (it holds the finalizer)', () => {
    const before = md(
      { image: 'a:1', engine: { type: 'vllm', image: 'b:1' } },
      {
        status: {
          provider: { name: 'dynamo', selectedReason: 'r' },
          engine: { type: 'vllm', selectedReason: 'e' },
        },
      },
    );
    before.metadata!.annotations = {
      [OBSERVED_IDENTITY_ANNOTATION]: JSON.stringify({
        'model.id': 'meta-llama/Llama-3.1-8B-Instruct',
        'model.source': 'huggingface',
        'engine.type': 'vllm',
        'serving.mode': 'aggregated',
      }),
    };
    const d = run({ md: before });
    expect(d.status.provider).toEqual({ name: 'dynamo', selectedReason: 'r' });
    // The provider owns phase/message now: the core reports through Validated only.
    expect(d.status.phase).toBeUndefined();
    expect(condition(d, 'Validated')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
    });
  });

  it('emits SecretNotFound for a missing token Secret and checks again later, without blocking', () => {
    const d = run({
      md: md({ secrets: { huggingFaceToken: 'hf-token-secret' } }),
      secretExists: false,
    });
    expect(d.events).toContainEqual({
      type: 'Warning',
      reason: 'SecretNotFound',
      message: "Secret 'hf-token-secret' not found in namespace 'team-a'",
    });
    expect(d.requeueAfterMs).toBe(SECRET_RECHECK_MS);
    expect(d.status.provider?.name).toBe('dynamo');
    const found = run({
      md: md({ secrets: { huggingFaceToken: 'hf-token-secret' } }),
      secretExists: true,
    });
    expect(found.events.map(e => e.reason)).not.toContain('SecretNotFound');
  });

  it('writes the gateway outcome as GatewayReady (keeping its transition time) and status.gateway, and nothing without one', () => {
    const outcome = {
      status: 'True' as const,
      reason: 'GatewayConfigured' as const,
      message: "Model 'm' is routed",
    };
    const status = {
      endpoint: 'http://10.0.0.7',
      modelName: 'm',
      gatewayNamespace: 'gw',
      apiFormats: ['openai-chat' as const],
    };
    const d = run({ md: md(), gateway: { outcome, status } });
    expect(condition(d, 'GatewayReady')).toEqual({
      type: 'GatewayReady',
      ...outcome,
      observedGeneration: 3,
      lastTransitionTime: NOW,
    });
    expect(d.status.gateway).toEqual(status);
    const before = md(
      {},
      {
        status: {
          conditions: [
            {
              type: 'GatewayReady',
              status: 'True',
              reason: 'GatewayConfigured',
              message: 'old',
              lastTransitionTime: NOW,
            },
          ],
        },
      },
    );
    expect(
      condition(
        run({ md: before, gateway: { outcome, status }, now: LATER }),
        'GatewayReady',
      )?.lastTransitionTime,
    ).toBe(NOW);
    const none = run({ md: md() });
    expect(none.events.map(e => e.reason)).not.toContain('GatewayConfigured');
    expect(condition(none, 'GatewayReady')).toBeUndefined();
    expect(none.status.gateway).toBeUndefined();
  });

  it('emits a gateway event when routing starts or breaks, once per change', () => {
    const configured = {
      status: 'True' as const,
      reason: 'GatewayConfigured' as const,
      message: "Model 'm' is routed",
    };
    expect(
      run({ md: md(), gateway: { outcome: configured } }).events,
    ).toContainEqual({
      type: 'Normal',
      reason: 'GatewayConfigured',
      message: "Model 'm' is routed",
    });
    const already = md(
      {},
      {
        status: {
          conditions: [
            {
              type: 'GatewayReady',
              status: 'True',
              reason: 'GatewayConfigured',
              message: 'x',
              lastTransitionTime: NOW,
            },
          ],
        },
      },
    );
    expect(
      run({ md: already, gateway: { outcome: configured } }).events.map(
        e => e.reason,
      ),
    ).not.toContain('GatewayConfigured');
    const failed = {
      status: 'False' as const,
      reason: 'EPPFailed' as const,
      message: "Could not apply the endpoint picker 'llama-epp': forbidden",
    };
    expect(
      run({ md: already, gateway: { outcome: failed } }).events,
    ).toContainEqual({
      type: 'Warning',
      reason: 'EPPFailed',
      message: failed.message,
    });
    const waiting = {
      status: 'False' as const,
      reason: 'WaitingForProvider' as const,
      message: 'Waiting',
    };
    expect(
      run({ md: md(), gateway: { outcome: waiting } }).events.map(e => e.type),
    ).not.toContain('Warning');
  });

  it('skips paused and deleting deployments', () => {
    const paused = md();
    paused.metadata!.annotations = { 'airunway.ai/reconcile-paused': 'true' };
    expect(
      decide({ md: paused, providers: READY, gateway: {}, now: NOW }),
    ).toEqual({ action: 'skip', why: 'paused' });
    const deleting = md();
    deleting.metadata!.deletionTimestamp = NOW;
    expect(
      decide({ md: deleting, providers: READY, gateway: {}, now: NOW }),
    ).toEqual({ action: 'skip', why: 'deleting' });
  });

  describe('pinning and identity changes', () => {
    function selected(
      spec: Partial<ModelDeploymentSpec> = {},
    ): ModelDeployment {
      const first = md(spec);
      const d = run({ md: first });
      return {
        ...first,
        metadata: {
          ...first.metadata,
          labels: d.labels,
          annotations: d.annotations,
        },
        status: {
          provider: d.status.provider,
          engine: d.status.engine,
          conditions: d.status.conditions,
        },
      };
    }

    it('keeps an auto-selected provider when providers change, and is idempotent', () => {
      const live = selected();
      const d = run({
        md: live,
        providers: [ready(BUILT_IN_PROVIDERS[0])],
        now: LATER,
      });
      expect(d.status.provider?.name).toBe('dynamo');
      expect(d.events).toEqual([]);
      expect(d.identityChanges).toEqual([]);
      // Conditions that did not change keep their transition time.
      expect(condition(d, 'ProviderSelected')?.lastTransitionTime).toBe(NOW);
    });

    it('re-selects and warns when an identity field changes', () => {
      const live = selected();
      live.spec = {
        ...live.spec,
        resources: undefined,
        engine: { type: 'llamacpp' },
      };
      const d = run({ md: live, now: LATER });
      expect(d.identityChanges).toEqual([
        { field: 'engine.type', from: 'vllm', to: 'llamacpp' },
        { field: 'provider.name', from: 'dynamo', to: 'kaito' },
      ]);
      expect(d.events).toContainEqual({
        type: 'Warning',
        reason: 'IdentityFieldChanged',
        message:
          'spec.engine.type changed from vllm to llamacpp; spec.provider.name changed from dynamo to kaito: the provider resource is deleted and recreated (brief downtime)',
      });
      expect(d.status.provider?.name).toBe('kaito');
      expect(d.events.map(e => e.reason)).toContain('ProviderSelected');
      expect(
        parseIdentity(d.annotations[OBSERVED_IDENTITY_ANNOTATION])?.[
          'engine.type'
        ],
      ).toBe('llamacpp');
    });

    it('keeps an explicitly named provider that becomes unready or unregistered after the handover', () => {
      const live = selected({
        provider: { name: 'kaito' },
        engine: { type: 'llamacpp' },
        resources: undefined,
      });
      expect(live.status?.provider?.name).toBe('kaito');
      for (const providers of [[ready(BUILT_IN_PROVIDERS[0], false)], []]) {
        const d = run({ md: live, providers, now: LATER });
        expect(d.status.provider).toEqual({
          name: 'kaito',
          selectedReason: 'explicit provider selection',
        });
        expect(d.status.phase).toBeUndefined();
        expect(condition(d, 'ProviderSelected')).toMatchObject({
          status: 'True',
          reason: 'Specified',
        });
      }
    });

    it('does not treat config fields as identity changes', () => {
      const live = selected();
      live.spec = {
        ...live.spec,
        scaling: { replicas: 3 },
        env: [{ name: 'A', value: 'b' }],
      };
      const d = run({ md: live, now: LATER });
      expect(d.identityChanges).toEqual([]);
      expect(d.events).toEqual([]);
    });
  });

  it('reads only well-formed identity annotations', () => {
    expect(parseIdentity('not json')).toBeUndefined();
    expect(parseIdentity('[1]')).toBeUndefined();
    expect(
      parseIdentity('{"model.id":"a","bogus":"b","serving.mode":3}'),
    ).toEqual({ 'model.id': 'a' });
  });

  it('never throws on a malformed object', () => {
    const broken = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'x', namespace: 'n' },
      spec: 'nope',
    } as unknown as ModelDeployment;
    const d = run({ md: broken });
    expect(condition(d, 'Validated')?.status).toBe('False');
    expect(d.status.phase).toBe('Pending');
  });
});

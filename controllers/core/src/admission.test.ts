import type { KubeObject } from '@runway-portal/controller-runtime';
import { BUILT_IN_PROVIDERS } from '@runway-portal/plugin-runway-common';
import {
  admitModelDeployment,
  defaultModelDeployment,
  warmUpAdmission,
} from './admission';

function md(spec: Record<string, unknown>, name = 'llama'): KubeObject {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace: 'default' },
    spec,
  };
}
const VALID = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};

describe('admitModelDeployment', () => {
  it('allows a valid deployment', () => {
    expect(
      admitModelDeployment({ operation: 'CREATE', object: md(VALID) }),
    ).toEqual({ allowed: true });
  });

  it('denies with the seed message naming the field', () => {
    const result = admitModelDeployment({
      operation: 'CREATE',
      object: md({ ...VALID, resources: { gpu: { count: 0 } } }),
    });
    expect(result.allowed).toBe(false);
    expect(result).toMatchObject({ code: 422 });
    expect((result as { message: string }).message).toContain(
      'vLLM engine requires GPU (set resources.gpu.count > 0)',
    );
  });

  it('denies an httpRouteRef that is not a valid name, naming the field', () => {
    const result = admitModelDeployment({
      operation: 'CREATE',
      object: md({ ...VALID, gateway: { httpRouteRef: 'Not A Valid Name!' } }),
    });
    expect(result.allowed).toBe(false);
    expect((result as { message: string }).message).toContain(
      `spec.gateway.httpRouteRef "Not A Valid Name!" must be the name of an HTTPRoute in the deployment's namespace`,
    );
  });

  it('denies blocked override keys, which the CRD schema cannot express', () => {
    const result = admitModelDeployment({
      operation: 'CREATE',
      object: md({
        ...VALID,
        provider: { name: 'dynamo', overrides: { securityContext: {} } },
      }),
    });
    expect(result.allowed).toBe(false);
    expect((result as { message: string }).message).toContain(
      'spec.provider.overrides',
    );
  });

  it('denies an explicit provider whose controller reports no upstream CRD (seed 000 §8), and only that', () => {
    const heartbeat = {
      ready: true,
      version: 'v1',
      lastHeartbeat: '2026-11-21T06:00:00Z',
    };
    const [kaito, dynamo] = BUILT_IN_PROVIDERS;
    const providers = [
      { ...dynamo, status: heartbeat },
      {
        ...kaito,
        status: { ...heartbeat, upstreamCRDVersion: 'kaito.sh/v1beta1' },
      },
    ];
    const denied = admitModelDeployment(
      {
        operation: 'CREATE',
        object: md({ ...VALID, provider: { name: 'dynamo' } }),
      },
      providers,
    );
    expect(denied).toMatchObject({ allowed: false, code: 422 });
    expect((denied as { message: string }).message).toBe(
      "ModelDeployment llama is not valid: spec.provider.name: Provider 'dynamo' CRD not installed in cluster",
    );
    // Auto-selection and a provider with its CRD are not affected; without the registrations nothing is judged.
    expect(
      admitModelDeployment(
        { operation: 'CREATE', object: md(VALID) },
        providers,
      ),
    ).toEqual({ allowed: true });
    const onKaito = {
      ...VALID,
      engine: { type: 'llamacpp' },
      resources: undefined,
      provider: { name: 'kaito' },
    };
    expect(
      admitModelDeployment(
        { operation: 'CREATE', object: md(onKaito) },
        providers,
      ),
    ).toEqual({ allowed: true });
    expect(
      admitModelDeployment({
        operation: 'CREATE',
        object: md({ ...VALID, provider: { name: 'dynamo' } }),
      }),
    ).toEqual({ allowed: true });
  });

  it('warns about identity changes on update', () => {
    const result = admitModelDeployment({
      operation: 'UPDATE',
      oldObject: md(VALID),
      object: md({ ...VALID, model: { id: 'Qwen/Qwen3-0.6B' } }),
    });
    expect(result.allowed).toBe(true);
    expect(result.warnings?.join(' ')).toContain(
      'deletes and recreates the provider resource',
    );
  });

  it('allows an update that leaves an invalid stored spec as it is (labels, finalizers)', () => {
    const invalid = md({
      ...VALID,
      provider: { name: 'dynamo', overrides: { securityContext: {} } },
    });
    const relabelled = {
      ...invalid,
      metadata: { ...invalid.metadata, labels: { a: 'b' } },
    };
    expect(
      admitModelDeployment({
        operation: 'UPDATE',
        oldObject: invalid,
        object: relabelled,
      }),
    ).toEqual({ allowed: true });
  });

  it('allows deletes and never throws on a malformed object', () => {
    expect(admitModelDeployment({ operation: 'DELETE', object: null })).toEqual(
      { allowed: true },
    );
    const result = admitModelDeployment({
      operation: 'CREATE',
      object: { metadata: { name: 'x' }, spec: 7 } as unknown as KubeObject,
    });
    expect(result.allowed).toBe(false);
  });
});

describe('defaultModelDeployment', () => {
  it('applies the schema and seed defaults without touching metadata', () => {
    const out = defaultModelDeployment(
      md({ model: { id: 'a/b' }, engine: { type: 'llamacpp' } }),
    ) as KubeObject & { spec: any };
    expect(out.spec.serving.mode).toBe('aggregated');
    expect(out.spec.model.source).toBe('huggingface');
    expect(out.metadata).toEqual({ name: 'llama', namespace: 'default' });
  });
});

describe('warmUpAdmission', () => {
  it('runs both webhooks on a sample without throwing, so the validators compile at start-up', () => {
    expect(() => warmUpAdmission()).not.toThrow();
  });
});

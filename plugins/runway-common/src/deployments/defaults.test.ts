import {
  applyModelDeploymentDefaults,
  applySpecDefaults,
  DEFAULTS_NEEDED_CONDITION,
  gpuRequested,
  resolveServedName,
} from './defaults';
import { compileCel, toCel } from '../cel/cel';
import { applySchemaDefaults } from '../schema/defaults';
import { ModelDeploymentSpecSchema } from './schema';
import { validateModelDeployment } from './validate';
import { deployment } from './testing';
import type { ModelDeploymentSpec } from './types';

const base = (patch: Record<string, unknown>) =>
  ({ model: { id: 'org/model' }, ...patch } as ModelDeploymentSpec);

describe('applySpecDefaults', () => {
  it.each([
    [
      'model.source → huggingface',
      base({}),
      (s: any) => s.model.source,
      'huggingface',
    ],
    [
      'serving.mode → aggregated (serving created)',
      base({}),
      (s: any) => s.serving,
      { mode: 'aggregated' },
    ],
    [
      'serving.mode → aggregated (serving present)',
      base({ serving: {} }),
      (s: any) => s.serving.mode,
      'aggregated',
    ],
    [
      'scaling.replicas → 1 in aggregated mode',
      base({}),
      (s: any) => s.scaling,
      { replicas: 1 },
    ],
    [
      // As the CRD default does: such a spec is still rejected for lacking scaling.prefill and .decode.
      'scaling → { replicas: 1 } when disaggregated too',
      base({ serving: { mode: 'disaggregated' } }),
      (s: any) => s.scaling,
      { replicas: 1 },
    ],
    [
      'scaling.prefill.replicas → 1',
      base({
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { gpu: { count: 1 } } },
      }),
      (s: any) => s.scaling.prefill.replicas,
      1,
    ],
    [
      'scaling.decode.gpu.type → nvidia.com/gpu',
      base({ scaling: { decode: { gpu: { count: 1 } } } }),
      (s: any) => s.scaling.decode.gpu.type,
      'nvidia.com/gpu',
    ],
    [
      'resources.gpu.count → 0 when gpu is present',
      base({ resources: { gpu: {} } }),
      (s: any) => s.resources.gpu,
      { count: 0, type: 'nvidia.com/gpu' },
    ],
    [
      'no GPU is invented (seed: omitted means CPU only)',
      base({ engine: { type: 'vllm' } }),
      (s: any) => s.resources,
      undefined,
    ],
    [
      'engine defaults when engine is present',
      base({ engine: {} }),
      (s: any) => s.engine,
      {
        trustRemoteCode: false,
        enablePrefixCaching: true,
        enforceEager: false,
      },
    ],
    [
      'engine not created when absent',
      base({}),
      (s: any) => s.engine,
      undefined,
    ],
    [
      'explicit values kept',
      base({
        engine: { enablePrefixCaching: false },
        scaling: { replicas: 0 },
      }),
      (s: any) => [s.engine.enablePrefixCaching, s.scaling.replicas],
      [false, 0],
    ],
    [
      'numeric cpu/memory become strings',
      base({ resources: { cpu: 4, memory: 1073741824 } }),
      (s: any) => s.resources,
      { cpu: '4', memory: '1073741824' },
    ],
    [
      'volume purpose → custom, readOnly → false',
      base({
        model: {
          id: 'x',
          storage: {
            volumes: [{ name: 'v', claimName: 'c', mountPath: '/v' }],
          },
        },
      }),
      (s: any) => s.model.storage.volumes[0],
      {
        name: 'v',
        claimName: 'c',
        mountPath: '/v',
        purpose: 'custom',
        readOnly: false,
      },
    ],
    [
      'modelCache mount path',
      base({
        model: {
          id: 'x',
          storage: {
            volumes: [{ name: 'v', purpose: 'modelCache', claimName: 'c' }],
          },
        },
      }),
      (s: any) => s.model.storage.volumes[0].mountPath,
      '/model-cache',
    ],
    [
      'compilationCache mount path',
      base({
        model: {
          id: 'x',
          storage: {
            volumes: [
              { name: 'v', purpose: 'compilationCache', claimName: 'c' },
            ],
          },
        },
      }),
      (s: any) => s.model.storage.volumes[0].mountPath,
      '/compilation-cache',
    ],
    [
      'managed volume claim name and access mode',
      base({
        model: {
          id: 'x',
          storage: {
            volumes: [{ name: 'cache', purpose: 'modelCache', size: '10Gi' }],
          },
        },
      }),
      (s: any) => [
        s.model.storage.volumes[0].claimName,
        s.model.storage.volumes[0].accessMode,
      ],
      ['llama-cache', 'ReadWriteMany'],
    ],
    [
      'env valueFrom key ref name → ""',
      base({ env: [{ name: 'T', valueFrom: { secretKeyRef: { key: 'k' } } }] }),
      (s: any) => s.env[0].valueFrom.secretKeyRef.name,
      '',
    ],
  ])('%s', (_name, input, pick, expected) => {
    expect(pick(applySpecDefaults(input, 'llama'))).toEqual(expected);
  });

  it('matches the CRD defaults the API server applies (same schema)', () => {
    // Every default in the schema is rendered into the CRD; this is the list the API server applies.
    const defaulted = applySpecDefaults(
      base({
        engine: {},
        resources: { gpu: {} },
        model: { id: 'x', storage: { volumes: [{ name: 'v' }] } },
      }),
    );
    expect(defaulted).toEqual({
      model: {
        id: 'x',
        source: 'huggingface',
        storage: {
          volumes: [{ name: 'v', purpose: 'custom', readOnly: false }],
        },
      },
      engine: {
        trustRemoteCode: false,
        enablePrefixCaching: true,
        enforceEager: false,
      },
      resources: { gpu: { count: 0, type: 'nvidia.com/gpu' } },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
    });
  });

  it('does not modify its input and is idempotent', () => {
    const input = base({ engine: {}, resources: { cpu: 2 } });
    const copy = structuredClone(input);
    const once = applySpecDefaults(input);
    expect(input).toEqual(copy);
    expect(applySpecDefaults(once)).toEqual(once);
  });

  it.each([
    null,
    5,
    'x',
    [],
    { model: 'x', serving: 'y', scaling: [], resources: { gpu: 3 } },
  ])('never throws on %j', garbage => {
    expect(() => applySpecDefaults(garbage as any)).not.toThrow();
  });

  it('defaults a whole object, leaving metadata and status alone', () => {
    const md = { ...deployment(), status: { phase: 'Running' as const } };
    const out = applyModelDeploymentDefaults(md);
    expect(out.metadata).toBe(md.metadata);
    expect(out.status).toBe(md.status);
    expect(out.spec.serving).toEqual({ mode: 'aggregated' });
  });
});

describe('derived values', () => {
  it.each([
    [
      { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' } },
      'Llama-3.1-8B-Instruct',
    ],
    [{ model: { id: 'gpt2' } }, 'gpt2'],
    [{ model: { id: 'a/b', servedName: 'chat' } }, 'chat'],
    [{ model: { source: 'custom', servedName: 'chat' } }, undefined],
    [{ model: {} }, undefined],
  ])('servedName of %j is %p', (spec, name) => {
    expect(resolveServedName(spec as ModelDeploymentSpec)).toBe(name);
  });

  it.each([
    [{ resources: { gpu: { count: 1 } } }, true],
    [{ resources: { gpu: { count: 0 } } }, false],
    [{}, false],
    [
      {
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { gpu: { count: 1 } } },
      },
      true,
    ],
    [
      { serving: { mode: 'disaggregated' }, resources: { gpu: { count: 1 } } },
      false,
    ],
  ])('gpuRequested(%j) is %p', (patch, expected) => {
    expect(gpuRequested(base(patch))).toBe(expected);
  });
});

it('still rejects a disaggregated spec without scaling.prefill and .decode, whose scaling was defaulted', () => {
  const md = deployment({
    ...base({}),
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
  } as ModelDeploymentSpec);
  const messages = validateModelDeployment(
    applyModelDeploymentDefaults(md),
  ).issues.map(i => i.message);
  expect(messages).toContain(
    'Disaggregated mode requires scaling.prefill and scaling.decode',
  );
});

describe('DEFAULTS_NEEDED_CONDITION (the mutating webhook is called only when it is true)', () => {
  const condition = compileCel(DEFAULTS_NEEDED_CONDITION.expression);
  const needsWebhook = (spec: unknown) => {
    const outcome = condition.evaluate({ object: toCel({ spec }) });
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value;
  };
  // Every combination of the fields the seed defaults touch, each present, absent or half-filled.
  const choices: Record<string, unknown[]> = {
    serving: [undefined, {}, { mode: 'aggregated' }, { mode: 'disaggregated' }],
    scaling: [
      undefined,
      {},
      { replicas: 2 },
      { prefill: { cpu: 4, memory: '8Gi' }, decode: { memory: 8 } },
      { prefill: { cpu: '4', memory: '8Gi' }, decode: { memory: '8Gi' } },
    ],
    resources: [
      undefined,
      { cpu: 4 },
      { cpu: '500m', memory: '8Gi' },
      { memory: 8 },
    ],
    volumes: [
      undefined,
      [{ name: 'cache', purpose: 'modelCache' }],
      [{ name: 'cache', purpose: 'compilationCache', mountPath: '/c' }],
      [{ name: 'data', size: '10Gi' }],
      [
        {
          name: 'data',
          size: '10Gi',
          purpose: 'custom',
          mountPath: '/d',
          accessMode: 'ReadWriteOnce',
        },
      ],
      [
        {
          name: 'data',
          size: '10Gi',
          purpose: 'custom',
          mountPath: '/d',
          claimName: 'c',
          accessMode: 'ReadWriteOnce',
        },
      ],
    ],
  };
  const specs: ModelDeploymentSpec[] = [];
  for (const serving of choices.serving)
    for (const scaling of choices.scaling)
      for (const resources of choices.resources)
        for (const volumes of choices.volumes)
          specs.push(
            JSON.parse(
              JSON.stringify({
                model: {
                  id: 'org/model',
                  ...(volumes ? { storage: { volumes } } : {}),
                },
                serving,
                scaling,
                resources,
              }),
            ),
          );

  it('is true for every spec the webhook would change, after the API server applied the CRD defaults', () => {
    let changed = 0;
    for (const spec of specs) {
      const afterCrd = applySchemaDefaults(ModelDeploymentSpecSchema, spec);
      const defaulted = applySpecDefaults(afterCrd, 'name');
      if (JSON.stringify(defaulted) === JSON.stringify(afterCrd)) continue;
      changed++;
      expect({ spec: afterCrd, needsWebhook: needsWebhook(afterCrd) }).toEqual({
        spec: afterCrd,
        needsWebhook: true,
      });
    }
    expect(changed).toBeGreaterThan(specs.length / 2);
  });

  it('is false for every spec the webhook has defaulted (a stored spec sent back skips it)', () => {
    for (const spec of specs) {
      const defaulted = applySpecDefaults(spec, 'name');
      expect({
        spec: defaulted,
        needsWebhook: needsWebhook(defaulted),
      }).toEqual({
        spec: defaulted,
        needsWebhook: false,
      });
    }
  });

  it('is false without a spec (nothing to default)', () => {
    expect(condition.evaluate({ object: toCel({ metadata: {} }) })).toEqual({
      ok: true,
      value: false,
    });
  });
});

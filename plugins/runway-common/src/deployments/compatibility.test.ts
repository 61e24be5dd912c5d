import { checkProviderCompatibility } from './compatibility';
import { applySpecDefaults } from './defaults';
import {
  DYNAMO_PROVIDER,
  KAITO_PROVIDER,
  KUBERAY_PROVIDER,
  LLMD_PROVIDER,
} from './providers';
import { deployment, provider } from './testing';
import type { InferenceProviderConfig, ModelDeploymentSpec } from './types';

const disaggregated = {
  serving: { mode: 'disaggregated' },
  resources: undefined,
  scaling: {
    prefill: { gpu: { count: 1 }, memory: '8Gi' },
    decode: { gpu: { count: 1 }, memory: '8Gi' },
  },
};
const spec = (patch: Record<string, unknown>) =>
  applySpecDefaults({ ...deployment().spec, ...patch } as ModelDeploymentSpec);
const cpu = { resources: { cpu: '4' } };

describe('built-in compatibility rules (seed 002 messages)', () => {
  it.each([
    [
      KAITO_PROVIDER,
      { engine: { type: 'sglang' } },
      'spec.engine.type',
      'KAITO does not support sglang engine',
      { engine: { type: 'vllm' } },
    ],
    [
      KAITO_PROVIDER,
      { engine: { type: 'trtllm' } },
      'spec.engine.type',
      'KAITO does not support trtllm engine',
      { engine: { type: 'llamacpp' } },
    ],
    [
      KAITO_PROVIDER,
      disaggregated,
      'spec.serving.mode',
      'KAITO does not support disaggregated mode',
      { serving: { mode: 'aggregated' } },
    ],
    [
      DYNAMO_PROVIDER,
      { engine: { type: 'llamacpp' } },
      'spec.engine.type',
      'Dynamo does not support llamacpp engine',
      { engine: { type: 'trtllm' } },
    ],
    [
      DYNAMO_PROVIDER,
      cpu,
      'spec.resources.gpu.count',
      'Dynamo requires GPU',
      disaggregated,
    ],
    [
      DYNAMO_PROVIDER,
      { provider: { name: 'dynamo', overrides: { routerMode: 'random' } } },
      'spec.provider.overrides.routerMode',
      'Dynamo routerMode must be one of kv, round-robin, none',
      { provider: { name: 'dynamo', overrides: { routerMode: 'kv' } } },
    ],
    [
      KUBERAY_PROVIDER,
      { engine: { type: 'llamacpp' } },
      'spec.engine.type',
      'KubeRay does not support llamacpp engine',
      { engine: { type: 'vllm' } },
    ],
    [
      KUBERAY_PROVIDER,
      { engine: { type: 'sglang' } },
      'spec.engine.type',
      'KubeRay does not support sglang engine',
      { engine: { type: 'vllm' } },
    ],
    [
      KUBERAY_PROVIDER,
      { engine: { type: 'trtllm' } },
      'spec.engine.type',
      'KubeRay does not support trtllm engine',
      { engine: { type: 'vllm' } },
    ],
    [
      KUBERAY_PROVIDER,
      { resources: { gpu: { count: 0 } } },
      'spec.resources.gpu.count',
      'KubeRay requires GPU',
      { resources: { gpu: { count: 2 } } },
    ],
    [
      LLMD_PROVIDER,
      { engine: { type: 'sglang' } },
      'spec.engine.type',
      'llm-d only supports vllm engine',
      { engine: { type: 'vllm' } },
    ],
    [
      LLMD_PROVIDER,
      cpu,
      'spec.resources.gpu.count',
      'llm-d requires GPU',
      disaggregated,
    ],
  ])('%#: %j', (p: InferenceProviderConfig, invalid, path, message, valid) => {
    expect(checkProviderCompatibility(spec(invalid), p)).toContainEqual({
      path,
      message,
      severity: 'error',
    });
    expect(checkProviderCompatibility(spec(valid), p)).toEqual([]);
  });

  it('accepts every upstream sample combination its provider supports', () => {
    expect(
      checkProviderCompatibility(
        spec({ engine: { type: 'llamacpp' }, ...cpu }),
        KAITO_PROVIDER,
      ),
    ).toEqual([]);
    expect(
      checkProviderCompatibility(
        spec({
          provider: { name: 'dynamo', overrides: { routerMode: 'kv' } },
          ...disaggregated,
        }),
        DYNAMO_PROVIDER,
      ),
    ).toEqual([]);
  });
});

describe('rules as data', () => {
  it('honours severity and reports a rule that cannot be evaluated as a warning', () => {
    const custom: InferenceProviderConfig = {
      ...provider('acme', []),
      spec: {
        compatibilityRules: [
          {
            rule: 'spec.resources.gpu.count <= 1',
            message: 'acme runs one GPU per replica best',
            severity: 'warning',
            fieldPath: 'spec.resources.gpu.count',
          },
          { rule: 'spec.missing.field == 1', message: 'never shown' },
        ],
      },
    };
    expect(
      checkProviderCompatibility(
        spec({ resources: { gpu: { count: 4 } } }),
        custom,
      ),
    ).toEqual([
      {
        path: 'spec.resources.gpu.count',
        message: 'acme runs one GPU per replica best',
        severity: 'warning',
      },
      {
        path: 'spec',
        message:
          'compatibility rule 1 of provider acme could not be evaluated (No such key: missing); fix the rule in InferenceProviderConfig acme',
        severity: 'warning',
      },
    ]);
  });
});

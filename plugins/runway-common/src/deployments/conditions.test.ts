import { toResult, error } from '../schema/issues';
import {
  engineSelectedCondition,
  providerSelectedCondition,
  validatedCondition,
} from './conditions';

const at = {
  lastTransitionTime: '2026-01-30T09:50:00Z',
  observedGeneration: 3,
};

describe('core conditions', () => {
  it.each([
    [
      validatedCondition(toResult([]), at),
      {
        type: 'Validated',
        status: 'True',
        reason: 'ValidationPassed',
        message: 'Schema validation passed',
      },
    ],
    [
      validatedCondition(
        toResult([
          error(
            'spec.resources.gpu.count',
            'vLLM engine requires GPU (set resources.gpu.count > 0)',
          ),
          error(
            'spec.scaling.replicas',
            'spec.scaling.replicas exceeds maximum allowed (32)',
          ),
        ]),
        at,
      ),
      {
        type: 'Validated',
        status: 'False',
        reason: 'ValidationFailed',
        message:
          'spec.resources.gpu.count: vLLM engine requires GPU (set resources.gpu.count > 0); spec.scaling.replicas exceeds maximum allowed (32)',
      },
    ],
    [
      engineSelectedCondition(
        { ok: true, engine: 'vllm', auto: true, reason: 'vllm for GPU' },
        at,
      ),
      {
        type: 'EngineSelected',
        status: 'True',
        reason: 'AutoSelected',
        message: 'Engine vllm auto-selected: vllm for GPU',
      },
    ],
    [
      engineSelectedCondition(
        { ok: true, engine: 'sglang', auto: false, reason: 'x' },
        at,
      ),
      {
        type: 'EngineSelected',
        status: 'True',
        reason: 'Specified',
        message: 'Engine sglang specified in spec.engine.type',
      },
    ],
    [
      engineSelectedCondition(
        {
          ok: false,
          reason: 'engine.type is required: No healthy providers available',
        },
        at,
      ),
      {
        type: 'EngineSelected',
        status: 'False',
        reason: 'NoEngineAvailable',
        message: 'engine.type is required: No healthy providers available',
      },
    ],
    [
      providerSelectedCondition(
        {
          ok: true,
          provider: 'dynamo',
          auto: true,
          reason: 'default → dynamo (GPU inference default)',
          considered: [],
        },
        at,
      ),
      {
        type: 'ProviderSelected',
        status: 'True',
        reason: 'AutoSelected',
        message: 'Provider dynamo auto-selected',
      },
    ],
    [
      providerSelectedCondition(
        {
          ok: true,
          provider: 'kuberay',
          auto: false,
          reason: 'explicit provider selection',
          considered: [],
        },
        at,
      ),
      {
        type: 'ProviderSelected',
        status: 'True',
        reason: 'Specified',
        message: 'Provider kuberay specified in spec.provider.name',
      },
    ],
    [
      providerSelectedCondition(
        { ok: false, reason: 'No healthy providers available', considered: [] },
        at,
      ),
      {
        type: 'ProviderSelected',
        status: 'False',
        reason: 'NoHealthyProviders',
        message: 'No healthy providers available',
      },
    ],
    [
      providerSelectedCondition(
        {
          ok: false,
          reason: "No provider's selection rules match",
          considered: [],
        },
        at,
      ),
      {
        type: 'ProviderSelected',
        status: 'False',
        reason: 'NoMatchingProvider',
        message: "No provider's selection rules match",
      },
    ],
  ])('%#', (built, expected) => {
    expect(built).toEqual({
      ...expected,
      lastTransitionTime: at.lastTransitionTime,
      observedGeneration: 3,
    });
  });
});

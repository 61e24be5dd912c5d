import {
  engineCapabilities,
  isProviderReady,
  normaliseProviderConfig,
} from './normalise';
import { KAITO_PROVIDER } from './providers';

describe('normaliseProviderConfig', () => {
  it('turns the seed flat form into per-engine capabilities', () => {
    const flat = {
      metadata: { name: 'kaito' },
      spec: {
        capabilities: {
          engines: [
            'vllm',
            { name: 'llamacpp', cpuSupport: true, gpuSupport: false },
          ],
          servingModes: ['aggregated'],
          cpuSupport: false,
          gpuSupport: true,
        },
        selectionRules: [],
      },
    };
    expect(normaliseProviderConfig(flat)).toEqual({
      metadata: { name: 'kaito' },
      spec: {
        capabilities: {
          engines: [
            {
              name: 'vllm',
              servingModes: ['aggregated'],
              cpuSupport: false,
              gpuSupport: true,
            },
            {
              name: 'llamacpp',
              servingModes: ['aggregated'],
              cpuSupport: true,
              gpuSupport: false,
            },
          ],
        },
        selectionRules: [],
      },
    });
    expect(flat.spec.capabilities.engines[0]).toBe('vllm');
  });

  it('returns the per-engine form unchanged (same object)', () => {
    expect(normaliseProviderConfig(KAITO_PROVIDER)).toBe(KAITO_PROVIDER);
  });

  it.each([
    null,
    3,
    { spec: 'x' },
    { spec: { capabilities: { engines: 'vllm', gpuSupport: true } } },
  ])('never throws on %j', input => {
    expect(() => normaliseProviderConfig(input)).not.toThrow();
  });

  it('lists engine capabilities and readiness', () => {
    expect(engineCapabilities(KAITO_PROVIDER).map(e => e.name)).toEqual([
      'vllm',
      'llamacpp',
    ]);
    expect(isProviderReady(KAITO_PROVIDER)).toBe(false);
    expect(
      isProviderReady({ ...KAITO_PROVIDER, status: { ready: true } }),
    ).toBe(true);
  });
});

import { cluster } from '../__testUtils__/fixtures';
import { providerFits, selectionView } from './selection';

describe('selectionView', () => {
  it('shows the automatic choice and its reason', () => {
    const view = selectionView(
      { model: { id: 'org/m' }, resources: { gpu: { count: 1 } } },
      cluster('east'),
    );
    expect(view.engine).toMatchObject({ ok: true, engine: 'vllm', auto: true });
    expect(view.engine.reason).toContain('vllm for GPU, aggregated serving');
    expect(view.provider).toMatchObject({
      ok: true,
      provider: 'dynamo',
      auto: true,
    });
  });

  it('picks kaito and llama.cpp for CPU only', () => {
    const view = selectionView(
      { model: { id: 'org/m' }, resources: { gpu: { count: 0 } } },
      cluster('east'),
    );
    expect(view.engine).toMatchObject({ engine: 'llamacpp' });
    expect(view.provider).toMatchObject({
      provider: 'kaito',
      reason: expect.stringContaining('no GPU requested'),
    });
  });

  it('explains why nothing can be selected', () => {
    const view = selectionView(
      { model: { id: 'org/m' } },
      cluster('east', { providers: [] }),
    );
    expect(view.engine).toMatchObject({
      ok: false,
      reason: expect.stringContaining('No healthy providers available'),
    });
    expect(view.provider).toBeUndefined();
  });
});

describe('providerFits', () => {
  it("explains each provider's incompatibilities", () => {
    const spec = {
      model: { id: 'org/m' },
      serving: { mode: 'disaggregated' as const },
      scaling: {
        prefill: { gpu: { count: 1 }, memory: '8Gi' },
        decode: { gpu: { count: 1 }, memory: '8Gi' },
      },
    };
    const fits = providerFits(spec, cluster('east'));
    const kaito = fits.find(f => f.name === 'kaito')!;
    const dynamo = fits.find(f => f.name === 'dynamo')!;
    expect(dynamo.problems).toEqual([]);
    expect(kaito.problems.join(' ')).toMatch(/disaggregated/);
  });

  it('names providers that are not ready', () => {
    const c = cluster('east');
    c.providers[1] = {
      ...c.providers[1],
      ready: false,
      message: 'no heartbeat for 5m',
    };
    const fits = providerFits({ model: { id: 'x' } }, c);
    expect(fits.find(f => f.name === 'dynamo')).toMatchObject({
      ready: false,
      problems: ['Dynamo is not ready: no heartbeat for 5m'],
    });
  });
});

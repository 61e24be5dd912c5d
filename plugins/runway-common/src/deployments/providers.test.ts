import { engineCapabilities } from './normalise';
import { gatewayCapabilities, gatewayModelName } from './gateway';
import { BUILT_IN_PROVIDERS, KAITO_PROVIDER } from './providers';

describe('built-in registrations: gateway capabilities', () => {
  const spec = { model: { id: 'org/llama', servedName: 'llama' } };

  it("routes KAITO's llama.cpp by the model id: it does not serve under spec.model.servedName (as upstream declares)", () => {
    expect(gatewayCapabilities(KAITO_PROVIDER, 'llamacpp')).toEqual({
      ignoresServedName: true,
    });
    expect(
      gatewayModelName(spec, gatewayCapabilities(KAITO_PROVIDER, 'llamacpp')),
    ).toBe('org/llama');
  });

  it('keeps the served name for every other engine of the built-in providers', () => {
    const others = BUILT_IN_PROVIDERS.flatMap(p =>
      engineCapabilities(p)
        .filter(e => !(p === KAITO_PROVIDER && e.name === 'llamacpp'))
        .map(e => [p, e.name] as const),
    );
    expect(others.length).toBeGreaterThan(0);
    for (const [provider, engine] of others) {
      expect(
        gatewayModelName(spec, gatewayCapabilities(provider, engine)),
      ).toBe('llama');
    }
  });
});

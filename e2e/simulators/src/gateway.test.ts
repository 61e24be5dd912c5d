import { gatewayStatus, SIMULATED_GATEWAY_CLASS } from './gateway';

const NOW = new Date('2026-01-01T00:00:00.123Z');
const gateway = (patch: Record<string, unknown> = {}) => ({
  metadata: {
    name: 'inference-gateway',
    namespace: 'runway-system',
    generation: 2,
  },
  spec: {
    gatewayClassName: SIMULATED_GATEWAY_CLASS,
    listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
  },
  ...patch,
});

describe('gatewayStatus (simulated Gateway implementation)', () => {
  it('reports an address that never resolves and Accepted/Programmed for the current generation', () => {
    const status = gatewayStatus(gateway(), NOW) as any;
    expect(status.addresses).toEqual([
      {
        type: 'Hostname',
        value: 'inference-gateway.runway-system.gateway.invalid',
      },
    ]);
    expect(
      status.conditions.map((c: any) => [
        c.type,
        c.status,
        c.observedGeneration,
        c.lastTransitionTime,
      ]),
    ).toEqual([
      ['Accepted', 'True', 2, '2026-01-01T00:00:00Z'],
      ['Programmed', 'True', 2, '2026-01-01T00:00:00Z'],
    ]);
  });

  it('leaves Gateways of other classes to their implementation', () => {
    expect(
      gatewayStatus(
        gateway({ spec: { gatewayClassName: 'istio', listeners: [] } }),
        NOW,
      ),
    ).toBeUndefined();
  });

  it('writes nothing once the status says so for this generation, and again after a spec change', () => {
    const settled = gateway({ status: gatewayStatus(gateway(), NOW) });
    expect(gatewayStatus(settled, NOW)).toBeUndefined();
    const changed = {
      ...settled,
      metadata: { ...settled.metadata, generation: 3 },
    };
    expect(
      (gatewayStatus(changed, NOW) as any).conditions[1].observedGeneration,
    ).toBe(3);
  });
});

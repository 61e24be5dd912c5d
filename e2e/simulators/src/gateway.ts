/**
 * SIMULATOR of a Gateway API implementation (not one): for Gateways of the
 * class `runway-simulated` it reports what an implementation reports once it
 * has programmed its data plane, an address and the `Accepted` and
 * `Programmed` conditions, and nothing else. No proxy runs: nothing listens
 * at the address. Gateways of any other class are left to their own
 * implementation, as Gateway API intends.
 */
import type { Condition, Json, UpstreamObject } from './stages';

export const GATEWAY_KIND = {
  group: 'gateway.networking.k8s.io',
  plural: 'gateways',
  kind: 'Gateway',
} as const;

/** The GatewayClass name this simulator implements. */
export const SIMULATED_GATEWAY_CLASS = 'runway-simulated';

/** The address it reports: a name under `.invalid`, a top-level domain that never resolves (RFC 2606). */
export function simulatedGatewayAddress(obj: UpstreamObject): string {
  return `${obj.metadata?.name}.${obj.metadata?.namespace}.gateway.invalid`;
}

const gatewayClassOf = (obj: UpstreamObject) =>
  (obj.spec as { gatewayClassName?: unknown } | undefined)?.gatewayClassName;

/**
 * The status to write for `obj`, or undefined when there is nothing to do:
 * another class's Gateway, or one whose status already says so for its
 * current generation. Pure.
 */
export function gatewayStatus(
  obj: UpstreamObject,
  now: Date,
): Json | undefined {
  if (gatewayClassOf(obj) !== SIMULATED_GATEWAY_CLASS) return undefined;
  const generation = obj.metadata?.generation ?? 1;
  const address = simulatedGatewayAddress(obj);
  const status = (obj.status ?? {}) as {
    addresses?: Array<{ value?: string }>;
    conditions?: Condition[];
  };
  const settled =
    status.addresses?.[0]?.value === address &&
    ['Accepted', 'Programmed'].every(type =>
      status.conditions?.some(
        c =>
          c.type === type &&
          c.status === 'True' &&
          c.observedGeneration === generation,
      ),
    );
  if (settled) return undefined;
  const condition = (type: string, message: string): Condition => ({
    type,
    status: 'True',
    reason: type,
    message,
    observedGeneration: generation,
    lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
  });
  return {
    addresses: [{ type: 'Hostname', value: address }],
    conditions: [
      condition(
        'Accepted',
        `Accepted by the ${SIMULATED_GATEWAY_CLASS} gateway simulator`,
      ),
      condition(
        'Programmed',
        `Programmed by the ${SIMULATED_GATEWAY_CLASS} gateway simulator (no data plane: nothing listens at ${address})`,
      ),
    ],
  };
}

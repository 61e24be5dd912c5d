import {
  chooseProvider,
  DYNAMO_PROVIDER,
  type InferenceProviderConfig,
} from '@runway-portal/plugin-runway-common';
import { heartbeatStale, withStaleProvidersUnready } from './liveness';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const beat = (msAgo: number) =>
  new Date(NOW - msAgo).toISOString().replace(/\.\d+Z$/, 'Z');
const dynamo = (
  status: InferenceProviderConfig['status'],
): InferenceProviderConfig => ({ ...DYNAMO_PROVIDER, status });

describe('withStaleProvidersUnready', () => {
  it('leaves a provider that beats, or never reported a heartbeat, as it is', () => {
    const fresh = dynamo({ ready: true, lastHeartbeat: beat(60_000) });
    const never = dynamo({ ready: true });
    expect(withStaleProvidersUnready([fresh, never], NOW, 180_000)).toEqual([
      fresh,
      never,
    ]);
    expect(heartbeatStale(never, NOW, 180_000)).toBe(false);
  });

  it('makes a provider whose heartbeat is stale not ready, with a Ready condition saying why', () => {
    const [seen] = withStaleProvidersUnready(
      [dynamo({ ready: true, lastHeartbeat: beat(600_000) })],
      NOW,
      180_000,
    );
    expect(seen.status?.ready).toBe(false);
    expect(seen.status?.conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'HeartbeatStale',
        message:
          'its controller last reported 10m ago (status.lastHeartbeat) and is not running; start it or choose another provider',
        lastTransitionTime: beat(420_000),
      },
    ]);
  });

  it('gives a deployment naming a stale provider the reason, and auto-selection skips it', () => {
    const providers = withStaleProvidersUnready(
      [dynamo({ ready: true, lastHeartbeat: beat(600_000) })],
      NOW,
      180_000,
    );
    const gpu = {
      model: { id: 'org/m' },
      engine: { type: 'vllm' as const },
      resources: { gpu: { count: 1 } },
    };
    expect(
      chooseProvider({ ...gpu, provider: { name: 'dynamo' } }, providers),
    ).toMatchObject({
      ok: false,
      reason:
        "Provider 'dynamo' is not ready: its controller last reported 10m ago (status.lastHeartbeat) and is not running; start it or choose another provider",
    });
    expect(chooseProvider(gpu, providers)).toMatchObject({
      ok: false,
      reason: 'No healthy providers available',
    });
  });
});

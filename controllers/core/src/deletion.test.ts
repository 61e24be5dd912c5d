import type {
  InferenceProviderConfig,
  ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { decideDeletion } from './deletion';
import { formatDuration, providerLiveness } from './liveness';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const TIMEOUTS = { finalizerTimeoutMs: 300_000, heartbeatTimeoutMs: 180_000 };

function provider(
  name: string,
  status: InferenceProviderConfig['status'],
): InferenceProviderConfig {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name },
    status,
  } as InferenceProviderConfig;
}

function md(
  deletedMsAgo: number | undefined,
  finalizers: string[],
): ModelDeployment {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: {
      name: 'llm',
      namespace: 'apps',
      finalizers,
      ...(deletedMsAgo === undefined
        ? {}
        : { deletionTimestamp: ago(deletedMsAgo) }),
    },
    spec: { model: { id: 'org/model' } },
  } as ModelDeployment;
}

describe('providerLiveness', () => {
  it('is live when registered, ready and beating', () => {
    expect(
      providerLiveness(
        'kaito',
        [provider('kaito', { ready: true, lastHeartbeat: ago(60_000) })],
        NOW,
        180_000,
      ),
    ).toEqual({ live: true, staleInMs: 120_000 });
  });

  it('says why not: unregistered, no heartbeat, stale heartbeat, not ready', () => {
    expect(providerLiveness('kaito', [], NOW, 180_000).why).toBe(
      "provider 'kaito' is not registered (no InferenceProviderConfig named kaito)",
    );
    expect(
      providerLiveness(
        'kaito',
        [provider('kaito', { ready: true })],
        NOW,
        180_000,
      ).why,
    ).toContain('never reported a heartbeat');
    expect(
      providerLiveness(
        'kaito',
        [provider('kaito', { ready: true, lastHeartbeat: ago(240_000) })],
        NOW,
        180_000,
      ).why,
    ).toBe(
      "provider 'kaito' last reported 4m ago (status.lastHeartbeat; its controller is not running)",
    );
    expect(
      providerLiveness(
        'kaito',
        [provider('kaito', { ready: false, lastHeartbeat: ago(0) })],
        NOW,
        180_000,
      ).why,
    ).toBe("provider 'kaito' reports status.ready=false");
  });
});

describe('decideDeletion', () => {
  it('does nothing for a deployment that is not being deleted', () => {
    expect(
      decideDeletion({
        md: md(undefined, ['airunway.ai/provider-kaito']),
        providers: [],
        now: NOW,
        ...TIMEOUTS,
      }),
    ).toBeUndefined();
  });

  it('shows Terminating and leaves a running provider its own finalizer (looking again when its heartbeat would turn stale)', () => {
    const d = decideDeletion({
      md: md(600_000, ['airunway.ai/provider-kaito']),
      providers: [
        provider('kaito', { ready: true, lastHeartbeat: ago(30_000) }),
      ],
      now: NOW,
      ...TIMEOUTS,
    })!;
    expect(d.status).toEqual({
      phase: 'Terminating',
      message: "Deleting: waiting for provider 'kaito' to delete its resources",
    });
    expect(d.removeFinalizers).toEqual([]);
    expect(d.requeueAfterMs).toBe(151_000);
  });

  it('waits for a provider that is not running until the timeout, saying when the finalizer goes', () => {
    const d = decideDeletion({
      md: md(60_000, ['airunway.ai/provider-kaito']),
      providers: [],
      now: NOW,
      ...TIMEOUTS,
    })!;
    expect(d.removeFinalizers).toEqual([]);
    expect(d.status.message).toBe(
      "Deleting: waiting for provider 'kaito' is not registered (no InferenceProviderConfig named kaito); finalizer airunway.ai/provider-kaito is removed in 4m unless it comes back",
    );
    expect(d.requeueAfterMs).toBe(241_000);
  });

  it("removes a stopped provider's finalizer after the timeout with a warning, and never anyone else's", () => {
    const d = decideDeletion({
      md: md(300_000, ['example.com/keep', 'airunway.ai/provider-dynamo']),
      providers: [
        provider('dynamo', { ready: true, lastHeartbeat: ago(3_600_000) }),
      ],
      now: NOW,
      ...TIMEOUTS,
    })!;
    expect(d.removeFinalizers).toEqual(['airunway.ai/provider-dynamo']);
    expect(d.events).toEqual([
      {
        type: 'Warning',
        reason: 'FinalizerTimeout',
        message:
          "Finalizer airunway.ai/provider-dynamo removed after 5m: provider 'dynamo' last reported 1h ago (status.lastHeartbeat; its controller is not running); its resources may be orphaned (delete them by hand)",
      },
    ]);
    expect(d.status.message).toBe(
      'Deleting: waiting for finalizer example.com/keep',
    );
    expect(d.requeueAfterMs).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [3_000, '3s'],
    [300_000, '5m'],
    [90_000, '1m30s'],
    [3_723_000, '1h2m3s'],
  ])('%d ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

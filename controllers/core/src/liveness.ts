/**
 * Whether a provider's controller is running, judged by the core: a stopped
 * controller cannot clear its own `status.ready`, so the heartbeat's age
 * decides. Pure.
 */
import type {
  Condition,
  InferenceProviderConfig,
} from '@runway-portal/plugin-runway-common';

/** Providers renew their heartbeat every minute; three missed ones mean the controller is not running. */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 3 * 60_000;

export interface Liveness {
  live: boolean;
  /** Why not, for messages ("reports status.ready=false", "last reported 4m ago"). */
  why?: string;
  /** When live: in how long the heartbeat turns stale unless renewed. */
  staleInMs?: number;
}

/** "5m", "90s", "1h2m": durations in messages. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const parts: string[] = [];
  if (s >= 3600) parts.push(`${Math.floor(s / 3600)}h`);
  if (s % 3600 >= 60) parts.push(`${Math.floor((s % 3600) / 60)}m`);
  if (s % 60 || parts.length === 0) parts.push(`${s % 60}s`);
  return parts.join('');
}

function staleWhy(name: string, ageMs: number): string {
  return `provider '${name}' last reported ${formatDuration(
    ageMs,
  )} ago (status.lastHeartbeat; its controller is not running)`;
}

/**
 * Whether a provider's controller is running: registered, reporting
 * `status.ready: true`, and its heartbeat younger than `heartbeatTimeoutMs`.
 */
export function providerLiveness(
  name: string,
  providers: readonly InferenceProviderConfig[],
  now: number,
  heartbeatTimeoutMs: number,
): Liveness {
  const provider = providers.find(p => p.metadata?.name === name);
  if (!provider)
    return {
      live: false,
      why: `provider '${name}' is not registered (no InferenceProviderConfig named ${name})`,
    };
  const beat = Date.parse(provider.status?.lastHeartbeat ?? '');
  if (Number.isNaN(beat))
    return {
      live: false,
      why: `provider '${name}' has never reported a heartbeat (status.lastHeartbeat)`,
    };
  const age = now - beat;
  if (age > heartbeatTimeoutMs)
    return { live: false, why: staleWhy(name, age) };
  if (provider.status?.ready !== true)
    return {
      live: false,
      why: `provider '${name}' reports status.ready=${String(
        provider.status?.ready ?? false,
      )}`,
    };
  return { live: true, staleInMs: heartbeatTimeoutMs - age };
}

/** Whether a registration's heartbeat is older than the timeout (none reported: not judged here). */
export function heartbeatStale(
  provider: InferenceProviderConfig,
  now: number,
  heartbeatTimeoutMs: number,
): boolean {
  const beat = Date.parse(provider.status?.lastHeartbeat ?? '');
  return !Number.isNaN(beat) && now - beat > heartbeatTimeoutMs;
}

/**
 * The registrations as selection sees them: a provider whose heartbeat is
 * stale is not ready, with a `Ready=False` condition (`HeartbeatStale`) that
 * runway-common's `chooseProvider` quotes for a deployment naming it. A
 * registration without any heartbeat is judged by `status.ready` alone.
 */
export function withStaleProvidersUnready(
  providers: readonly InferenceProviderConfig[],
  now: number,
  heartbeatTimeoutMs: number,
): InferenceProviderConfig[] {
  return providers.map(p => {
    if (
      !heartbeatStale(p, now, heartbeatTimeoutMs) ||
      p.status?.ready === false
    )
      return p;
    const age = now - Date.parse(p.status!.lastHeartbeat!);
    const ready: Condition = {
      type: 'Ready',
      status: 'False',
      reason: 'HeartbeatStale',
      message: `its controller last reported ${formatDuration(
        age,
      )} ago (status.lastHeartbeat) and is not running; start it or choose another provider`,
      lastTransitionTime: new Date(
        Date.parse(p.status!.lastHeartbeat!) + heartbeatTimeoutMs,
      )
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
    };
    const conditions = [
      ...(p.status?.conditions ?? []).filter(c => c.type !== 'Ready'),
      ready,
    ];
    return { ...p, status: { ...p.status, ready: false, conditions } };
  });
}

import type { KubeObject } from '../kube/types';

/** @public */
export type EventType = 'Normal' | 'Warning';

/** @public */
export interface EventRecord {
  involved: KubeObject;
  type: EventType;
  reason: string;
  message: string;
}

/**
 * Two events are repeats of each other when they are about the same
 * object and say the same thing (client-go's EventCorrelator key).
 *
 * @public
 */
export function eventAggregationKey(component: string, e: EventRecord): string {
  const m = e.involved.metadata ?? {};
  return JSON.stringify([
    component,
    e.involved.apiVersion ?? '',
    e.involved.kind ?? '',
    m.namespace ?? '',
    m.name ?? '',
    m.uid ?? '',
    e.type,
    e.reason,
    e.message,
  ]);
}

export interface SeenEvent {
  /** metadata.name of the Event object in the cluster. */
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
  lastSeenMs: number;
}

export type EventDecision =
  | { action: 'create'; seen: SeenEvent }
  | { action: 'update'; seen: SeenEvent };

/**
 * Remembers recent events (bounded, least recently seen evicted first) and
 * decides whether a new occurrence creates an Event or bumps the count of
 * the one already written.
 *
 * @public
 */
export class EventAggregator {
  private readonly seen = new Map<string, SeenEvent>();

  constructor(
    private readonly windowMs = 10 * 60_000,
    private readonly maxEntries = 4096,
  ) {}

  observe(key: string, e: EventRecord, now: Date): EventDecision {
    const nowMs = now.getTime();
    const previous = this.seen.get(key);
    if (previous && nowMs - previous.lastSeenMs < this.windowMs) {
      const seen = {
        ...previous,
        count: previous.count + 1,
        lastSeenMs: nowMs,
      };
      this.remember(key, seen);
      return { action: 'update', seen };
    }
    const seen: SeenEvent = {
      name: eventName(e.involved.metadata?.name ?? 'unknown', nowMs),
      namespace: e.involved.metadata?.namespace || 'default',
      count: 1,
      firstTimestamp: now.toISOString(),
      lastSeenMs: nowMs,
    };
    this.remember(key, seen);
    return { action: 'create', seen };
  }

  /** After the Event vanished (it expired in the cluster), start afresh. */
  forget(key: string): void {
    this.seen.delete(key);
  }

  get size(): number {
    return this.seen.size;
  }

  private remember(key: string, seen: SeenEvent): void {
    this.seen.delete(key); // re-insert: Map order is recency order
    this.seen.set(key, seen);
    if (this.seen.size > this.maxEntries) {
      this.seen.delete(this.seen.keys().next().value!);
    }
  }
}

/** `<object>.<hex time>` like client-go, unique per object and instant. @public */
export function eventName(objectName: string, nowMs: number): string {
  const nanos =
    BigInt(nowMs) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
  return `${objectName}.${nanos.toString(16)}`;
}

/** Event messages are capped at 1 KiB by convention; reasons must be short CamelCase. @public */
export function validateEvent(e: EventRecord): string | undefined {
  if (e.type !== 'Normal' && e.type !== 'Warning') {
    return `event type "${e.type}" is not valid: use "Normal" or "Warning"`;
  }
  if (!/^[A-Za-z][A-Za-z0-9]{0,127}$/.test(e.reason)) {
    return `event reason "${e.reason}" is not valid: use a short CamelCase word such as "ProviderSelected"`;
  }
  if (!e.involved.metadata?.name) {
    return 'the involved object of an event has no metadata.name';
  }
  return undefined;
}

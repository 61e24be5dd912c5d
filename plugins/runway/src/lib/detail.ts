/**
 * What the detail layout shows, as pure functions: a phase's meaning and
 * colour, and events aggregated the way `kubectl describe` lists them.
 */
import type { RunwayKind } from '@runway-portal/plugin-runway-common';
import type { KubeObject } from '../api/types';

export type PhaseColor = 'success' | 'info' | 'warning' | 'error' | 'default';

export interface PhaseMeaning {
  color: PhaseColor;
  /** One sentence a user reads next to the phase chip. */
  meaning: string;
}

const WHAT: Record<RunwayKind, string> = {
  deployments: 'model server',
  models: 'model',
  stacks: 'Llama Stack server',
};

/** The phase's meaning for `kind` (deployments, models and stacks share most phase names). */
export function phaseMeaning(kind: RunwayKind, phase: string): PhaseMeaning {
  const what = WHAT[kind];
  switch (phase) {
    case 'Running':
      return { color: 'success', meaning: `The ${what} is serving requests.` };
    case 'Ready':
      return kind === 'models'
        ? {
            color: 'success',
            meaning: 'The model files are downloaded and ready to mount.',
          }
        : { color: 'success', meaning: `The ${what} is ready.` };
    case 'Deploying':
    case 'Initializing':
      return {
        color: 'info',
        meaning: `The ${what} is starting: not serving yet.`,
      };
    case 'Downloading':
      return { color: 'info', meaning: 'The model files are downloading.' };
    case 'Pending':
      return {
        color: 'warning',
        meaning: `Waiting: the controllers have not started the ${what} yet.`,
      };
    case 'Failed':
      return {
        color: 'error',
        meaning: `The ${what} failed: the message says what to fix.`,
      };
    case 'Terminating':
      return {
        color: 'default',
        meaning: `Being deleted: finalizers are cleaning up the ${what}.`,
      };
    default:
      return {
        color: 'default',
        meaning: phase ? `Phase ${phase}.` : 'No phase reported yet.',
      };
  }
}

/** The singular word users see for a kind. */
export const KIND_WORD: Record<RunwayKind, string> = {
  deployments: 'deployment',
  models: 'model',
  stacks: 'stack',
};

/** The phase a page shows: `Terminating` once deletion started, else the controller's (`Pending` before it reported one). */
export function resourcePhase(object: KubeObject): {
  phase: string;
  terminating: boolean;
} {
  const terminating = Boolean(object.metadata?.deletionTimestamp);
  return {
    terminating,
    phase: terminating ? 'Terminating' : object.status?.phase ?? 'Pending',
  };
}

/** True for the phases in which the resource does what it should (its message is then no news). */
export function isSettled(phase: string): boolean {
  return phase === 'Running' || phase === 'Ready';
}

/** True for the phases that last until someone acts: the settled ones and Failed. */
export function isFinal(phase: string): boolean {
  return isSettled(phase) || phase === 'Failed';
}

/** One line of the events list: identical events merged, their counts added. */
export interface EventRow {
  key: string;
  type: string;
  reason: string;
  object: string;
  message: string;
  count: number;
  /** Milliseconds since the epoch of the newest occurrence; NaN when unknown. */
  lastSeen: number;
  warning: boolean;
}

interface CoreEvent {
  type?: string;
  reason?: string;
  message?: string;
  note?: string;
  count?: number;
  series?: { count?: number; lastObservedTime?: string };
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
  involvedObject?: { kind?: string; name?: string };
  regarding?: { kind?: string; name?: string };
}

function lastSeenOf(e: CoreEvent & KubeObject): number {
  return Date.parse(
    e.series?.lastObservedTime ??
      e.lastTimestamp ??
      e.eventTime ??
      e.firstTimestamp ??
      e.metadata?.creationTimestamp ??
      '',
  );
}

/**
 * Events newest first, those with the same type, reason, object and message
 * merged into one row with their counts added (core/v1 `count` or
 * events.k8s.io `series.count`).
 */
export function aggregateEvents(events: readonly KubeObject[]): EventRow[] {
  const rows = new Map<string, EventRow>();
  for (const raw of events) {
    const e = raw as CoreEvent & KubeObject;
    const target = e.involvedObject ?? e.regarding ?? {};
    const type = e.type ?? 'Normal';
    const reason = e.reason ?? '';
    const object = [target.kind, target.name].filter(Boolean).join(' ');
    const message = e.message ?? e.note ?? '';
    const key = [type, reason, object, message].join('\u0000');
    const count = e.series?.count ?? e.count ?? 1;
    const lastSeen = lastSeenOf(e);
    const row = rows.get(key);
    if (row) {
      row.count += count;
      if (!(row.lastSeen >= lastSeen)) row.lastSeen = lastSeen;
    } else {
      rows.set(key, {
        key,
        type,
        reason,
        object,
        message,
        count,
        lastSeen,
        warning: type === 'Warning',
      });
    }
  }
  return [...rows.values()].sort(
    (a, b) => (b.lastSeen || 0) - (a.lastSeen || 0),
  );
}

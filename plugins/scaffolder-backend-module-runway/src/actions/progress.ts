/**
 * The pure part of `runway:wait`: where a resource is (its phase, message and
 * conditions) and whether that ends the wait.
 */
import { InputError } from '@backstage/errors';
import {
  DEPLOYMENT_PHASES,
  MODEL_PHASES,
  type RunwayKind,
  STACK_PHASES,
} from '@runway-portal/plugin-runway-common';
import { isRecord } from '@runway-portal/plugin-runway-common';

/** The phases each kind reports in `status.phase` (runway-common's schemas). */
export const PHASES: Record<RunwayKind, readonly string[]> = {
  deployments: DEPLOYMENT_PHASES,
  models: MODEL_PHASES,
  stacks: STACK_PHASES,
};

/** What "done" means by default: a deployment serves, a model is downloaded, a stack is up. */
export const DEFAULT_TARGET_PHASE: Record<RunwayKind, string> = {
  deployments: 'Running',
  models: 'Ready',
  stacks: 'Ready',
};

/** Every kind's failure phase. */
export const FAILED_PHASE = 'Failed';

export interface Progress {
  phase?: string;
  message?: string;
  /** `Type=Status (Reason)` per condition, in the order the controller wrote them. */
  conditions: string[];
  /**
   * Set when `status.observedGeneration` is behind `metadata.generation`: the
   * phase describes the previous spec (a re-applied Ready model is not yet
   * Ready with its new source), so it neither reaches nor fails the wait.
   */
  stale?: { observed: number; generation: number };
  /** `metadata.deletionTimestamp` is set: it will never reach a phase. */
  deleting?: boolean;
}

export type Verdict =
  | { state: 'reached'; progress: Progress }
  | { state: 'failed'; progress: Progress }
  | { state: 'pending'; progress: Progress };

/** The target phase from the `phase` input, checked against the kind's phases. */
export function targetPhaseOf(
  kind: RunwayKind,
  phase: string | undefined,
): string {
  if (phase === undefined || phase === '') return DEFAULT_TARGET_PHASE[kind];
  if (!PHASES[kind].includes(phase) || phase === FAILED_PHASE) {
    const allowed = PHASES[kind].filter(p => p !== FAILED_PHASE);
    throw new InputError(
      `input.phase "${phase}" is not a phase ${kind} reach: use one of ${allowed.join(
        ', ',
      )}`,
    );
  }
  return phase;
}

export function progressOf(object: unknown): Progress {
  const status =
    isRecord(object) && isRecord(object.status) ? object.status : {};
  const metadata =
    isRecord(object) && isRecord(object.metadata) ? object.metadata : {};
  const conditions = Array.isArray(status.conditions)
    ? status.conditions.filter(isRecord)
    : [];
  const observed = status.observedGeneration;
  const generation = metadata.generation;
  // Only kinds whose controller writes observedGeneration (deployments, models) can be stale.
  const stale =
    typeof observed === 'number' &&
    typeof generation === 'number' &&
    observed < generation
      ? { observed, generation }
      : undefined;
  return {
    ...(stale ? { stale } : {}),
    ...(metadata.deletionTimestamp ? { deleting: true } : {}),
    phase: typeof status.phase === 'string' ? status.phase : undefined,
    message:
      typeof status.message === 'string' && status.message !== ''
        ? status.message
        : undefined,
    conditions: conditions.map(
      c =>
        `${String(c.type)}=${String(c.status)}${
          c.reason ? ` (${String(c.reason)})` : ''
        }`,
    ),
  };
}

export function verdictOf(object: unknown, targetPhase: string): Verdict {
  const progress = progressOf(object);
  if (progress.deleting) return { state: 'failed', progress };
  if (progress.stale) return { state: 'pending', progress };
  if (progress.phase === targetPhase) return { state: 'reached', progress };
  if (progress.phase === FAILED_PHASE) return { state: 'failed', progress };
  return { state: 'pending', progress };
}

/** One task-log line; the wait logs it whenever it changes. */
export function describeProgress(what: string, progress: Progress): string {
  const parts = [`${what}: phase ${progress.phase ?? '(none yet)'}`];
  if (progress.message) parts.push(`message "${progress.message}"`);
  if (progress.conditions.length > 0)
    parts.push(`conditions ${progress.conditions.join(', ')}`);
  if (progress.stale)
    parts.push(
      `status is for generation ${progress.stale.observed}, the spec is at ${progress.stale.generation}: waiting for the controller`,
    );
  if (progress.deleting) parts.push('being deleted');
  return parts.join('; ');
}

/**
 * The failure message of a resource in the failure phase: its status
 * message, else the message of a condition that is not True.
 */
export function failureMessage(object: unknown): string {
  const progress = progressOf(object);
  if (progress.deleting)
    return 'it is being deleted (metadata.deletionTimestamp is set); run the template again once it is gone';
  if (progress.message) return progress.message;
  const status =
    isRecord(object) && isRecord(object.status) ? object.status : {};
  const conditions = Array.isArray(status.conditions)
    ? status.conditions.filter(isRecord)
    : [];
  const failing = conditions.find(
    c =>
      c.status !== 'True' && typeof c.message === 'string' && c.message !== '',
  );
  return failing ? String(failing.message) : 'no message in its status';
}

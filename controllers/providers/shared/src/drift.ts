/**
 * Drift: a provider resource whose live content no longer contains what the
 * controller applied. Fields the API server or the upstream operator add
 * (defaults, status, metadata) are not drift; changed or removed ones are.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import { DESIRED_ANNOTATION, IDENTITY_ANNOTATION } from './desired';

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value && typeof value === 'object')
    return Object.keys(value).length === 0;
  return false;
}

/** Whether every field of `desired` is in `live` with the same value (arrays compare element by element). @public */
export function containsDesired(desired: unknown, live: unknown): boolean {
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return isEmpty(desired) && live === undefined;
    return (
      desired.length === live.length &&
      desired.every((d, i) => containsDesired(d, live[i]))
    );
  }
  if (desired && typeof desired === 'object') {
    if (!live || typeof live !== 'object' || Array.isArray(live))
      return isEmpty(desired) && live === undefined;
    const l = live as Record<string, unknown>;
    return Object.entries(desired).every(([k, v]) =>
      v === undefined ? true : containsDesired(v, l[k]),
    );
  }
  return desired === live;
}

/** @public */
export type ApplyDecision =
  /** Not there: create it. */
  | 'create'
  /** The deployment changed what it should be: update in place. */
  | 'update'
  /** Someone edited it directly: overwrite (and say so). */
  | 'drift'
  /** Identity fields changed: delete and create again. */
  | 'recreate'
  /** Up to date. */
  | 'none';

/** What to do with one provider resource, given what it should be and what is live. @public */
export function applyDecision(
  desired: KubeObject,
  live: KubeObject | undefined,
): ApplyDecision {
  if (!live) return 'create';
  const annotations = live.metadata?.annotations ?? {};
  const want = desired.metadata?.annotations ?? {};
  if (
    annotations[IDENTITY_ANNOTATION] !== undefined &&
    annotations[IDENTITY_ANNOTATION] !== want[IDENTITY_ANNOTATION]
  ) {
    return 'recreate';
  }
  if (annotations[DESIRED_ANNOTATION] !== want[DESIRED_ANNOTATION])
    return 'update';
  // apiVersion and kind are left out: objects cached from a list carry neither.
  const {
    metadata: _m,
    status: _s,
    apiVersion: _a,
    kind: _k,
    ...desiredBody
  } = desired;
  const {
    metadata: _lm,
    status: _ls,
    apiVersion: _la,
    kind: _lk,
    ...liveBody
  } = live;
  const labelsKept = containsDesired(
    desired.metadata?.labels ?? {},
    live.metadata?.labels ?? {},
  );
  return labelsKept && containsDesired(desiredBody, liveBody)
    ? 'none'
    : 'drift';
}

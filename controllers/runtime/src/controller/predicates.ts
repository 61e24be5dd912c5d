import type { KubeObject } from '../kube/types';

/**
 * Filters events before they reach the work queue. Each function decides
 * for one kind of event; a missing function lets the event through.
 *
 * @public
 */
export interface Predicate<T extends KubeObject = KubeObject> {
  create?(obj: T): boolean;
  update?(old: T, obj: T): boolean;
  delete?(obj: T): boolean;
}

/** @public */
export type EventKind = 'create' | 'update' | 'delete';

/** Whether every predicate lets this event through. @public */
export function passes<T extends KubeObject>(
  predicates: readonly Predicate<T>[],
  kind: EventKind,
  obj: T,
  old?: T,
): boolean {
  return predicates.every(p => {
    if (kind === 'create') return p.create ? p.create(obj) : true;
    if (kind === 'delete') return p.delete ? p.delete(obj) : true;
    return p.update ? p.update(old ?? obj, obj) : true;
  });
}

/**
 * Passes updates only when metadata.generation changed, i.e. the spec
 * changed (status-only and metadata-only updates are skipped).
 *
 * @public
 */
export const generationChanged: Predicate = {
  update: (old, obj) => old.metadata?.generation !== obj.metadata?.generation,
};

/** Passes updates only when the labels changed. @public */
export const labelsChanged: Predicate = {
  update: (old, obj) =>
    !shallowEqual(old.metadata?.labels, obj.metadata?.labels),
};

/** Passes updates only when the annotations changed. @public */
export const annotationsChanged: Predicate = {
  update: (old, obj) =>
    !shallowEqual(old.metadata?.annotations, obj.metadata?.annotations),
};

/** Passes updates only when the resourceVersion changed (drops relist no-ops). @public */
export const resourceVersionChanged: Predicate = {
  update: (old, obj) =>
    old.metadata?.resourceVersion !== obj.metadata?.resourceVersion,
};

/** A predicate from one test applied to the object of every event (the new one on update). @public */
export function objectMatches<T extends KubeObject>(
  test: (obj: T) => boolean,
): Predicate<T> {
  return { create: test, update: (_old, obj) => test(obj), delete: test };
}

/** Passes an event only if every predicate passes it. @public */
export function and<T extends KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: obj => passes(ps, 'create', obj),
    update: (old, obj) => passes(ps, 'update', obj, old),
    delete: obj => passes(ps, 'delete', obj),
  };
}

/** Passes an event if any predicate passes it. @public */
export function or<T extends KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: obj => ps.some(p => passes([p], 'create', obj)),
    update: (old, obj) => ps.some(p => passes([p], 'update', obj, old)),
    delete: obj => ps.some(p => passes([p], 'delete', obj)),
  };
}

/** @public */
export function not<T extends KubeObject>(p: Predicate<T>): Predicate<T> {
  return {
    create: obj => !passes([p], 'create', obj),
    update: (old, obj) => !passes([p], 'update', obj, old),
    delete: obj => !passes([p], 'delete', obj),
  };
}

function shallowEqual(
  a: Record<string, string> = {},
  b: Record<string, string> = {},
): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every(k => a[k] === b[k]);
}

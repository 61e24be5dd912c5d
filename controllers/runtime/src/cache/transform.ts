import type { KubeObject } from '../kube/types';

/** kubectl's copy of the whole object as last applied: as large as the spec, never read by a controller. @public */
export const LAST_APPLIED_ANNOTATION =
  'kubectl.kubernetes.io/last-applied-configuration';

/**
 * What an informer applies to every object before caching it, after
 * `trimForCache` (client-go's `SetTransform`): return a copy keeping only
 * the fields the controller's reconciles and predicates read. Must not
 * modify its argument.
 *
 * @public
 */
export type CacheTransform<T extends KubeObject = KubeObject> = (obj: T) => T;

/**
 * Drops `metadata.managedFields` before caching: controllers never read
 * it, and it is often half of an object's size.
 *
 * @public
 */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * What every informer drops before caching: `managedFields` and kubectl's
 * last-applied annotation (the annotations object goes too when that was
 * its only key). Returns the input itself when there is nothing to drop.
 *
 * @public
 */
export function trimForCache<T extends KubeObject>(obj: T): T {
  const stripped = stripManagedFields(obj);
  const annotations = stripped.metadata?.annotations;
  if (!annotations || !(LAST_APPLIED_ANNOTATION in annotations)) {
    return stripped;
  }
  const { [LAST_APPLIED_ANNOTATION]: _dropped, ...rest } = annotations;
  const { annotations: _all, ...metadata } = stripped.metadata!;
  return {
    ...stripped,
    metadata: Object.keys(rest).length
      ? { ...metadata, annotations: rest }
      : metadata,
  };
}

/**
 * A transform keeping only the named top-level fields (besides
 * `apiVersion`, `kind` and `metadata`), for watched objects of which a
 * controller reads little: `keepFields('status')` for Pods whose phase
 * is all that matters.
 *
 * @public
 */
export function keepFields<T extends KubeObject>(
  ...fields: string[]
): CacheTransform<T> {
  const kept = new Set(['apiVersion', 'kind', 'metadata', ...fields]);
  return obj =>
    Object.fromEntries(
      Object.entries(obj).filter(([key]) => kept.has(key)),
    ) as T;
}

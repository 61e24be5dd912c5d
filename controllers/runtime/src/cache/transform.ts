import type { KubeObject } from '../kube/types';

/**
 * Drops `metadata.managedFields` before caching: controllers never read
 * it, and it is often half of an object's size.
 */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

import { parseApiVersion } from '../kube/resource';
import type { KubeObject, OwnerReference } from '../kube/types';
import type { IndexFunc } from './store';

/** Index name of `byOwnerIndexer`. */
export const OWNER_INDEX = 'owner';
/** Index name of `byOwnerUidIndexer`. */
export const OWNER_UID_INDEX = 'owner-uid';

/**
 * The value under which an owned object is indexed for its owner:
 * `group/Kind/namespace/name` (the version does not matter for ownership).
 */
export function ownerIndexValue(
  owner: { apiVersion: string; kind: string; name: string },
  namespace: string | undefined,
): string {
  const { group } = parseApiVersion(owner.apiVersion);
  return `${group}/${owner.kind}/${namespace ?? ''}/${owner.name}`;
}

/** Indexes an object under each of its owner references. */
export const byOwnerIndexer: IndexFunc<KubeObject> = obj =>
  (obj.metadata?.ownerReferences ?? []).map((ref: OwnerReference) =>
    ownerIndexValue(ref, obj.metadata?.namespace),
  );

/** Indexes an object under the uid of each owner. */
export const byOwnerUidIndexer: IndexFunc<KubeObject> = obj =>
  (obj.metadata?.ownerReferences ?? []).map(ref => ref.uid);

/** Index name for `byLabelIndexer(label)`. */
export function labelIndexName(label: string): string {
  return `label:${label}`;
}

/** Indexes an object by the value of one label (absent label: not indexed). */
export function byLabelIndexer(label: string): IndexFunc<KubeObject> {
  return obj => {
    const value = obj.metadata?.labels?.[label];
    return value === undefined ? [] : [value];
  };
}

/** The controller owner reference of an object, if any. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find(r => r.controller === true);
}

import { parseApiVersion } from '../kube/resource';
import type { KubeObject, OwnerReference } from '../kube/types';
import type { IndexFunc } from './store';

/** Index name of `byOwnerIndexer`. @public */
export const OWNER_INDEX = 'owner';
/** Index name of `byOwnerUidIndexer`. @public */
export const OWNER_UID_INDEX = 'owner-uid';

/**
 * The value under which an owned object is indexed for its owner:
 * `group/Kind/namespace/name` (the version does not matter for ownership).
 *
 * @public
 */
export function ownerIndexValue(
  owner: { apiVersion: string; kind: string; name: string },
  namespace: string | undefined,
): string {
  const { group } = parseApiVersion(owner.apiVersion);
  return `${group}/${owner.kind}/${namespace ?? ''}/${owner.name}`;
}

/** Indexes an object under each of its owner references. @public */
export const byOwnerIndexer: IndexFunc<KubeObject> = obj =>
  (obj.metadata?.ownerReferences ?? []).map((ref: OwnerReference) =>
    ownerIndexValue(ref, obj.metadata?.namespace),
  );

/** Indexes an object under the uid of each owner. @public */
export const byOwnerUidIndexer: IndexFunc<KubeObject> = obj =>
  (obj.metadata?.ownerReferences ?? []).map(ref => ref.uid);

/** Index name for `byLabelIndexer(label)`. @public */
export function labelIndexName(label: string): string {
  return `label:${label}`;
}

/** Indexes an object by the value of one label (absent label: not indexed). @public */
export function byLabelIndexer(label: string): IndexFunc<KubeObject> {
  return obj => {
    const value = obj.metadata?.labels?.[label];
    return value === undefined ? [] : [value];
  };
}

/** The controller owner reference of an object, if any. @public */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find(r => r.controller === true);
}

import { parseApiVersion } from '../kube/resource';
import type { KubeObject, ObjectKey } from '../kube/types';

/** What a reconcile is asked to converge: one object, by key. @public */
export type Request = ObjectKey;

/** The request for an object itself (the `for` type). @public */
export function requestFor(obj: KubeObject): Request[] {
  const name = obj.metadata?.name;
  if (!name) return [];
  return [{ namespace: obj.metadata?.namespace, name }];
}

/**
 * Requests for the owners of `obj` that are of the given group and kind.
 * With `onlyController` (the default, as controller-runtime's `Owns`) only
 * the controlling owner counts. Owners live in the object's namespace.
 *
 * @public
 */
export function ownerRequests(
  obj: KubeObject,
  owner: { group: string; kind: string },
  onlyController = true,
): Request[] {
  const refs = obj.metadata?.ownerReferences ?? [];
  return refs
    .filter(ref => !onlyController || ref.controller === true)
    .filter(
      ref =>
        ref.kind === owner.kind && safeGroup(ref.apiVersion) === owner.group,
    )
    .map(ref => ({ namespace: obj.metadata?.namespace, name: ref.name }));
}

function safeGroup(apiVersion: string): string | undefined {
  try {
    return parseApiVersion(apiVersion).group;
  } catch {
    return undefined; // a malformed owner reference matches nothing
  }
}

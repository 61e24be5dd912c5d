import type { KubeObject, ObjectKey } from './types';

/**
 * Everything needed to address a kind over REST. `group` is '' for the core
 * group. Obtain one from `resolveResource` (discovery) or write it down.
 *
 * @public
 */
export interface ResourceType {
  group: string;
  version: string;
  /** Lower-case plural used in URLs, e.g. `configmaps`. */
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** @public */
export function apiVersionOf(
  rt: Pick<ResourceType, 'group' | 'version'>,
): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

/** Splits `apps/v1` into group and version; `v1` is the core group. @public */
export function parseApiVersion(apiVersion: string): {
  group: string;
  version: string;
} {
  const parts = apiVersion.split('/');
  if (parts.length === 1 && parts[0]) return { group: '', version: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1]) {
    return { group: parts[0], version: parts[1] };
  }
  throw new Error(
    `apiVersion "${apiVersion}" is not valid: write "v1" for the core group or "group/version", e.g. "apps/v1"`,
  );
}

/** A stable identifier of the type, used to share one informer per type. @public */
export function resourceTypeId(rt: ResourceType): string {
  return `${rt.plural}.${rt.group}/${rt.version}`;
}

export interface PathOptions {
  namespace?: string;
  name?: string;
  subresource?: string;
}

/**
 * The REST path of a collection or an object. A namespaced type without a
 * namespace addresses the collection across all namespaces.
 *
 * @public
 */
export function resourcePath(rt: ResourceType, opts: PathOptions = {}): string {
  const base = rt.group
    ? `/apis/${rt.group}/${rt.version}`
    : `/api/${rt.version}`;
  const segments = [base];
  if (rt.namespaced && opts.namespace) {
    segments.push('namespaces', encodeURIComponent(opts.namespace));
  } else if (!rt.namespaced && opts.namespace) {
    throw new Error(
      `${rt.kind} is cluster-scoped: remove metadata.namespace ("${opts.namespace}")`,
    );
  }
  segments.push(rt.plural);
  if (opts.name !== undefined) {
    if (!opts.name) {
      throw new Error(`metadata.name of ${rt.kind} is empty: set a name`);
    }
    segments.push(encodeURIComponent(opts.name));
  } else if (opts.subresource) {
    throw new Error(`a subresource (${opts.subresource}) needs an object name`);
  }
  if (opts.subresource) segments.push(opts.subresource);
  return segments.join('/');
}

/** `namespace/name`, or `name` for cluster-scoped objects: the cache and queue key. @public */
export function keyOf(key: ObjectKey): string {
  return key.namespace ? `${key.namespace}/${key.name}` : key.name;
}

/** @public */
export function keyOfObject(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name) {
    throw new Error(
      'object has no metadata.name: every cached object needs one',
    );
  }
  return keyOf({ namespace: obj.metadata?.namespace, name });
}

/** @public */
export function parseKey(key: string): ObjectKey {
  const slash = key.indexOf('/');
  if (slash < 0) return { name: key };
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

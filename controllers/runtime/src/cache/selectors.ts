import type { KubeObject } from '../kube/types';

/**
 * Whether an informer with these selectors would hold `obj`: true or false
 * when the selectors are plain equalities (`a=b,c==d`; field selectors on
 * `metadata.name` and `metadata.namespace`), undefined for anything else
 * (set-based or negated terms, other fields), which callers treat as "do
 * not know".
 */
export function selectorsAdmit(
  obj: KubeObject,
  selectors: {
    namespace?: string;
    labelSelector?: string;
    fieldSelector?: string;
  },
): boolean | undefined {
  const metadata = obj.metadata ?? {};
  if (selectors.namespace && metadata.namespace !== selectors.namespace)
    return false;
  const labels = parseEqualities(selectors.labelSelector);
  const fields = parseEqualities(selectors.fieldSelector);
  if (labels === undefined || fields === undefined) return undefined;
  for (const [k, v] of labels) if (metadata.labels?.[k] !== v) return false;
  for (const [k, v] of fields) {
    if (k === 'metadata.name') {
      if (metadata.name !== v) return false;
    } else if (k === 'metadata.namespace') {
      if ((metadata.namespace ?? '') !== v) return false;
    } else return undefined;
  }
  return true;
}

/** `a=b,c==d` as pairs; undefined when any term is not a plain equality. */
function parseEqualities(
  selector: string | undefined,
): Array<[string, string]> | undefined {
  if (!selector?.trim()) return [];
  const pairs: Array<[string, string]> = [];
  for (const term of selector.split(',')) {
    const m = /^\s*([^=!\s(),]+)\s*==?\s*([^=!\s(),]*)\s*$/.exec(term);
    if (!m) return undefined;
    pairs.push([m[1], m[2]]);
  }
  return pairs;
}

/**
 * Kubernetes label selectors (`app=web,tier!=db,env in (prod,staging),!legacy`),
 * parsed once and matched against cached objects in memory. Pure.
 *
 * @public
 */

export type Requirement =
  | { key: string; op: 'in'; values: string[] }
  | { key: string; op: 'notin'; values: string[] }
  | { key: string; op: 'exists' }
  | { key: string; op: 'doesnotexist' };

/** @public */
export class LabelSelectorError extends Error {
  readonly name = 'LabelSelectorError';
}

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Splits on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  terms.push(current);
  return terms.map(t => t.trim());
}

function checkKey(key: string, term: string): string {
  if (!KEY.test(key) || key.length > 317) {
    throw new LabelSelectorError(
      `"${term}": "${key}" is not a label key; use e.g. "app" or "example.com/team"`,
    );
  }
  return key;
}

function checkValue(value: string, term: string): string {
  if (!VALUE.test(value) || value.length > 63) {
    throw new LabelSelectorError(
      `"${term}": "${value}" is not a label value (at most 63 letters, digits, '-', '_' or '.')`,
    );
  }
  return value;
}

/** Parses a selector; throws LabelSelectorError naming the bad term. An empty selector matches all. @public */
export function parseLabelSelector(selector: string): Requirement[] {
  if (selector.trim() === '') return [];
  return splitTerms(selector).map((term): Requirement => {
    if (term === '') {
      throw new LabelSelectorError(
        `empty term in "${selector}": remove the extra comma`,
      );
    }
    const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(term);
    if (set) {
      const values = set[3]
        .split(',')
        .map(v => v.trim())
        .filter(v => v !== '')
        .map(v => checkValue(v, term));
      if (values.length === 0) {
        throw new LabelSelectorError(
          `"${term}": list at least one value inside the parentheses`,
        );
      }
      return {
        key: checkKey(set[1], term),
        op: set[2] as 'in' | 'notin',
        values,
      };
    }
    const cmp = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (cmp) {
      const key = checkKey(cmp[1], term);
      const value = checkValue(cmp[3], term);
      return cmp[2] === '!='
        ? { key, op: 'notin', values: [value] }
        : { key, op: 'in', values: [value] };
    }
    if (term.startsWith('!'))
      return { key: checkKey(term.slice(1).trim(), term), op: 'doesnotexist' };
    if (/^\S+$/.test(term)) return { key: checkKey(term, term), op: 'exists' };
    throw new LabelSelectorError(
      `"${term}" is not a selector term; write key=value, key!=value, key in (a,b), key notin (a,b), key or !key`,
    );
  });
}

/** @public */
export function matchesLabels(
  requirements: Requirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return requirements.every(r => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'doesnotexist':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key]);
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
      default:
        return false;
    }
  });
}

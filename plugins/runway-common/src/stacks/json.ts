/**
 * Deep copy of JSON-like data (objects, arrays, scalars). Used instead of
 * `structuredClone`, whose arrays belong to the main realm: under a test
 * runner's VM context those fail `instanceof Array`-style checks in libraries
 * such as the CEL evaluator.
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) {
    const out: unknown[] = []; // a literal, so the copy belongs to this realm (`map` would keep the source's)
    for (const item of value) out.push(cloneJson(item));
    return out as unknown as T;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = cloneJson(item);
    return out as T;
  }
  return value;
}

/**
 * Plain JSON values, for code that walks objects of unknown shape (bodies,
 * CRD schemas, upstream objects): one definition for every package.
 */

/** A JSON object as parsed: any value per key. @public */
export type Json = Record<string, any>;

/**
 * True for a plain object (not null, not an array). The result type is the
 * caller's choice: `Record<string, unknown>` by default, `isRecord<Json>(v)`
 * where the code reads nested fields it checks itself.
 *
 * @public
 */
export function isRecord<T extends Json = Record<string, unknown>>(
  value: unknown,
): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

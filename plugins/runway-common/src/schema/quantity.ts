/**
 * Kubernetes resource quantities ("500m", "16Gi", "1e3", 4): parsing and
 * comparison, following k8s.io/apimachinery's resource.Quantity grammar.
 * Values are returned as plain numbers in base units (cores, bytes): exact
 * enough for limits and comparisons, which is all this package needs.
 */

/** The grammar Kubernetes accepts for a quantity string (the same regex controller-gen emits). @public */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const QUANTITY_RE = new RegExp(QUANTITY_PATTERN);

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** @public */
export type QuantityValue = string | number;

/** True when the value is a number or a string Kubernetes accepts as a quantity. @public */
export function isQuantity(value: unknown): value is QuantityValue {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && QUANTITY_RE.test(value);
}

/**
 * Parses a quantity into base units. Returns undefined for anything that is
 * not a valid quantity, so callers decide which message to give.
 *
 * @public
 */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !QUANTITY_RE.test(value)) return undefined;
  const match = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)$/.exec(value);
  if (!match) return undefined;
  const mantissa = Number(match[1]);
  const suffix = match[2];
  if (suffix in BINARY) return mantissa * BINARY[suffix];
  if (suffix in DECIMAL) return mantissa * DECIMAL[suffix];
  if (/^[eE]/.test(suffix)) return mantissa * 10 ** Number(suffix.slice(1));
  return undefined;
}

/**
 * Compares two quantities: negative when a < b, 0 when equal, positive when
 * a > b. Throws when either is not a quantity (validate first).
 *
 * @public
 */
export function compareQuantities(a: QuantityValue, b: QuantityValue): number {
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  if (x === undefined) throw new Error(`"${a}" is not a Kubernetes quantity`);
  if (y === undefined) throw new Error(`"${b}" is not a Kubernetes quantity`);
  // Relative tolerance: "1Gi" and "1073741824" must compare equal despite float math.
  const tolerance = Math.max(Math.abs(x), Math.abs(y)) * 1e-12;
  if (Math.abs(x - y) <= tolerance) return 0;
  return x < y ? -1 : 1;
}

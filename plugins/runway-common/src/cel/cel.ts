/**
 * CEL (Common Expression Language) for selection and compatibility rules.
 *
 * Library: @marcbachmann/cel-js (see the package README for why). This
 * wrapper adds what the rules need: programs compiled once and cached by
 * source text, JSON converted to CEL's types (whole numbers are CEL `int`, as
 * the API server does for integer fields), and evaluation that never throws:
 * every failure comes back as `{ ok: false, error }` naming the problem.
 */
import { Environment } from '@marcbachmann/cel-js';

/** @public */
export type CelOutcome<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; error: string };

/** @public */
export interface CelProgram {
  readonly source: string;
  /** Set when the expression does not parse or type-check; evaluation then always fails with it. */
  readonly compileError?: string;
  evaluate(variables: Record<string, unknown>): CelOutcome;
}

// Variables are not declared up front: rules see whatever the caller binds (`spec`, `self`, ...).
const environment = new Environment({
  unlistedVariablesAreDyn: true,
  homogeneousAggregateLiterals: false,
  limits: {
    maxAstNodes: 2000,
    maxDepth: 50,
    maxListElements: 1000,
    maxMapEntries: 1000,
    maxCallArguments: 32,
  },
});

const MAX_CACHED_PROGRAMS = 1000;
const cache = new Map<string, CelProgram>();

function describeError(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  // The library appends a source excerpt on following lines; the first line says what is wrong.
  return text.split('\n')[0].trim();
}

/**
 * Converts JSON (as read from the API server) into values CEL understands:
 * whole numbers become `int` (bigint), everything else is kept.
 *
 * @public
 */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number')
    return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toCel(item);
    return out;
  }
  return value;
}

/** Converts a CEL result back to JSON-friendly values (bigint → number). @public */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) {
    return Object.fromEntries(
      [...value.entries()].map(([k, v]) => [String(k), fromCel(v)]),
    );
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fromCel(v)]),
    );
  }
  return value;
}

function build(source: string): CelProgram {
  try {
    const program = environment.parse(source);
    return {
      source,
      evaluate(variables) {
        try {
          return { ok: true, value: program(variables) };
        } catch (e) {
          return { ok: false, error: describeError(e) };
        }
      },
    };
  } catch (e) {
    const compileError = `invalid CEL expression: ${describeError(e)}`;
    return {
      source,
      compileError,
      evaluate: () => ({ ok: false, error: compileError }),
    };
  }
}

/** Compiles an expression once; later calls with the same text reuse the program. @public */
export function compileCel(source: string): CelProgram {
  let program = cache.get(source);
  if (!program) {
    program = build(source);
    // Rules come from cluster objects: bound the cache so changing rules cannot grow it forever.
    if (cache.size >= MAX_CACHED_PROGRAMS)
      cache.delete(cache.keys().next().value as string);
    cache.set(source, program);
  }
  return program;
}

/**
 * Evaluates an expression with variables that are already CEL values
 * (see `toCel`). Never throws.
 *
 * @public
 */
export function evaluateCel(
  source: string,
  celVariables: Record<string, unknown>,
): CelOutcome {
  return compileCel(source).evaluate(celVariables);
}

/**
 * Evaluates a condition: the result must be a bool. Anything else (a
 * compile error, a missing field, a non-bool result) is `{ ok: false }`
 * with a message, so a broken rule is skipped, never fatal.
 *
 * @public
 */
export function evaluateCondition(
  source: string,
  celVariables: Record<string, unknown>,
): CelOutcome<boolean> {
  const outcome = evaluateCel(source, celVariables);
  if (!outcome.ok) return outcome;
  if (typeof outcome.value !== 'boolean') {
    const got =
      typeof outcome.value === 'bigint' ? 'int' : typeof outcome.value;
    return {
      ok: false,
      error: `condition must evaluate to a bool, got ${got}`,
    };
  }
  return { ok: true, value: outcome.value };
}

/** How many distinct expressions have been compiled (and are cached); the benchmark uses it to show nothing recompiles. @public */
export function compiledProgramCount(): number {
  return cache.size;
}

/** A compile-time check for forms and validators: undefined when the expression parses. @public */
export function celSyntaxError(source: string): string | undefined {
  return compileCel(source).compileError;
}

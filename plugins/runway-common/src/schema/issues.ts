/**
 * The result shape every validator of this package returns: a flat list of
 * issues, each naming the field it is about, so a form can show the message
 * next to the field and an API can return it as is.
 */

/** One problem found in an object. @public */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `spec.resources.gpu.count` or `spec.env[0].name`. */
  path: string;
  /** What is wrong and how to fix it. */
  message: string;
  /** Errors make the object invalid; warnings are advice and never block. */
  severity: 'error' | 'warning';
}

/** @public */
export interface ValidationResult {
  /** True when no issue has severity `error`. */
  valid: boolean;
  issues: ValidationIssue[];
}

/** @public */
export function error(path: string, message: string): ValidationIssue {
  return { path, message, severity: 'error' };
}

/** @public */
export function warning(path: string, message: string): ValidationIssue {
  return { path, message, severity: 'warning' };
}

/** Wraps issues into a result; `valid` is derived, never set by hand. @public */
export function toResult(issues: ValidationIssue[]): ValidationResult {
  return { valid: !issues.some(i => i.severity === 'error'), issues };
}

/** Combines results (e.g. structural check + semantic rules) into one. @public */
export function mergeResults(...results: ValidationResult[]): ValidationResult {
  return toResult(results.flatMap(r => r.issues));
}

/** @public */
export function errorsOf(result: ValidationResult): ValidationIssue[] {
  return result.issues.filter(i => i.severity === 'error');
}

/** @public */
export function warningsOf(result: ValidationResult): ValidationIssue[] {
  return result.issues.filter(i => i.severity === 'warning');
}

/** Joins a parent path and a child key or index into the dotted form used in issues. @public */
export function joinPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
  if (!plain) return `${parent}[${JSON.stringify(key)}]`;
  return parent ? `${parent}.${key}` : key;
}

/** The issues without repeats (two checks may report the same thing), in their first order. @public */
export function dedupeIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter(i => {
    const key = `${i.severity}|${i.path}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

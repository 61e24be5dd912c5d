/**
 * A react-hook-form resolver over runway-common's validation: errors block
 * (and show on their fields), warnings never do (the form shows them from
 * the same validation directly). Pure apart from what RHF passes in.
 */
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { FieldIssue } from '../../lib/form';

/** Nests issues by their field's dotted name, the shape RHF reads with `get(errors, name)`. */
export function toFieldErrors<V extends FieldValues>(
  issues: FieldIssue[],
): FieldErrors<V> {
  const errors: Record<string, any> = {};
  for (const issue of issues) {
    if (issue.severity !== 'error') continue;
    const parts = issue.field.split('.');
    let node = errors;
    for (const part of parts.slice(0, -1)) {
      if (
        typeof node[part] !== 'object' ||
        node[part] === null ||
        'message' in node[part]
      )
        node[part] = {};
      node = node[part];
    }
    const leaf = parts[parts.length - 1];
    const existing = node[leaf];
    if (existing && typeof existing.message === 'string') {
      existing.message = `${existing.message}; ${issue.message}`;
    } else {
      node[leaf] = { type: 'validation', message: issue.message };
    }
  }
  return errors as FieldErrors<V>;
}

/** The resolver of a form validated by `validate` (runway-common's validation of the object the values describe). */
export function issuesResolver<V extends FieldValues>(
  validate: (values: V) => FieldIssue[],
): Resolver<V> {
  return async values => {
    const errors = toFieldErrors<V>(validate(values));
    return Object.keys(errors).length
      ? { values: {}, errors }
      : { values, errors: {} };
  };
}

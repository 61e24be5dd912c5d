/**
 * A react-hook-form resolver over runway-common's validation: errors block
 * (and show on their fields), warnings never do (the form shows them from
 * `validateWizard` directly). Pure apart from what RHF passes in.
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  type FieldIssue,
  type FormContext,
  validateWizard,
  type WizardValues,
} from '../../lib/form';

/** Nests issues by their field's dotted name, the shape RHF reads with `get(errors, name)`. */
export function toFieldErrors(issues: FieldIssue[]): FieldErrors<WizardValues> {
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
  return errors as FieldErrors<WizardValues>;
}

export const wizardResolver: Resolver<WizardValues, FormContext> = async (
  values,
  context,
) => {
  const issues = validateWizard(values, context ?? {});
  const errors = toFieldErrors(issues);
  return Object.keys(errors).length
    ? { values: {}, errors }
    : { values, errors: {} };
};

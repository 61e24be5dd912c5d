import {
  DEPLOYMENT_FORM,
  DEPLOYMENT_FORM_EDITORS,
  DEPLOYMENT_FORM_FIELDS,
  DEPLOYMENT_FORM_STEPS,
} from './form';
import { schemaAt } from '../schema/form';
import { ModelDeploymentSchema, ModelDeploymentSpecSchema } from './schema';

/** Whether the schema has `path` (below `spec.`): a free-form object takes any key. */
function inSchema(schema: any, path: string[]): boolean {
  if (path.length === 0) return true;
  if (
    schema?.['x-kubernetes-preserve-unknown-fields'] === true &&
    !schema.properties
  )
    return true;
  if (schema?.additionalProperties && !schema.properties) return true;
  const next = schema?.properties?.[path[0]];
  return next !== undefined && inSchema(next, path.slice(1));
}

describe('the deployment form, described once', () => {
  it('edits only fields the ModelDeployment schema has', () => {
    const specPaths = [
      ...[...DEPLOYMENT_FORM_FIELDS].filter(f => f.startsWith('spec.')),
      ...Object.values(DEPLOYMENT_FORM_EDITORS).filter(
        (p): p is NonNullable<typeof p> => !!p && p.startsWith('spec.'),
      ),
    ];
    const missing = specPaths.filter(
      p => !inSchema(ModelDeploymentSpecSchema, p.split('.').slice(1)),
    );
    expect(missing).toEqual([]);
  });

  it('has every editor in a step, each field once, and ends with the review', () => {
    for (const editor of Object.keys(DEPLOYMENT_FORM_EDITORS))
      expect(DEPLOYMENT_FORM_FIELDS).toContain(editor);
    const all = DEPLOYMENT_FORM_STEPS.flatMap(s => s.fields);
    expect(new Set(all).size).toBe(all.length);
    expect(DEPLOYMENT_FORM_STEPS[DEPLOYMENT_FORM_STEPS.length - 1]).toEqual({
      label: 'Review',
      fields: [],
    });
  });

  it('describes every field of a step, on a field the schema has', () => {
    expect(Object.keys(DEPLOYMENT_FORM).sort()).toEqual(
      [...DEPLOYMENT_FORM_FIELDS].sort(),
    );
    const missing = Object.values(DEPLOYMENT_FORM).filter(
      f => f.schemaPath && !schemaAt(ModelDeploymentSchema, f.schemaPath),
    );
    expect(missing).toEqual([]);
    for (const [editor, path] of Object.entries(DEPLOYMENT_FORM_EDITORS))
      expect(DEPLOYMENT_FORM[editor as 'env'].schemaPath).toBe(path);
    expect(DEPLOYMENT_FORM['spec.scaling.replicas'].input).toBe('number');
    expect(DEPLOYMENT_FORM.env.input).toBe('keyValue');
  });
});

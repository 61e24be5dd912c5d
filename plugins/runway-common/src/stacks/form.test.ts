import { schemaAt } from '../schema/form';
import { STACK_FORM, STACK_FORM_SECTIONS } from './form';
import { StackV1alpha2Schema } from './v1alpha2';

describe('the stack form, described once', () => {
  it('edits only fields the LlamaStackDistribution v1alpha2 schema has', () => {
    const missing = Object.values(STACK_FORM).filter(
      f => f.schemaPath && !schemaAt(StackV1alpha2Schema, f.schemaPath),
    );
    expect(missing).toEqual([]);
  });

  it('shows every field in exactly one section', () => {
    const shown = STACK_FORM_SECTIONS.flatMap(s => s.fields);
    expect(new Set(shown).size).toBe(shown.length);
    expect([...shown].sort()).toEqual(Object.keys(STACK_FORM).sort());
  });

  it("takes inputs and options from the schema's types and enums", () => {
    expect(STACK_FORM['spec.storage.kv.type']).toMatchObject({
      input: 'select',
      options: [
        { value: 'sqlite', label: 'sqlite' },
        { value: 'redis', label: 'redis' },
      ],
    });
    expect(STACK_FORM['spec.networking.port'].input).toBe('number');
    expect(STACK_FORM['model.contextLength'].input).toBe('number');
    expect(STACK_FORM['spec.workload.resources.requests.cpu'].input).toBe(
      'text',
    );
    expect(STACK_FORM['provider.provider'].required).toBe(true);
    expect(STACK_FORM['provider.id'].required).toBe(false);
  });
});

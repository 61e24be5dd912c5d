import { Type } from '@sinclair/typebox';
import { describeFormFields, schemaAt } from './form';
import { StringEnum, StringMap } from './kinds';

const Thing = Type.Object({
  spec: Type.Object({
    mode: StringEnum(['a', 'b'], { description: 'The mode.' }),
    count: Type.Optional(Type.Integer({ description: 'How many.' })),
    on: Type.Optional(Type.Boolean()),
    tags: Type.Optional(StringMap()),
    rows: Type.Optional(
      Type.Array(Type.Object({ name: Type.String() }, { required: ['name'] })),
    ),
  }),
});

describe('form fields from the schema', () => {
  it('finds nested fields, through arrays, with whether the parent requires them', () => {
    expect(schemaAt(Thing, 'spec.mode')?.required).toBe(true);
    expect(schemaAt(Thing, 'spec.count')?.required).toBe(false);
    expect(schemaAt(Thing, 'spec.rows.name')?.required).toBe(true);
    expect(schemaAt(Thing, 'spec.nothing')).toBeUndefined();
  });

  it('derives the input, options and help; the form states the rest', () => {
    const fields = describeFormFields(Thing, {
      'spec.mode': { label: 'Mode' },
      'spec.count': { label: 'Count', moreHelp: 'Zero for none.' },
      'spec.on': { label: 'On', help: 'Switch it on.' },
      tagList: { label: 'Tags', schemaPath: 'spec.tags' },
      cluster: { label: 'Cluster', schemaPath: null, input: 'select' },
    });
    expect(fields['spec.mode']).toMatchObject({
      input: 'select',
      help: 'The mode.',
      required: true,
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
      ],
    });
    expect(fields['spec.count']).toMatchObject({
      input: 'number',
      help: 'How many. Zero for none.',
      required: false,
    });
    expect(fields['spec.on']).toMatchObject({
      input: 'switch',
      help: 'Switch it on.',
    });
    expect(fields.tagList).toMatchObject({
      input: 'keyValue',
      schemaPath: 'spec.tags',
    });
    expect(fields.cluster).toMatchObject({
      schemaPath: undefined,
      required: false,
    });
  });

  it('names the field when the schema has no such path', () => {
    expect(() =>
      describeFormFields(Thing, { 'spec.mood': { label: 'Mood' } }),
    ).toThrow(/form field spec.mood: the schema has no field spec.mood/);
  });
});

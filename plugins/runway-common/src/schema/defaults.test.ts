import { Type } from '@sinclair/typebox';
import { applySchemaDefaults } from './defaults';
import { StringEnum } from './kinds';

const Schema = Type.Object({
  mode: Type.Optional(StringEnum(['a', 'b'] as const, { default: 'a' })),
  nested: Type.Optional(
    Type.Object({ count: Type.Optional(Type.Integer({ default: 0 })) }),
  ),
  created: Type.Optional(
    Type.Object(
      { flag: Type.Optional(Type.Boolean({ default: true })) },
      { default: {} },
    ),
  ),
  list: Type.Optional(
    Type.Array(
      Type.Object({ on: Type.Optional(Type.Boolean({ default: false })) }),
    ),
  ),
  map: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({ n: Type.Optional(Type.Integer({ default: 1 })) }),
    ),
  ),
});

describe('applySchemaDefaults', () => {
  it('applies defaults like the API server: nested ones only inside present objects', () => {
    expect(applySchemaDefaults(Schema, {})).toEqual({
      mode: 'a',
      created: { flag: true },
    });
    expect(
      applySchemaDefaults(Schema, {
        nested: {},
        list: [{}, { on: true }],
        map: { x: {} },
      }),
    ).toEqual({
      mode: 'a',
      nested: { count: 0 },
      created: { flag: true },
      list: [{ on: false }, { on: true }],
      map: { x: { n: 1 } },
    });
  });

  it('keeps given values and never modifies the input', () => {
    const input = { mode: 'b', nested: { count: 3 } };
    const out = applySchemaDefaults(Schema, input);
    expect(out).toEqual({
      mode: 'b',
      nested: { count: 3 },
      created: { flag: true },
    });
    expect(input).toEqual({ mode: 'b', nested: { count: 3 } });
    expect(out.nested).not.toBe(input.nested);
  });

  it('leaves values of the wrong shape alone', () => {
    expect(
      applySchemaDefaults(Schema, { nested: 'x', list: 5 } as any),
    ).toEqual({ mode: 'a', nested: 'x', list: 5, created: { flag: true } });
    expect(applySchemaDefaults(Schema, null as any)).toBeNull();
  });
});

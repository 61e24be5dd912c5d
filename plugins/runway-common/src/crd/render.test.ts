import { Type } from '@sinclair/typebox';
import { parse } from 'yaml';
import {
  ConditionList,
  FreeForm,
  IntOrString,
  Quantity,
  StringEnum,
  StringMap,
  celRules,
  typeMetaProperties,
} from '../schema';
import { SHARED_SCHEMAS } from '../schema/meta';
import type { CrdDefinition } from './definition';
import { crdYaml } from './files';
import { CrdSchemaError, renderCrd, renderSchema } from './renderCrd';
import { renderTypes } from './renderTypes';

const Widget = Type.Object(
  {
    ...typeMetaProperties(),
    spec: Type.Object(
      {
        size: Type.Integer({
          minimum: 1,
          maximum: 10,
          default: 1,
          description: 'How big.',
        }),
        colour: Type.Optional(
          StringEnum(['red', 'blue'] as const, { default: 'red' }),
        ),
        memory: Type.Optional(Quantity()),
        port: Type.Optional(IntOrString()),
        labels: Type.Optional(StringMap()),
        extra: Type.Optional(FreeForm()),
        parts: Type.Optional(
          Type.Array(
            Type.Object({ name: Type.String() }, { $id: 'WidgetPart' }),
          ),
        ),
        mode: Type.Optional(Type.Literal('fixed')),
      },
      celRules({
        rule: 'self.size < 5 || has(self.memory)',
        message: 'big widgets need memory',
      }),
    ),
    status: Type.Optional(
      Type.Object({ conditions: Type.Optional(ConditionList()) }),
    ),
  },
  { $id: 'WidgetRoot' },
);

const def: CrdDefinition = {
  group: 'example.runway.dev',
  names: {
    kind: 'Widget',
    plural: 'widgets',
    singular: 'widget',
    shortNames: ['wd'],
    categories: ['runway'],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: Widget,
      printerColumns: [
        { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      ],
      subresources: { status: true },
    },
  ],
};

describe('renderCrd', () => {
  const crd = renderCrd(def);
  const schema = crd.spec.versions[0].schema.openAPIV3Schema;
  const spec = schema.properties.spec;

  it('names the CRD <plural>.<group> with list kind, short names and categories', () => {
    expect(crd.metadata.name).toBe('widgets.example.runway.dev');
    expect(crd.spec.names).toEqual({
      kind: 'Widget',
      listKind: 'WidgetList',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      categories: ['runway'],
    });
  });

  it('renders metadata as a plain object and drops TypeBox-only keys', () => {
    expect(schema.properties.metadata).toEqual({ type: 'object' });
    expect(JSON.stringify(schema)).not.toContain('$id');
    expect(JSON.stringify(schema)).not.toContain('patternProperties');
    expect(JSON.stringify(schema)).not.toContain('"const"');
  });

  it('keeps defaults, ranges, enums and CEL rules', () => {
    expect(spec.properties.size).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 10,
      default: 1,
      description: 'How big.',
    });
    expect(spec.properties.colour).toEqual({
      type: 'string',
      enum: ['red', 'blue'],
      default: 'red',
    });
    expect(spec['x-kubernetes-validations']).toEqual([
      {
        rule: 'self.size < 5 || has(self.memory)',
        message: 'big widgets need memory',
      },
    ]);
    expect(spec.required).toEqual(['size']);
    expect(spec.properties.mode).toEqual({ type: 'string', enum: ['fixed'] });
  });

  it('renders quantities and int-or-string the way Kubernetes expects', () => {
    expect(spec.properties.memory).toMatchObject({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(spec.properties.memory.pattern).toContain('[KMGTPE]i');
    expect(spec.properties.port).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });

  it('renders maps as additionalProperties and free-form objects as preserve-unknown-fields', () => {
    expect(spec.properties.labels).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(spec.properties.extra).toEqual({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('renders conditions as a map list keyed by type', () => {
    const conditions = schema.properties.status.properties.conditions;
    expect(conditions['x-kubernetes-list-type']).toBe('map');
    expect(conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
    expect(conditions.items.required).toEqual([
      'type',
      'status',
      'lastTransitionTime',
      'reason',
      'message',
    ]);
  });

  it('renders printer columns and the status subresource', () => {
    expect(crd.spec.versions[0].additionalPrinterColumns).toEqual([
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    ]);
    expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
  });

  it('writes YAML that parses back to the same object', () => {
    const text = crdYaml(def);
    expect(text.startsWith('# Generated by `yarn generate`')).toBe(true);
    expect(parse(text)).toEqual(crd);
  });

  it.each([
    ['an untyped field', Type.Object({ a: Type.Unknown() }), 'a: every field'],
    [
      'a union of objects',
      Type.Object({
        a: Type.Union([
          Type.Object({ x: Type.String() }),
          Type.Object({ y: Type.String() }),
        ]),
      }),
      'a.anyOf[0]: "type" is not allowed',
    ],
    [
      'a tuple',
      Type.Object({ t: Type.Tuple([Type.String(), Type.Number()]) }),
      't: tuples cannot be expressed',
    ],
  ])('rejects %s with the field path', (_name, bad, message) => {
    expect(() => renderSchema(bad)).toThrow(CrdSchemaError);
    expect(() => renderSchema(bad)).toThrow(message);
  });

  it('renders a nullable union as nullable', () => {
    expect(
      renderSchema(Type.Object({ a: Type.Union([Type.String(), Type.Null()]) }))
        .properties.a,
    ).toEqual({ type: 'string', nullable: true });
  });

  it('requires exactly one storage version', () => {
    const twoStorage = {
      ...def,
      versions: [def.versions[0], { ...def.versions[0], name: 'v2' }],
    };
    expect(() => renderCrd(twoStorage)).toThrow(
      'exactly one version must be the storage version (found 2)',
    );
  });
});

describe('renderTypes', () => {
  const source = renderTypes(def, SHARED_SCHEMAS);

  it('declares the root type, named sub-schemas and imports shared ones', () => {
    expect(source).toContain(
      "import type { Condition, ObjectMeta } from './common';",
    );
    expect(source).toContain(
      "export const widgetApiVersion = 'example.runway.dev/v1';",
    );
    expect(source).toContain('export interface Widget {');
    expect(source).toContain('export interface WidgetPart {');
    expect(source).toContain('parts?: WidgetPart[];');
    expect(source).toContain('metadata?: ObjectMeta;');
    expect(source).toContain('conditions?: Condition[];');
  });

  it('maps enums, quantities, maps and free-form objects to TypeScript', () => {
    expect(source).toContain('colour?: "red" | "blue";');
    expect(source).toContain('memory?: number | string;');
    expect(source).toContain('labels?: Record<string, string>;');
    expect(source).toContain('extra?: Record<string, unknown>;');
    expect(source).toContain('mode?: "fixed";');
    expect(source).toMatch(
      /\/\*\*\n\s+\* How big\.\n\s+\* @defaultValue `1`\n\s+\*\/\n\s+size: number;/,
    );
  });

  it('suffixes root names with the version when a CRD has several versions', () => {
    const multi = renderTypes({
      ...def,
      versions: [
        def.versions[0],
        {
          ...def.versions[0],
          name: 'v2',
          storage: false,
          schema: Type.Object({ spec: Type.Object({ size: Type.Integer() }) }),
        },
      ],
    });
    expect(multi).toContain('export interface WidgetV1 {');
    expect(multi).toContain('export interface WidgetV2 {');
  });

  it('refuses two different schemas with the same $id', () => {
    const clash: CrdDefinition = {
      ...def,
      versions: [
        {
          ...def.versions[0],
          schema: Type.Object({
            a: Type.Object({ x: Type.String() }, { $id: 'Same' }),
            b: Type.Object({ y: Type.String() }, { $id: 'Same' }),
          }),
        },
      ],
    };
    expect(() => renderTypes(clash)).toThrow(
      'Two different schemas are both named "Same"',
    );
  });
});

import { Type } from '@sinclair/typebox';
import { FreeForm, Quantity, StringEnum, StringMap } from './kinds';
import { ConditionList } from './meta';
import { conforms, pointerToPath, structuralIssues } from './structural';

const Schema = Type.Object({
  spec: Type.Object({
    model: Type.Object({
      id: Type.String({ minLength: 1 }),
      source: Type.Optional(StringEnum(['huggingface', 'custom'] as const)),
    }),
    gpu: Type.Optional(
      Type.Object({
        count: Type.Integer({ minimum: 0, maximum: 64 }),
        memory: Type.Optional(Quantity()),
      }),
    ),
    args: Type.Optional(StringMap()),
    extra: Type.Optional(FreeForm()),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })),
    since: Type.Optional(Type.String({ format: 'date-time' })),
  }),
  status: Type.Optional(
    Type.Object({ conditions: Type.Optional(ConditionList()) }),
  ),
});

describe('structuralIssues', () => {
  it('accepts a valid object', () => {
    const value = {
      spec: {
        model: { id: 'm' },
        gpu: { count: 2, memory: '16Gi' },
        extra: { any: { thing: 1 } },
      },
    };
    expect(structuralIssues(Schema, value)).toEqual([]);
    expect(conforms(Schema, value)).toBe(true);
  });

  it.each([
    [{ spec: { model: {} } }, 'spec.model.id', 'spec.model.id is required'],
    [
      { spec: { model: { id: '' } } },
      'spec.model.id',
      'spec.model.id must not be empty',
    ],
    [
      { spec: { model: { id: 'm', source: 'x' } } },
      'spec.model.source',
      'spec.model.source must be one of: huggingface, custom (got "x")',
    ],
    [
      { spec: { model: { id: 'm' }, gpu: { count: '2' } } },
      'spec.gpu.count',
      'spec.gpu.count must be a whole number (got "2")',
    ],
    [
      { spec: { model: { id: 'm' }, gpu: { count: 1.5 } } },
      'spec.gpu.count',
      'spec.gpu.count must be a whole number (got number 1.5)',
    ],
    [
      { spec: { model: { id: 'm' }, gpu: { count: 65 } } },
      'spec.gpu.count',
      'spec.gpu.count must be at most 64 (got number 65)',
    ],
    [
      { spec: { model: { id: 'm' }, gpu: { count: -1 } } },
      'spec.gpu.count',
      'spec.gpu.count must be at least 0 (got number -1)',
    ],
    [
      { spec: { model: { id: 'm' }, gpu: { count: 1, memory: '16GB' } } },
      'spec.gpu.memory',
      'spec.gpu.memory must be a Kubernetes quantity such as 4, 500m or 16Gi (got "16GB")',
    ],
    [
      { spec: { model: { id: 'm' }, args: { a: 1 } } },
      'spec.args.a',
      'spec.args.a must be a string (got number 1)',
    ],
    [
      { spec: { model: { id: 'm' }, extra: [] } },
      'spec.extra',
      'spec.extra must be an object (got a list)',
    ],
    [
      { spec: { model: { id: 'm' }, tags: ['a', 'b', 'c'] } },
      'spec.tags',
      'spec.tags must have at most 2 items (got 3)',
    ],
    [
      { spec: { model: { id: 'm' }, since: 'yesterday' } },
      'spec.since',
      'spec.since must be an RFC 3339 timestamp such as 2025-01-31T12:00:00Z (got "yesterday")',
    ],
    [
      {
        spec: { model: { id: 'm' } },
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'Maybe',
              reason: 'R',
              message: '',
              lastTransitionTime: '2025-01-01T00:00:00Z',
            },
          ],
        },
      },
      'status.conditions[0].status',
      'status.conditions[0].status must be one of: True, False, Unknown (got "Maybe")',
    ],
    [5, '(root)', '(root) must be an object (got number 5)'],
  ])('reports %j at %s', (value, path, message) => {
    const issues = structuralIssues(Schema, value);
    expect(issues).toContainEqual({ path, message, severity: 'error' });
  });

  it('reports a missing field once, not also as a wrong type', () => {
    expect(structuralIssues(Schema, { spec: { model: {} } })).toHaveLength(1);
  });

  it('warns about unknown fields, and not inside maps or free-form objects', () => {
    const issues = structuralIssues(Schema, {
      spec: {
        model: { id: 'm', modelId: 'x' },
        args: { anything: 'ok' },
        extra: { whatever: 1 },
      },
    });
    expect(issues).toEqual([
      {
        path: 'spec.model.modelId',
        message:
          'spec.model.modelId is not a known field and would be dropped by the API server; check its spelling or remove it',
        severity: 'warning',
      },
    ]);
  });

  it('prefixes paths with a base path', () => {
    expect(
      structuralIssues(Schema.properties.spec, { model: {} }, 'spec'),
    ).toEqual([
      {
        path: 'spec.model.id',
        message: 'spec.model.id is required',
        severity: 'error',
      },
    ]);
  });
});

describe('pointerToPath', () => {
  it.each([
    ['', '', ''],
    ['/spec/env/0/name', '', 'spec.env[0].name'],
    ['/metadata/annotations/a.b~1c', '', 'metadata.annotations["a.b/c"]'],
    ['/count', 'spec.gpu', 'spec.gpu.count'],
  ])('%s under %s is %s', (pointer, base, path) => {
    expect(pointerToPath(pointer, base)).toBe(path);
  });
});

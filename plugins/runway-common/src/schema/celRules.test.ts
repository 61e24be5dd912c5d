import { Type } from '@sinclair/typebox';
import { celRules, Int32 } from './kinds';
import { celRuleIssues, collectCelRules } from './celRules';

const Item = Type.Object(
  { name: Type.String(), size: Int32() },
  celRules({
    rule: 'self.size <= 10',
    message: 'size is at most 10',
    fieldPath: '.size',
  }),
);
const Schema = Type.Object(
  {
    min: Int32(),
    max: Int32(),
    items: Type.Optional(
      Type.Array(Item, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      }),
    ),
    labels: Type.Optional(
      Type.Record(
        Type.String(),
        Type.String(
          celRules({
            rule: 'size(self) < 5',
            messageExpression: "'label ' + self + ' is too long'",
          }),
        ),
      ),
    ),
    frozen: Type.Optional(
      Type.Object(
        { value: Type.String() },
        celRules({
          rule: 'self.value == oldSelf.value',
          message: 'frozen.value is immutable',
        }),
      ),
    ),
    broken: Type.Optional(
      Type.Object(
        { a: Type.String() },
        celRules({ rule: 'self.nothing == 1', message: 'never' }),
      ),
    ),
  },
  celRules({
    rule: 'self.min <= self.max',
    message: 'min must not exceed max',
    fieldPath: '.min',
  }),
);

describe('celRuleIssues', () => {
  it('passes a valid value', () => {
    expect(
      celRuleIssues(
        Schema,
        { min: 1, max: 2, items: [{ name: 'a', size: 3 }], labels: { a: 'b' } },
        'spec',
      ),
    ).toEqual([]);
  });

  it('reports failing rules at their field path, with message or messageExpression', () => {
    const issues = celRuleIssues(
      Schema,
      {
        min: 5,
        max: 2,
        items: [
          { name: 'a', size: 1 },
          { name: 'b', size: 11 },
        ],
        labels: { long: 'abcdefgh' },
      },
      'spec',
    );
    expect(issues).toEqual([
      {
        path: 'spec.min',
        message: 'min must not exceed max',
        severity: 'error',
      },
      {
        path: 'spec.items[1].size',
        message: 'size is at most 10',
        severity: 'error',
      },
      {
        path: 'spec.labels.long',
        message: 'label abcdefgh is too long',
        severity: 'error',
      },
    ]);
  });

  it('runs transition rules only when an old value is given', () => {
    const next = { min: 1, max: 2, frozen: { value: 'b' } };
    expect(celRuleIssues(Schema, next, 'spec')).toEqual([]);
    expect(
      celRuleIssues(Schema, next, 'spec', {
        oldValue: { min: 1, max: 2, frozen: { value: 'a' } },
      }),
    ).toEqual([
      {
        path: 'spec.frozen',
        message: 'frozen.value is immutable',
        severity: 'error',
      },
    ]);
    // A node that did not exist before has no old value: the rule does not run.
    expect(
      celRuleIssues(Schema, next, 'spec', { oldValue: { min: 1, max: 2 } }),
    ).toEqual([]);
  });

  it('skips rules it cannot evaluate and tells the caller', () => {
    const errors: string[] = [];
    const issues = celRuleIssues(
      Schema,
      { min: 1, max: 2, broken: { a: 'x' } },
      'spec',
      {
        onError: (path, rule, error) =>
          errors.push(`${path}: ${rule.rule}: ${error}`),
      },
    );
    expect(issues).toEqual([]);
    expect(errors).toEqual([
      'spec.broken: self.nothing == 1: No such key: nothing',
    ]);
  });

  it('lists every rule with where it applies', () => {
    expect(collectCelRules(Schema).map(r => r.path)).toEqual([
      '',
      'items[]',
      'labels.*',
      'frozen',
      'broken',
    ]);
  });
});

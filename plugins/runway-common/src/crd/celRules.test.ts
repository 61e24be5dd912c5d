import { celSyntaxError } from '../cel/cel';
import { collectCelRules } from '../schema/celRules';
import { ALL_CRDS } from './all';

const rules = ALL_CRDS.flatMap(def =>
  def.versions.flatMap(version =>
    collectCelRules(version.schema).map(
      ({ path, rule }) =>
        [
          `${def.names.kind} ${version.name} ${path || '(root)'}: ${rule.rule}`,
          rule.rule,
        ] as const,
    ),
  ),
);

describe('CEL rules of every CRD', () => {
  it('there are rules to check', () => {
    expect(rules.length).toBeGreaterThan(5);
  });

  // The same rule text runs locally (forms, webhooks) and in the API server: it must at least parse here.
  it.each(rules)('%s parses', (_name, rule) => {
    expect(celSyntaxError(rule)).toBeUndefined();
  });
});

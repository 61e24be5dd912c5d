/**
 * Provider compatibility: each provider's own CEL rules (registered in its
 * InferenceProviderConfig, see providers.ts), evaluated on a spec. Provider
 * controllers set ProviderCompatible from this; the webhook and forms can
 * call it early when the provider is named.
 */
import { evaluateCondition, toCel } from '../cel/cel';
import { error, type ValidationIssue, warning } from '../schema/issues';
import type { InferenceProviderConfig, ModelDeploymentSpec } from './types';

/**
 * Issues for every compatibility rule of `provider` that `spec` breaks (use
 * the resolved spec: defaults applied, engine selected). A rule that cannot
 * be evaluated becomes a warning naming the rule, so a broken registration is
 * visible without blocking deployments.
 *
 * @public
 */
export function checkProviderCompatibility(
  spec: ModelDeploymentSpec,
  provider: InferenceProviderConfig,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const celSpec = toCel(spec);
  const name = provider.metadata?.name ?? 'provider';
  for (const [i, rule] of (provider.spec?.compatibilityRules ?? []).entries()) {
    const outcome = evaluateCondition(rule.rule, { spec: celSpec });
    const path = rule.fieldPath ?? 'spec';
    if (!outcome.ok) {
      issues.push(
        warning(
          path,
          `compatibility rule ${i} of provider ${name} could not be evaluated (${outcome.error}); fix the rule in InferenceProviderConfig ${name}`,
        ),
      );
    } else if (!outcome.value) {
      issues.push(
        rule.severity === 'warning'
          ? warning(path, rule.message)
          : error(path, rule.message),
      );
    }
  }
  return issues;
}

/**
 * Evaluates a schema's `x-kubernetes-validations` (the CEL rules the API
 * server enforces for a CRD) on a value, locally. The same rule text is
 * rendered into the CRD and checked here, so a form or a webhook reports
 * exactly what the API server would, with the rule's own message, and the
 * rules exist in one place only.
 */
import type { TSchema } from '@sinclair/typebox';
import { evaluateCel, evaluateCondition, toCel } from '../cel/cel';
import type { CelRule } from './kinds';
import { error, joinPath, type ValidationIssue } from './issues';
import { isRecord, type Json } from './json';

/** @public */
export interface CelRuleOptions {
  /** The previous version of the value (on update); enables transition rules (`oldSelf`). */
  oldValue?: unknown;
  /**
   * Called when a rule cannot be evaluated locally (e.g. a Kubernetes-only
   * CEL library function). Such a rule is skipped: the API server still checks it.
   */
  onError?: (path: string, rule: CelRule, error: string) => void;
}

/** A step from a schema node to a child: a property name, every list item, or every map value. */
type Step =
  | { property: string }
  | { items: true; mapKeys?: string[] }
  | { values: true };

/** A schema node carrying rules, and how to reach it from the root. */
interface RuleSite {
  steps: Step[];
  display: string;
  rules: Array<CelRule & { transition: boolean }>;
}

const OLD_SELF = /\boldSelf\b/;
const sitesCache = new WeakMap<TSchema, RuleSite[]>();

function findSites(
  schema: Json,
  steps: Step[],
  display: string,
  out: RuleSite[],
): void {
  const rules = schema['x-kubernetes-validations'] as CelRule[] | undefined;
  if (rules?.length) {
    out.push({
      steps,
      display,
      rules: rules.map(r => ({ ...r, transition: OLD_SELF.test(r.rule) })),
    });
  }
  for (const [key, child] of Object.entries(
    (schema.properties ?? {}) as Record<string, Json>,
  )) {
    findSites(
      child,
      [...steps, { property: key }],
      joinPath(display, key),
      out,
    );
  }
  if (schema.items && !Array.isArray(schema.items)) {
    const mapKeys =
      schema['x-kubernetes-list-type'] === 'map'
        ? schema['x-kubernetes-list-map-keys']
        : undefined;
    findSites(
      schema.items,
      [...steps, { items: true, mapKeys }],
      `${display}[]`,
      out,
    );
  }
  const mapValues =
    typeof schema.additionalProperties === 'object'
      ? schema.additionalProperties
      : schema.patternProperties && Object.values(schema.patternProperties)[0];
  if (mapValues)
    findSites(
      mapValues as Json,
      [...steps, { values: true }],
      `${display}.*`,
      out,
    );
}

/** The rule-carrying nodes of a schema, found once per schema. */
function sitesOf(schema: TSchema): RuleSite[] {
  let sites = sitesCache.get(schema);
  if (!sites) {
    sites = [];
    findSites(schema as Json, [], '', sites);
    sitesCache.set(schema, sites);
  }
  return sites;
}

interface Located {
  value: unknown;
  old: unknown;
  path: string;
}

/** Every value (with its old counterpart) a site's steps reach; absent values are not visited, as in Kubernetes. */
function locate(steps: Step[], start: Located): Located[] {
  let current: Located[] = [start];
  for (const step of steps) {
    const next: Located[] = [];
    for (const { value, old, path } of current) {
      if ('property' in step) {
        if (
          !isRecord(value) ||
          value[step.property] === undefined ||
          value[step.property] === null
        )
          continue;
        next.push({
          value: value[step.property],
          old: isRecord(old) ? old[step.property] : undefined,
          path: joinPath(path, step.property),
        });
      } else if ('items' in step) {
        if (!Array.isArray(value)) continue;
        const oldItems = Array.isArray(old) ? old : [];
        value.forEach((item, i) => {
          // Map lists correlate old and new items by their keys, as the API server does.
          const before = step.mapKeys
            ? oldItems.find(
                o =>
                  isRecord(o) &&
                  isRecord(item) &&
                  step.mapKeys!.every(k => o[k] === item[k]),
              )
            : undefined;
          next.push({ value: item, old: before, path: joinPath(path, i) });
        });
      } else if (isRecord(value)) {
        for (const [key, item] of Object.entries(value)) {
          next.push({
            value: item,
            old: isRecord(old) ? old[key] : undefined,
            path: joinPath(path, key),
          });
        }
      }
    }
    current = next;
  }
  return current;
}

/** `.resources.gpu.count` under `spec` → `spec.resources.gpu.count`. */
function resolveFieldPath(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path;
  return fieldPath
    .split('.')
    .filter(Boolean)
    .reduce<string>((p, part) => joinPath(p, part), path);
}

function ruleMessage(rule: CelRule, vars: Record<string, unknown>): string {
  if (rule.messageExpression) {
    const outcome = evaluateCel(rule.messageExpression, vars);
    if (outcome.ok && typeof outcome.value === 'string' && outcome.value)
      return outcome.value;
  }
  return rule.message ?? `failed rule: ${rule.rule}`;
}

/**
 * Evaluates every `x-kubernetes-validations` rule of `schema` that applies
 * to `value` (a rule applies where the value is present), naming failures
 * under `basePath`.
 *
 * @public
 */
export function celRuleIssues(
  schema: TSchema,
  value: unknown,
  basePath = '',
  options: CelRuleOptions = {},
): ValidationIssue[] {
  const sites = sitesOf(schema);
  if (sites.length === 0) return [];
  const issues: ValidationIssue[] = [];
  const root: Located = {
    value: toCel(value),
    old: options.oldValue === undefined ? undefined : toCel(options.oldValue),
    path: basePath,
  };
  for (const site of sites) {
    for (const { value: self, old, path } of locate(site.steps, root)) {
      const vars: Record<string, unknown> = { self };
      if (old !== undefined) vars.oldSelf = old;
      for (const rule of site.rules) {
        // Transition rules only run on update, when there is an old value to compare with.
        if (rule.transition && old === undefined) continue;
        const outcome = evaluateCondition(rule.rule, vars);
        if (!outcome.ok) {
          options.onError?.(path, rule, outcome.error);
        } else if (!outcome.value) {
          issues.push(
            error(
              resolveFieldPath(path, rule.fieldPath),
              ruleMessage(rule, vars),
            ),
          );
        }
      }
    }
  }
  return issues;
}

/** Every CEL rule of a schema with where it applies (`[]` = each list item, `*` = each map value). @public */
export function collectCelRules(
  schema: TSchema,
): Array<{ path: string; rule: CelRule }> {
  return sitesOf(schema).flatMap(site =>
    site.rules.map(({ transition: _transition, ...rule }) => ({
      path: site.display,
      rule,
    })),
  );
}

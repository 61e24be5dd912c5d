/**
 * Validation of LlamaStackDistribution objects (seed 004 FR-070 to FR-077).
 *
 * `validateStackV1alpha2` is what a form, the REST API and the validating
 * webhook call: it accepts the seed's shorthand forms, applies the CRD's
 * defaults, checks the schema, evaluates the CRD's own CEL rules (FR-070 to
 * FR-072 and the conditional fields; the rule text exists once, in the
 * schema), and adds the cross-field rules CEL cannot state (FR-076: model →
 * provider references, resources that need a provider, disabled APIs). Existence of Secrets and ConfigMaps
 * (FR-073, FR-074) needs the cluster: `checkStackReferences` takes a lookup.
 * Every issue carries the field path and a message that says how to fix it.
 */
import {
  celRuleIssues,
  error,
  structuralIssues,
  toResult,
  warning,
  type ValidationIssue,
  type ValidationResult,
} from '../schema';
import { defaultStackV1alpha1, defaultStackV1alpha2 } from './defaults';
import { normalizeStackV1alpha2 } from './normalize';
import {
  STACK_KIND,
  STACK_V1ALPHA1,
  STACK_V1ALPHA2,
  StackV1alpha1Schema,
} from './v1alpha1';
import {
  PROVIDER_APIS,
  StackV1alpha2Schema,
  type ProviderApi,
} from './v1alpha2';
import type {
  LlamaStackDistributionV1alpha1,
  LlamaStackDistributionV1alpha2,
  StackProvider,
} from '../generated/llamaStackDistribution';
import { isRecord, type Json } from '../schema/json';

type StackSpecV1alpha2 = LlamaStackDistributionV1alpha2['spec'];

/** @public */
export interface StackValidationOptions {
  /** Distribution names the operator can resolve (e.g. the keys of distributions.json). */
  knownDistributions?: readonly string[];
  /**
   * Provider IDs per API in the base config of `spec.distribution`, when the
   * caller knows it (the operator does). With it, resources that need a
   * provider the CR does not configure are checked (FR-043, FR-044).
   */
  baseConfigProviders?: Partial<Record<ProviderApi, readonly string[]>>;
}

/** One configured provider, with the ID it will have in config.yaml. @public */
export interface ProviderEntry {
  api: ProviderApi;
  index: number;
  path: string;
  provider: StackProvider;
  /** `id`, or the `provider` value for a provider without id (FR-035). */
  effectiveId: string;
}

/** The providers of a (wire-form) spec, in API order then list order. @public */
export function providerEntries(
  spec: Pick<StackSpecV1alpha2, 'providers'>,
): ProviderEntry[] {
  const entries: ProviderEntry[] = [];
  for (const api of PROVIDER_APIS) {
    const list = spec.providers?.[api];
    if (!Array.isArray(list)) continue;
    list.forEach((provider, index) => {
      if (!isRecord<Json>(provider)) return;
      entries.push({
        api,
        index,
        path: `spec.providers.${api}[${index}]`,
        provider,
        effectiveId: provider.id ?? provider.provider,
      });
    });
  }
  return entries;
}

/** A reference to a Secret key somewhere in the spec. @public */
export interface SecretReference {
  /** Path of the reference, e.g. `spec.providers.inference[0].apiKey.secretKeyRef`. */
  path: string;
  name: string;
  key?: string;
}

/** A secret reference in either accepted form, or undefined when it is not one. */
function secretRefAt(
  ref: unknown,
): { name: unknown; key: unknown; nested: boolean } | undefined {
  if (!isRecord<Json>(ref)) return undefined;
  if (isRecord<Json>(ref.secretKeyRef))
    return {
      name: ref.secretKeyRef.name,
      key: ref.secretKeyRef.key,
      nested: true,
    };
  if ('name' in ref || 'key' in ref)
    return { name: ref.name, key: ref.key, nested: false };
  return undefined;
}

/**
 * Every Secret the spec refers to (FR-073): provider apiKey, secretRefs and
 * top-level `settings.<field>.secretKeyRef` values (FR-005: deeper ones are
 * plain config), storage passwords and connection strings, the TLS secret.
 *
 * @public
 */
export function stackSecretReferences(
  spec: StackSpecV1alpha2,
): SecretReference[] {
  const refs: SecretReference[] = [];
  const add = (path: string, ref: unknown) => {
    const found = secretRefAt(ref);
    if (found && typeof found.name === 'string' && found.name) {
      refs.push({
        path: found.nested ? `${path}.secretKeyRef` : path,
        name: found.name,
        key: typeof found.key === 'string' ? found.key : undefined,
      });
    }
  };
  for (const entry of providerEntries(spec)) {
    const p = entry.provider as Json;
    add(`${entry.path}.apiKey`, p.apiKey);
    if (isRecord<Json>(p.secretRefs)) {
      for (const [field, ref] of Object.entries(p.secretRefs)) {
        if (isRecord<Json>(ref)) add(`${entry.path}.secretRefs.${field}`, ref);
      }
    }
    if (isRecord<Json>(p.settings)) {
      for (const [field, value] of Object.entries(p.settings)) {
        if (isRecord<Json>(value) && 'secretKeyRef' in value)
          add(`${entry.path}.settings.${field}`, value);
      }
    }
  }
  add('spec.storage.kv.password', spec.storage?.kv?.password);
  add('spec.storage.sql.connectionString', spec.storage?.sql?.connectionString);
  const tlsSecret = spec.networking?.tls?.secretName;
  if (tlsSecret)
    refs.push({ path: 'spec.networking.tls.secretName', name: tlsSecret });
  return refs;
}

// --- Advice the CRD cannot give --------------------------------------------

/** FR-005: a top-level `settings.<field>.secretKeyRef` must be a complete reference (CEL cannot see settings). */
function settingsSecretIssues(spec: StackSpecV1alpha2): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const e of providerEntries(spec)) {
    const settings = e.provider.settings;
    if (!isRecord<Json>(settings)) continue;
    for (const [field, value] of Object.entries(settings)) {
      if (!isRecord<Json>(value) || !('secretKeyRef' in value)) continue;
      const ref = value.secretKeyRef;
      const path = `${e.path}.settings.${field}.secretKeyRef`;
      if (
        !isRecord<Json>(ref) ||
        typeof ref.name !== 'string' ||
        !ref.name ||
        typeof ref.key !== 'string' ||
        !ref.key
      ) {
        issues.push(
          error(
            path,
            `${path} must be {name: <secret>, key: <key>} with both set`,
          ),
        );
      }
    }
  }
  return issues;
}

/** Fields that are accepted but have no effect: a warning, so nobody expects them to work. */
function ignoredFieldIssues(spec: StackSpecV1alpha2): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const kv = spec.storage?.kv;
  if (isRecord<Json>(kv) && kv.type !== 'redis') {
    for (const field of ['endpoint', 'password'] as const) {
      if (kv[field] !== undefined) {
        issues.push(
          warning(
            `spec.storage.kv.${field}`,
            `spec.storage.kv.${field} is ignored because spec.storage.kv.type is ${kv.type}`,
          ),
        );
      }
    }
  }
  const sql = spec.storage?.sql;
  if (
    isRecord<Json>(sql) &&
    sql.type !== 'postgres' &&
    sql.connectionString !== undefined
  ) {
    issues.push(
      warning(
        'spec.storage.sql.connectionString',
        `spec.storage.sql.connectionString is ignored because spec.storage.sql.type is ${sql.type}`,
      ),
    );
  }
  return issues;
}

/** FR-072 names the duplicates (the CRD's CEL rule can only say that there are some). */
function duplicateIdIssues(spec: StackSpecV1alpha2): ValidationIssue[] {
  const byId = new Map<string, ProviderEntry[]>();
  for (const e of providerEntries(spec)) {
    if (typeof e.effectiveId === 'string')
      byId.set(e.effectiveId, [...(byId.get(e.effectiveId) ?? []), e]);
  }
  const issues: ValidationIssue[] = [];
  for (const [id, same] of byId) {
    if (same.length < 2) continue;
    const where = same.map(e => e.path).join(', ');
    for (const e of same.slice(1)) {
      const path = e.provider.id === undefined ? e.path : `${e.path}.id`;
      issues.push(
        error(
          path,
          `${path}: provider id "${id}" is already used by ${
            where.split(', ')[0]
          }; give each provider a distinct id`,
        ),
      );
    }
  }
  return issues;
}

// --- Cross-field rules of the validating webhook (FR-076) -------------------

function idsOf(
  spec: StackSpecV1alpha2,
  api: ProviderApi,
  options: StackValidationOptions,
): string[] {
  const own = providerEntries(spec)
    .filter(e => e.api === api)
    .map(e => e.effectiveId);
  return [...own, ...(options.baseConfigProviders?.[api] ?? [])];
}

function resourceIssues(
  spec: StackSpecV1alpha2,
  options: StackValidationOptions,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const resources = spec.resources;
  if (!isRecord<Json>(resources)) return issues;
  const baseKnown = options.baseConfigProviders !== undefined;
  const disabled = new Set<string>(
    Array.isArray(spec.disabled) ? spec.disabled : [],
  );

  const needs = (list: unknown, field: string, api: ProviderApi) => {
    if (!Array.isArray(list) || list.length === 0) return;
    if (disabled.has(api)) {
      issues.push(
        error(
          `spec.resources.${field}`,
          `spec.resources.${field} needs the ${api} API, which spec.disabled disables: remove one of them`,
        ),
      );
      return;
    }
    // Without the base config, a CR without such a provider may still be fine (the base config may have one).
    if (!baseKnown || idsOf(spec, api, options).length > 0) return;
    issues.push(
      error(
        `spec.resources.${field}`,
        `resources.${field} requires at least one ${api} provider to be configured`,
      ),
    );
  };
  needs(resources.models, 'models', 'inference');
  needs(resources.tools, 'tools', 'toolRuntime');
  needs(resources.shields, 'shields', 'safety');

  const inferenceIds = idsOf(spec, 'inference', options);
  const canCheckRefs =
    baseKnown || providerEntries(spec).some(e => e.api === 'inference');
  if (Array.isArray(resources.models) && canCheckRefs) {
    resources.models.forEach((model, i) => {
      if (
        !isRecord<Json>(model) ||
        typeof model.provider !== 'string' ||
        inferenceIds.includes(model.provider)
      )
        return;
      const available = inferenceIds.length
        ? inferenceIds.map(id => `"${id}"`).join(', ')
        : 'none';
      issues.push(
        error(
          `spec.resources.models[${i}].provider`,
          `spec.resources.models[${i}].provider "${model.provider}" is not the id of an inference provider; available inference provider ids: ${available}`,
        ),
      );
    });
  }
  return issues;
}

/** OQ-002: a disabled API wins over its providers, with a warning. */
function disabledIssues(spec: StackSpecV1alpha2): ValidationIssue[] {
  if (!Array.isArray(spec.disabled)) return [];
  const disabled = new Set<string>(spec.disabled);
  return PROVIDER_APIS.filter(
    api => disabled.has(api) && (spec.providers?.[api]?.length ?? 0) > 0,
  ).map(api =>
    warning(
      `spec.providers.${api}`,
      `spec.providers.${api} is ignored because spec.disabled disables ${api}; remove one of them`,
    ),
  );
}

function distributionChoiceIssues(
  spec: StackSpecV1alpha2,
  options: StackValidationOptions,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const d = spec.distribution;
  if (!isRecord<Json>(d)) return issues;
  const known = options.knownDistributions;
  if (known && typeof d.name === 'string' && !known.includes(d.name)) {
    issues.push(
      error(
        'spec.distribution.name',
        `spec.distribution.name "${
          d.name
        }" is not a known distribution; use one of: ${known.join(
          ', ',
        )}, or set spec.distribution.image`,
      ),
    );
  }
  if (typeof d.image === 'string' && spec.overrideConfig === undefined) {
    issues.push(
      warning(
        'spec.distribution.image',
        'Direct image references require either overrideConfig.configMapName or OCI config labels on the image; set spec.overrideConfig.configMapName unless the image carries io.llamastack.config.* labels',
      ),
    );
  }
  return issues;
}

/** FR-092: an external provider replaces an inline one with the same id, with a warning. */
function externalProviderIssues(spec: StackSpecV1alpha2): ValidationIssue[] {
  const inline = new Set(providerEntries(spec).map(e => e.effectiveId));
  const issues: ValidationIssue[] = [];
  for (const api of PROVIDER_APIS) {
    const list = (spec.externalProviders as Json | undefined)?.[api];
    if (!Array.isArray(list)) continue;
    list.forEach((ext: unknown, i: number) => {
      if (isRecord<Json>(ext) && inline.has(ext.providerId)) {
        issues.push(
          warning(
            `spec.externalProviders.${api}[${i}].providerId`,
            `spec.externalProviders.${api}[${i}] replaces the inline provider with id "${ext.providerId}"`,
          ),
        );
      }
    });
  }
  return issues;
}

/**
 * The rules of a defaulted wire-form v1alpha2 spec that its schema and CEL
 * rules do not state: the validating webhook's cross-field checks (FR-076).
 *
 * @public
 */
export function stackSpecIssues(
  spec: StackSpecV1alpha2,
  options: StackValidationOptions = {},
): ValidationIssue[] {
  return [
    ...duplicateIdIssues(spec),
    ...settingsSecretIssues(spec),
    ...ignoredFieldIssues(spec),
    ...resourceIssues(spec, options),
    ...disabledIssues(spec),
    ...distributionChoiceIssues(spec, options),
    ...externalProviderIssues(spec),
  ];
}

function typeMetaIssues(obj: Json, apiVersion: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
    issues.push(
      error(
        'apiVersion',
        `apiVersion must be "${apiVersion}" (got "${obj.apiVersion}")`,
      ),
    );
  }
  if (obj.kind !== undefined && obj.kind !== STACK_KIND) {
    issues.push(
      error('kind', `kind must be "${STACK_KIND}" (got "${obj.kind}")`),
    );
  }
  return issues;
}

/** Points an issue found in the normalized object at the field the user wrote. */
function toInputPaths(
  issue: ValidationIssue,
  inputPath: (p: string) => string,
): ValidationIssue {
  const path = inputPath(issue.path);
  if (path === issue.path) return issue;
  return {
    ...issue,
    path,
    message: issue.message.split(issue.path).join(path),
  };
}

/**
 * Validates a LlamaStackDistribution v1alpha2 object, in wire form or with
 * the seed's shorthand forms. Issue paths refer to the input as written.
 *
 * @public
 */
export function validateStackV1alpha2(
  input: unknown,
  options: StackValidationOptions = {},
): ValidationResult {
  if (!isRecord<Json>(input)) {
    return toResult([
      error(
        '(root)',
        'a LlamaStackDistribution must be an object with apiVersion, kind, metadata and spec',
      ),
    ]);
  }
  const { object, inputPath } = normalizeStackV1alpha2(input);
  const stack = defaultStackV1alpha2(object as LlamaStackDistributionV1alpha2);
  const issues = [
    ...typeMetaIssues(stack, STACK_V1ALPHA2),
    ...structuralIssues(StackV1alpha2Schema, stack),
    ...celRuleIssues(StackV1alpha2Schema, stack),
  ];
  if (isRecord<Json>(stack.spec))
    issues.push(...stackSpecIssues(stack.spec, options));
  return toResult(issues.map(i => toInputPaths(i, inputPath)));
}

/** Validates a LlamaStackDistribution v1alpha1 object against the released upstream schema. @public */
export function validateStackV1alpha1(input: unknown): ValidationResult {
  if (!isRecord<Json>(input)) {
    return toResult([
      error(
        '(root)',
        'a LlamaStackDistribution must be an object with apiVersion, kind, metadata and spec',
      ),
    ]);
  }
  const stack = defaultStackV1alpha1(
    input as unknown as LlamaStackDistributionV1alpha1,
  );
  return toResult([
    ...typeMetaIssues(stack, STACK_V1ALPHA1),
    ...structuralIssues(StackV1alpha1Schema, stack),
    ...celRuleIssues(StackV1alpha1Schema, stack),
  ]);
}

/** Validates either version, by its apiVersion. @public */
export function validateStack(
  input: unknown,
  options: StackValidationOptions = {},
): ValidationResult {
  if (isRecord<Json>(input) && input.apiVersion === STACK_V1ALPHA1)
    return validateStackV1alpha1(input);
  return validateStackV1alpha2(input, options);
}

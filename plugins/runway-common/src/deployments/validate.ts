/**
 * Validation of ModelDeployment and InferenceProviderConfig: the one function
 * the form, the REST API, the scaffolder action and the admission webhook
 * call. Layers, in order:
 *
 * 1. structure: the schema (types, enums, required fields, ranges);
 * 2. the seeds' rules that live in the schema as CEL (`x-kubernetes-validations`),
 *    evaluated locally with the same text the API server runs;
 * 3. rules CEL cannot express or that need context: upstream's ceilings,
 *    quantities, names, storage volumes, overrides, warnings, and (given the
 *    registered providers) engine availability and provider compatibility.
 */
import { celSyntaxError } from '../cel/cel';
import { celRuleIssues } from '../schema/celRules';
import {
  error,
  joinPath,
  mergeResults,
  toResult,
  type ValidationIssue,
  type ValidationResult,
  warning,
} from '../schema/issues';
import { compareQuantities, isQuantity } from '../schema/quantity';
import { structuralIssues } from '../schema/structural';
import { checkProviderCompatibility } from './compatibility';
import { BLOCKED_OVERRIDE_KEYS, LIMITS, SYSTEM_PATHS } from './constants';
import { applySpecDefaults } from './defaults';
import { engineCapabilities, normaliseProviderConfig } from './normalise';
import {
  InferenceProviderConfigSchema,
  ModelDeploymentSchema,
  ModelDeploymentSpecSchema,
} from './schema';
import { offersEngine, selectEngine } from './selection';
import type {
  InferenceProviderConfig,
  ModelDeployment,
  ModelDeploymentSpec,
  StorageVolume,
} from './types';
import { isRecord, type Json } from '../schema/json';
import { isDnsSubdomain } from '../schema/names';

/** @public */
export interface ModelDeploymentValidationOptions {
  /**
   * The registered providers. When given: a missing engine.type is checked
   * against what ready providers offer, a named provider must be registered,
   * and the named provider's compatibility rules apply.
   */
  providers?: InferenceProviderConfig[];
  /** For a cluster without engine auto-selection: a missing engine.type is an error. */
  requireEngineType?: boolean;
  /** Existence check of a provider's upstream CRD; `false` gives seed 000's "CRD not installed" error. */
  providerInstalled?: (name: string) => boolean | undefined;
}

// ---- metadata ----

/** A DNS subdomain name; ModelDeployment names also may not contain dots (upstream rule). */
function nameIssues(metadata: unknown, allowDots = false): ValidationIssue[] {
  if (!isRecord<Json>(metadata)) return [];
  const { name, generateName } = metadata;
  if (name === undefined || name === '') {
    return generateName
      ? []
      : [error('metadata.name', 'metadata.name is required')];
  }
  if (typeof name !== 'string') return [];
  const issues: ValidationIssue[] = [];
  if (!isDnsSubdomain(name)) {
    issues.push(
      error(
        'metadata.name',
        `metadata.name "${name}" must consist of lower case letters, digits and '-', start and end with a letter or digit, at most 253 characters`,
      ),
    );
  }
  if (!allowDots && name.includes('.')) {
    issues.push(
      error(
        'metadata.name',
        'name must not contain dots (dots are invalid in derived Kubernetes volume and service names)',
      ),
    );
  }
  return issues;
}

// ---- ceilings and quantities ----

function quantityIssues(
  value: unknown,
  path: string,
  max: string,
  example: string,
): ValidationIssue[] {
  if (value === undefined || value === '') return [];
  if (!isQuantity(value)) {
    return [
      error(
        path,
        `${path} must be a Kubernetes quantity such as ${example} (got ${JSON.stringify(
          value,
        )})`,
      ),
    ];
  }
  if (compareQuantities(value, max) > 0)
    return [error(path, `${path} exceeds maximum allowed (${max})`)];
  return [];
}

function countIssue(
  value: unknown,
  path: string,
  max: number,
): ValidationIssue[] {
  return typeof value === 'number' && value > max
    ? [error(path, `${path} exceeds maximum allowed (${max})`)]
    : [];
}

function ceilingIssues(spec: Json): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const resources = isRecord<Json>(spec.resources) ? spec.resources : {};
  issues.push(
    ...countIssue(
      resources.gpu?.count,
      'spec.resources.gpu.count',
      LIMITS.gpuCount,
    ),
  );
  issues.push(
    ...quantityIssues(
      resources.cpu,
      'spec.resources.cpu',
      LIMITS.cpu,
      '4 or 500m',
    ),
  );
  issues.push(
    ...quantityIssues(
      resources.memory,
      'spec.resources.memory',
      LIMITS.memory,
      '32Gi',
    ),
  );
  const scaling = isRecord<Json>(spec.scaling) ? spec.scaling : {};
  issues.push(
    ...countIssue(scaling.replicas, 'spec.scaling.replicas', LIMITS.replicas),
  );
  for (const component of ['prefill', 'decode'] as const) {
    const c = scaling[component];
    if (!isRecord<Json>(c)) continue;
    const base = `spec.scaling.${component}`;
    issues.push(...countIssue(c.replicas, `${base}.replicas`, LIMITS.replicas));
    issues.push(
      ...countIssue(c.gpu?.count, `${base}.gpu.count`, LIMITS.gpuCount),
    );
    issues.push(
      ...quantityIssues(c.memory, `${base}.memory`, LIMITS.memory, '64Gi'),
    );
  }
  return issues;
}

// ---- overrides ----

function blockedOverrideIssues(
  value: unknown,
  path: string,
): ValidationIssue[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) =>
      blockedOverrideIssues(item, joinPath(path, i)),
    );
  if (!isRecord<Json>(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const where = joinPath(path, key);
    if ((BLOCKED_OVERRIDE_KEYS as readonly string[]).includes(key)) {
      return [
        error(
          where,
          `overriding "${key}" is not allowed for security reasons; remove ${where}`,
        ),
      ];
    }
    return blockedOverrideIssues(item, where);
  });
}

// ---- storage volumes ----

function storageIssues(
  spec: Json,
  deploymentName: string | undefined,
): ValidationIssue[] {
  const volumes = spec.model?.storage?.volumes;
  if (!Array.isArray(volumes)) return [];
  const issues: ValidationIssue[] = [];
  const seen = {
    name: new Set<string>(),
    mountPath: new Set<string>(),
    claimName: new Set<string>(),
  };
  const purposes = { modelCache: 0, compilationCache: 0 };
  volumes.forEach((volume: unknown, i: number) => {
    if (!isRecord<Json>(volume)) return;
    const v = volume as StorageVolume;
    const at = (field: string) => `spec.model.storage.volumes[${i}].${field}`;
    const managed = v.size !== undefined;
    if (!managed && !v.claimName) {
      issues.push(
        error(
          at('claimName'),
          `${at(
            'claimName',
          )} is required when size is not set (it must name an existing PVC)`,
        ),
      );
    }
    if (managed && v.readOnly) {
      issues.push(
        error(
          at('readOnly'),
          `${at(
            'readOnly',
          )} must not be true when size is set (controller-created PVCs need write access)`,
        ),
      );
    }
    if (
      managed &&
      v.claimName &&
      deploymentName &&
      v.claimName !== `${deploymentName}-${v.name}`
    ) {
      issues.push(
        error(
          at('claimName'),
          `${at(
            'claimName',
          )} must not be set when size is set (it is generated as "${deploymentName}-${
            v.name
          }")`,
        ),
      );
    }
    if (!managed && v.accessMode) {
      issues.push(
        error(
          at('accessMode'),
          `${at(
            'accessMode',
          )} only applies when size is set (controller-created PVCs)`,
        ),
      );
    }
    if (!managed && v.storageClassName) {
      issues.push(
        error(
          at('storageClassName'),
          `${at(
            'storageClassName',
          )} only applies when size is set (controller-created PVCs)`,
        ),
      );
    }
    for (const field of ['name', 'mountPath', 'claimName'] as const) {
      const value = v[field];
      if (typeof value !== 'string' || !value) continue;
      if (seen[field].has(value))
        issues.push(
          error(
            at(field),
            `${at(
              field,
            )} "${value}" is used by another volume; use a unique ${field}`,
          ),
        );
      seen[field].add(value);
    }
    if (typeof v.mountPath === 'string' && v.mountPath) {
      if (!v.mountPath.startsWith('/')) {
        issues.push(
          error(
            at('mountPath'),
            `${at('mountPath')} must be an absolute path (start with /)`,
          ),
        );
      }
      const system = SYSTEM_PATHS.find(
        p => v.mountPath === p || v.mountPath!.startsWith(`${p}/`),
      );
      if (system)
        issues.push(
          error(
            at('mountPath'),
            `${at('mountPath')} must not overlap with system path ${system}`,
          ),
        );
    } else if ((v.purpose ?? 'custom') === 'custom') {
      issues.push(
        error(
          at('mountPath'),
          `${at('mountPath')} is required when purpose is custom`,
        ),
      );
    }
    if (v.purpose === 'modelCache' || v.purpose === 'compilationCache')
      purposes[v.purpose]++;
    if (v.purpose === 'compilationCache' && v.readOnly) {
      issues.push(
        warning(
          at('readOnly'),
          `storage volume "${v.name}" has purpose=compilationCache with readOnly=true; compilation cache requires write access`,
        ),
      );
    }
    if (
      v.purpose === 'modelCache' &&
      v.readOnly &&
      (spec.model?.source ?? 'huggingface') === 'huggingface'
    ) {
      issues.push(
        warning(
          at('readOnly'),
          `storage volume "${v.name}" has purpose=modelCache with readOnly=true; model download will be skipped (ensure the PVC already contains the model data)`,
        ),
      );
    }
  });
  for (const purpose of ['modelCache', 'compilationCache'] as const) {
    if (purposes[purpose] > 1) {
      issues.push(
        error(
          'spec.model.storage.volumes',
          `at most one volume with purpose=${purpose} is allowed (found ${purposes[purpose]})`,
        ),
      );
    }
  }
  return issues;
}

// ---- the spec's remaining rules and warnings ----

function specRuleIssues(spec: Json): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (spec.model?.source === 'custom' && spec.model?.servedName) {
    issues.push(
      warning(
        'spec.model.servedName',
        'servedName is ignored for custom source',
      ),
    );
  }
  if (spec.engine?.trustRemoteCode === true) {
    issues.push(
      warning(
        'spec.engine.trustRemoteCode',
        'trustRemoteCode=true allows execution of arbitrary code from HuggingFace',
      ),
    );
  }
  if (
    spec.engine?.type === 'trtllm' &&
    spec.engine?.contextLength !== undefined
  ) {
    issues.push(
      warning(
        'spec.engine.contextLength',
        'contextLength is ignored for TensorRT-LLM (must be configured at engine build time)',
      ),
    );
  }
  if (spec.image && spec.engine?.image && spec.image !== spec.engine.image) {
    issues.push(
      error(
        'spec.engine.image',
        'spec.image and spec.engine.image name different images; set only one of them (spec.engine.image is the engine-specific override)',
      ),
    );
  }
  if (spec.provider?.overrides !== undefined) {
    issues.push(
      ...blockedOverrideIssues(
        spec.provider.overrides,
        'spec.provider.overrides',
      ),
    );
  }
  const route = spec.gateway?.httpRouteRef;
  if (typeof route === 'string' && route !== '' && !isDnsSubdomain(route)) {
    // The CRD (as upstream's) takes any string; the core would then wait for a route that cannot exist ('' means unset).
    issues.push(
      error(
        'spec.gateway.httpRouteRef',
        `spec.gateway.httpRouteRef "${route}" must be the name of an HTTPRoute in the deployment's namespace: lower case letters, digits, '-' and '.', starting and ending with a letter or digit`,
      ),
    );
  }
  return issues;
}

/**
 * Whether a provider needs an upstream CRD: yes unless every engine it lists
 * declares `requiresCRD: false` (omitted means true, as upstream reads it).
 *
 * @public
 */
export function providerRequiresCRD(
  provider: InferenceProviderConfig,
): boolean {
  const engines = engineCapabilities(provider);
  return engines.length === 0 || engines.some(e => e.requiresCRD !== false);
}

/** Seed 000 §8's message for a provider whose upstream CRD is missing: the webhook's, the core's and the provider's. @public */
export function crdNotInstalledMessage(providerName: string): string {
  return `Provider '${providerName}' CRD not installed in cluster`;
}

/**
 * The `providerInstalled` check from the registered providers (seed 000 §8,
 * "Provider CRD not installed"): false when the named provider's controller
 * has reported (a heartbeat: it writes the CRD version with every one)
 * without `status.upstreamCRDVersion` although it needs a CRD; undefined
 * (not known) when it is not registered or has not reported, so other
 * checks decide.
 *
 * @public
 */
export function providerInstalledFrom(
  providers: readonly InferenceProviderConfig[],
): (name: string) => boolean | undefined {
  return name => {
    const provider = providers.find(p => p.metadata?.name === name);
    const status = provider?.status;
    if (!provider || !status?.lastHeartbeat) return undefined;
    return Boolean(status.upstreamCRDVersion) || !providerRequiresCRD(provider);
  };
}

function providerIssues(
  spec: ModelDeploymentSpec,
  options: ModelDeploymentValidationOptions,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const name = spec.provider?.name;
  if (name && options.providerInstalled?.(name) === false) {
    issues.push(error('spec.provider.name', crdNotInstalledMessage(name)));
  }
  if (!spec.engine?.type) {
    if (options.providers) {
      const engine = selectEngine(spec, options.providers);
      if (!engine.ok) issues.push(error('spec.engine.type', engine.reason));
    } else if (options.requireEngineType) {
      issues.push(error('spec.engine.type', 'engine.type is required'));
    }
  }
  if (name && options.providers) {
    const provider = options.providers.find(p => p.metadata?.name === name);
    if (!provider) {
      const known =
        options.providers
          .map(p => p.metadata?.name)
          .filter(Boolean)
          .join(', ') || 'none';
      issues.push(
        error(
          'spec.provider.name',
          `provider "${name}" is not registered (no InferenceProviderConfig named ${name}; registered: ${known})`,
        ),
      );
    } else if (spec.engine?.type) {
      const compatibility = checkProviderCompatibility(spec, provider);
      issues.push(...compatibility);
      const engineRefused = compatibility.some(
        i => i.severity === 'error' && i.path === 'spec.engine.type',
      );
      if (
        spec.engine.type === 'custom' &&
        !engineRefused &&
        !offersEngine(provider, 'custom')
      )
        issues.push(
          error(
            'spec.engine.type',
            `provider "${name}" does not offer the custom engine (its InferenceProviderConfig lists: ${
              engineCapabilities(provider)
                .map(e => e.name)
                .join(', ') || 'no engines'
            }); name a provider that registers engine custom in spec.provider.name, or choose another spec.engine.type`,
          ),
        );
    }
  }
  return issues;
}

/**
 * Validates a ModelDeployment spec (paths are reported under `spec`). Used by
 * forms that edit only the spec; `validateModelDeployment` calls it too.
 *
 * @public
 */
export function validateModelDeploymentSpec(
  spec: unknown,
  options: ModelDeploymentValidationOptions & {
    name?: string;
    oldSpec?: unknown;
  } = {},
): ValidationResult {
  const structural = structuralIssues(ModelDeploymentSpecSchema, spec, 'spec');
  if (!isRecord<Json>(spec)) return toResult(structural);
  const defaulted = applySpecDefaults(
    spec as ModelDeploymentSpec,
    options.name,
  ) as Json;
  const oldSpec = isRecord<Json>(options.oldSpec)
    ? applySpecDefaults(options.oldSpec as ModelDeploymentSpec, options.name)
    : undefined;
  return toResult([
    ...structural,
    ...celRuleIssues(ModelDeploymentSpecSchema, defaulted, 'spec', {
      oldValue: oldSpec,
    }),
    ...ceilingIssues(defaulted),
    ...storageIssues(defaulted, options.name),
    ...specRuleIssues(defaulted),
    ...providerIssues(defaulted as ModelDeploymentSpec, options),
  ]);
}

/** Validates a whole ModelDeployment (create). @public */
export function validateModelDeployment(
  md: unknown,
  options: ModelDeploymentValidationOptions = {},
): ValidationResult {
  if (!isRecord<Json>(md))
    return toResult(structuralIssues(ModelDeploymentSchema, md));
  const withoutSpec = { ...md };
  delete withoutSpec.spec;
  const envelope = structuralIssues(ModelDeploymentSchema, withoutSpec).filter(
    i => i.path !== 'spec',
  );
  if (md.spec === undefined) envelope.push(error('spec', 'spec is required'));
  const name = isRecord<Json>(md.metadata)
    ? (md.metadata.name as string | undefined)
    : undefined;
  return mergeResults(
    toResult([...envelope, ...nameIssues(md.metadata)]),
    md.spec === undefined
      ? toResult([])
      : validateModelDeploymentSpec(md.spec, { ...options, name }),
  );
}

// ---- updates ----

/** The identity fields of seed 000 4.11: changing one deletes and recreates the provider resource. @public */
export const IDENTITY_FIELDS = [
  'model.id',
  'model.source',
  'engine.type',
  'provider.name',
  'serving.mode',
] as const;

/** @public */
export interface IdentityChange {
  field: (typeof IDENTITY_FIELDS)[number];
  from?: string;
  to?: string;
}

/**
 * Identity fields whose effective value changes between two versions. The
 * old engine and provider fall back to what the core controller recorded in
 * status (an auto-selection is pinned once made), so switching away from an
 * auto-selected provider is a change, never silently ignored.
 *
 * @public
 */
export function identityChanges(
  oldMd: ModelDeployment,
  newMd: ModelDeployment,
): IdentityChange[] {
  const before = applySpecDefaults(oldMd.spec ?? ({} as ModelDeploymentSpec));
  const after = applySpecDefaults(newMd.spec ?? ({} as ModelDeploymentSpec));
  const values = (
    spec: ModelDeploymentSpec,
    status?: ModelDeployment['status'],
  ) => ({
    'model.id': spec.model?.id,
    'model.source': spec.model?.source,
    'engine.type': spec.engine?.type ?? status?.engine?.type,
    'provider.name': spec.provider?.name || status?.provider?.name,
    'serving.mode': spec.serving?.mode,
  });
  const a = values(before, oldMd.status);
  const b = values(after, oldMd.status);
  return IDENTITY_FIELDS.filter(f => a[f] !== b[f]).map(field => ({
    field,
    from: a[field],
    to: b[field],
  }));
}

function managedVolumeIssues(oldSpec: Json, newSpec: Json): ValidationIssue[] {
  const managedBefore = (
    (oldSpec.model?.storage?.volumes ?? []) as StorageVolume[]
  ).filter(v => isRecord<Json>(v) && v.size !== undefined);
  if (managedBefore.length === 0) return [];
  const after = (newSpec.model?.storage?.volumes ?? []) as StorageVolume[];
  const issues: ValidationIssue[] = [];
  for (const volume of managedBefore) {
    const index = after.findIndex(
      v => isRecord<Json>(v) && v.name === volume.name,
    );
    if (index < 0) {
      issues.push(
        error(
          'spec.model.storage.volumes',
          `managed storage volume "${volume.name}" cannot be removed (it has an associated PVC; delete the ModelDeployment to clean up managed storage)`,
        ),
      );
      continue;
    }
    const next = after[index];
    const same =
      [
        'claimName',
        'mountPath',
        'purpose',
        'readOnly',
        'accessMode',
        'storageClassName',
      ].every(k => (volume as Json)[k] === (next as Json)[k]) &&
      next.size !== undefined &&
      isQuantity(next.size) &&
      isQuantity(volume.size) &&
      compareQuantities(volume.size!, next.size) === 0;
    if (!same) {
      issues.push(
        error(
          `spec.model.storage.volumes[${index}]`,
          `managed storage volume "${volume.name}" is immutable once created (delete the ModelDeployment to change managed storage configuration)`,
        ),
      );
    }
  }
  return issues;
}

/**
 * Validates an update: everything `validateModelDeployment` checks, plus
 * engine.type immutability (also against an auto-selected engine), managed
 * storage volumes, and a warning for every identity field that changes
 * (seed 000 4.11: the provider resource is deleted and recreated).
 *
 * @public
 */
export function validateModelDeploymentUpdate(
  oldMd: ModelDeployment,
  newMd: unknown,
  options: ModelDeploymentValidationOptions = {},
): ValidationResult {
  if (
    !isRecord<Json>(newMd) ||
    !isRecord<Json>(newMd.spec) ||
    !isRecord<Json>(oldMd?.spec)
  ) {
    return validateModelDeployment(newMd, options);
  }
  const name = newMd.metadata?.name as string | undefined;
  const envelope = validateModelDeployment(
    { ...newMd, spec: undefined },
    options,
  ).issues.filter(i => i.path !== 'spec');
  const spec = validateModelDeploymentSpec(newMd.spec, {
    ...options,
    name,
    oldSpec: oldMd.spec,
  });
  const issues: ValidationIssue[] = [];
  const newSpec = applySpecDefaults(
    newMd.spec as ModelDeploymentSpec,
    name,
  ) as Json;
  const resolvedEngine = oldMd.status?.engine?.type;
  if (
    !oldMd.spec.engine?.type &&
    resolvedEngine &&
    newSpec.engine?.type &&
    newSpec.engine.type !== resolvedEngine
  ) {
    issues.push(
      error(
        'spec.engine.type',
        `engine.type is immutable once set; this deployment runs the auto-selected engine ${resolvedEngine}: delete and recreate the ModelDeployment to change the engine`,
      ),
    );
  }
  issues.push(
    ...managedVolumeIssues(
      applySpecDefaults(oldMd.spec, name) as Json,
      newSpec,
    ),
  );
  for (const change of identityChanges(oldMd, newMd as ModelDeployment)) {
    if (change.field === 'engine.type') continue;
    issues.push(
      warning(
        `spec.${change.field}`,
        `changing spec.${change.field} from ${change.from ?? '(unset)'} to ${
          change.to ?? '(unset)'
        } deletes and recreates the provider resource (brief downtime)`,
      ),
    );
  }
  return mergeResults(toResult(envelope), spec, toResult(issues));
}

// ---- InferenceProviderConfig ----

/**
 * Validates an InferenceProviderConfig in either capability form (flat seed
 * form is normalised first), including that every CEL rule compiles.
 *
 * @public
 */
export function validateProviderConfig(config: unknown): ValidationResult {
  const normalised = normaliseProviderConfig(config);
  const issues = structuralIssues(InferenceProviderConfigSchema, normalised);
  if (!isRecord<Json>(normalised)) return toResult(issues);
  issues.push(...nameIssues(normalised.metadata, true));
  const spec = isRecord<Json>(normalised.spec) ? normalised.spec : {};
  const engines = spec.capabilities?.engines;
  if (Array.isArray(engines)) {
    const seen = new Set<string>();
    engines.forEach((engine: unknown, i: number) => {
      const name = isRecord<Json>(engine) ? engine.name : undefined;
      if (typeof name !== 'string') return;
      if (seen.has(name)) {
        issues.push(
          error(
            `spec.capabilities.engines[${i}].name`,
            `spec.capabilities.engines[${i}].name: engine ${name} is listed twice; list each engine once`,
          ),
        );
      }
      seen.add(name);
    });
  }
  const celFields = [
    ['selectionRules', 'condition'],
    ['compatibilityRules', 'rule'],
  ] as const;
  for (const [list, field] of celFields) {
    const rules = spec[list];
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i: number) => {
      if (!isRecord<Json>(rule) || typeof rule[field] !== 'string') return;
      const problem = celSyntaxError(rule[field]);
      const path = `spec.${list}[${i}].${field}`;
      if (problem)
        issues.push(
          error(
            path,
            `${path} is not a valid CEL expression (${problem.replace(
              /^invalid CEL expression: /,
              '',
            )})`,
          ),
        );
    });
  }
  return toResult(issues);
}

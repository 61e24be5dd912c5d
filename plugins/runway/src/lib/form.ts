/**
 * The deployment wizard's form model and its mapping to a ModelDeployment.
 * Scalar fields mirror the spec's paths (so a validation issue at
 * `spec.resources.gpu.count` lands on the field of the same name); maps and
 * lists the user edits as rows (engine args, env, node selector, pod labels,
 * tolerations) and the free-form provider overrides have their own fields.
 * Pure: validation is runway-common's, the same the webhook runs.
 */
import {
  dedupeIssues,
  DEPLOYMENT_FORM_EDITORS,
  DEPLOYMENT_FORM_FIELDS,
  DEFAULT_GPU_RESOURCE,
  DEPLOYMENTS_API_VERSION,
  type ComponentScalingSpec,
  type EngineType,
  type InferenceProviderConfig,
  type ModelDeployment,
  type ModelDeploymentSpec,
  type StorageVolume,
  type ValidationIssue,
  validateModelDeployment,
  validateModelDeploymentUpdate,
} from '@runway-portal/plugin-runway-common';
import { parse as parseYaml } from 'yaml';

export interface KeyValue {
  key: string;
  value: string;
}

export interface TolerationRow {
  key: string;
  operator: '' | 'Equal' | 'Exists';
  value: string;
  effect: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** Numbers are strings in inputs; an empty string means "not set". */
type NumberInput = string;

export interface ComponentValues {
  replicas: NumberInput;
  gpu: { count: NumberInput };
  memory: string;
}

export interface WizardValues {
  cluster: string;
  metadata: { name: string; namespace: string };
  /** Labels of the ModelDeployment itself (e.g. backstage.io/kubernetes-id, which links it to a catalog entity). */
  labels: KeyValue[];
  spec: {
    model: { id: string; source: 'huggingface' | 'custom'; servedName: string };
    /** '' = automatic selection. */
    engine: { type: '' | EngineType; contextLength: NumberInput };
    /** '' = automatic selection. */
    provider: { name: string };
    serving: { mode: 'aggregated' | 'disaggregated' };
    scaling: {
      replicas: NumberInput;
      prefill: ComponentValues;
      decode: ComponentValues;
    };
    resources: {
      gpu: { count: NumberInput; type: string };
      memory: string;
      cpu: string;
    };
    secrets: { huggingFaceToken: string };
    /** Custom model server image ('' = the provider's default). */
    image: string;
    /** enabled: '' = automatic (routed when the cluster has a Gateway), 'true' or 'false'. */
    gateway: {
      enabled: '' | 'true' | 'false';
      modelName: string;
      httpRouteRef: string;
    };
  };
  /** `spec.model.storage.volumes`, kept as they are (the cached-model choice edits its entry). */
  volumes: StorageVolume[];
  engineArgs: KeyValue[];
  env: KeyValue[];
  nodeSelector: KeyValue[];
  podLabels: KeyValue[];
  tolerations: TolerationRow[];
  /** YAML (or JSON) mapping. */
  providerOverrides: string;
}

const emptyComponent = (): ComponentValues => ({
  replicas: '1',
  gpu: { count: '1' },
  memory: '',
});

export function emptyWizardValues(
  defaults: {
    cluster?: string;
    namespace?: string;
    labels?: Record<string, string>;
  } = {},
): WizardValues {
  return {
    cluster: defaults.cluster ?? '',
    metadata: { name: '', namespace: defaults.namespace ?? 'default' },
    labels: fromMap(defaults.labels),
    spec: {
      model: { id: '', source: 'huggingface', servedName: '' },
      engine: { type: '', contextLength: '' },
      provider: { name: '' },
      serving: { mode: 'aggregated' },
      scaling: {
        replicas: '1',
        prefill: emptyComponent(),
        decode: emptyComponent(),
      },
      resources: {
        gpu: { count: '1', type: DEFAULT_GPU_RESOURCE },
        memory: '',
        cpu: '',
      },
      secrets: { huggingFaceToken: '' },
      image: '',
      gateway: { enabled: '', modelName: '', httpRouteRef: '' },
    },
    volumes: [],
    engineArgs: [],
    env: [],
    nodeSelector: [],
    podLabels: [],
    tolerations: [],
    providerOverrides: '',
  };
}

/** A number input: '' → undefined; anything else → Number (NaN stays, for validation to report). */
function num(value: NumberInput | undefined): number | undefined {
  if (value === undefined || String(value).trim() === '') return undefined;
  return Number(value);
}

function str(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function toMap(rows: KeyValue[]): Record<string, string> | undefined {
  const entries = rows
    .filter(r => r.key.trim() !== '')
    .map(r => [r.key.trim(), r.value] as const);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

export function fromMap(map: Record<string, string> | undefined): KeyValue[] {
  return Object.entries(map ?? {}).map(([key, value]) => ({
    key,
    value: String(value),
  }));
}

/** Drops undefined values and objects left empty, so the object has only what the user set. */
export function prune<T>(value: T): T | undefined {
  if (Array.isArray(value)) return value as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const pruned = prune(v);
      if (pruned !== undefined) out[k] = pruned;
    }
    return Object.keys(out).length ? (out as T) : undefined;
  }
  return value === undefined ? undefined : value;
}

export type OverridesParse =
  | { ok: true; value?: Record<string, unknown> }
  | { ok: false; message: string };

export function parseOverrides(text: string): OverridesParse {
  if (!text.trim()) return { ok: true };
  try {
    const value = parseYaml(text);
    if (value === null || value === undefined) return { ok: true };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return {
        ok: false,
        message:
          'provider overrides must be a mapping of keys to values, e.g. "kaito:\\n  preset: phi-3"',
      };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (err) {
    return {
      ok: false,
      message: `provider overrides are not valid YAML or JSON: ${
        (err as Error).message.split('\n')[0]
      }`,
    };
  }
}

function componentSpec(c: ComponentValues) {
  return {
    replicas: num(c.replicas),
    gpu: { count: num(c.gpu.count) },
    memory: str(c.memory),
  };
}

/** The ModelDeployment the form describes (what the preview and create send). */
export function toModelDeployment(values: WizardValues): ModelDeployment {
  const s = values.spec;
  const disaggregated = s.serving.mode === 'disaggregated';
  const overrides = parseOverrides(values.providerOverrides);
  const gpuType = str(s.resources.gpu.type);
  const spec = {
    model: {
      id: str(s.model.id),
      source: s.model.source,
      servedName:
        s.model.source === 'custom' ? undefined : str(s.model.servedName),
      storage: values.volumes.length ? { volumes: values.volumes } : undefined,
    },
    provider: {
      name: str(s.provider.name),
      overrides: overrides.ok ? overrides.value : undefined,
    },
    engine: {
      type: s.engine.type || undefined,
      contextLength: num(s.engine.contextLength),
      args: toMap(values.engineArgs),
    },
    serving: { mode: s.serving.mode },
    scaling: disaggregated
      ? {
          prefill: componentSpec(s.scaling.prefill),
          decode: componentSpec(s.scaling.decode),
        }
      : { replicas: num(s.scaling.replicas) },
    resources: {
      // Disaggregated GPU counts live in scaling.prefill/decode; only a non-default GPU type stays here.
      gpu: {
        count: disaggregated ? undefined : num(s.resources.gpu.count),
        type: gpuType === DEFAULT_GPU_RESOURCE ? undefined : gpuType,
      },
      memory: disaggregated ? undefined : str(s.resources.memory),
      cpu: str(s.resources.cpu),
    },
    image: str(s.image),
    env: values.env
      .filter(e => e.key.trim())
      .map(e => ({ name: e.key.trim(), value: e.value })),
    secrets: { huggingFaceToken: str(s.secrets.huggingFaceToken) },
    nodeSelector: toMap(values.nodeSelector),
    tolerations: values.tolerations
      .filter(t => t.key.trim() || t.operator === 'Exists')
      .map(t =>
        prune({
          key: str(t.key),
          operator: t.operator || undefined,
          value: t.operator === 'Exists' ? undefined : str(t.value),
          effect: t.effect || undefined,
        }),
      ),
    podTemplate: { metadata: { labels: toMap(values.podLabels) } },
    gateway: {
      enabled:
        s.gateway.enabled === '' ? undefined : s.gateway.enabled === 'true',
      modelName: str(s.gateway.modelName),
      httpRouteRef: str(s.gateway.httpRouteRef),
    },
  };
  const cleaned = prune(spec) ?? {};
  if (Array.isArray((cleaned as any).env) && (cleaned as any).env.length === 0)
    delete (cleaned as any).env;
  if (
    Array.isArray((cleaned as any).tolerations) &&
    (cleaned as any).tolerations.length === 0
  )
    delete (cleaned as any).tolerations;
  return {
    apiVersion: DEPLOYMENTS_API_VERSION,
    kind: 'ModelDeployment',
    metadata:
      prune({
        name: values.metadata.name.trim(),
        namespace: values.metadata.namespace.trim(),
        labels: toMap(values.labels),
      }) ?? {},
    spec: { model: {}, ...cleaned } as ModelDeploymentSpec,
  };
}

/** The form values of an existing deployment (for editing). */
/** A new deployment's values as a copy of `md`: same spec and labels, named `<name>-copy`. */
export function copyOfDeployment(
  cluster: string,
  md: ModelDeployment,
): WizardValues {
  const values = fromModelDeployment(cluster, md);
  return {
    ...values,
    metadata: {
      ...values.metadata,
      name: `${md.metadata?.name ?? 'deployment'}-copy`.slice(0, 63),
    },
  };
}

export function fromModelDeployment(
  cluster: string,
  md: ModelDeployment,
): WizardValues {
  const base = emptyWizardValues({
    cluster,
    namespace: md.metadata?.namespace,
  });
  const spec = md.spec ?? ({} as ModelDeploymentSpec);
  const n = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  const component = (c: ComponentScalingSpec | undefined): ComponentValues => ({
    replicas: n(c?.replicas ?? 1),
    gpu: { count: n(c?.gpu?.count ?? '') },
    memory: n(c?.memory),
  });
  return {
    ...base,
    metadata: {
      name: md.metadata?.name ?? '',
      namespace: md.metadata?.namespace ?? 'default',
    },
    labels: fromMap(md.metadata?.labels),
    spec: {
      model: {
        id: spec.model?.id ?? '',
        source: spec.model?.source ?? 'huggingface',
        servedName: spec.model?.servedName ?? '',
      },
      engine: {
        type: spec.engine?.type ?? '',
        contextLength: n(spec.engine?.contextLength),
      },
      provider: { name: spec.provider?.name ?? '' },
      serving: { mode: spec.serving?.mode ?? 'aggregated' },
      scaling: {
        replicas: n(spec.scaling?.replicas ?? 1),
        prefill: component(spec.scaling?.prefill),
        decode: component(spec.scaling?.decode),
      },
      resources: {
        gpu: {
          count: n(spec.resources?.gpu?.count ?? 0),
          type: spec.resources?.gpu?.type ?? DEFAULT_GPU_RESOURCE,
        },
        memory: n(spec.resources?.memory),
        cpu: n(spec.resources?.cpu),
      },
      secrets: { huggingFaceToken: spec.secrets?.huggingFaceToken ?? '' },
      image: spec.image ?? '',
      gateway: {
        enabled:
          typeof spec.gateway?.enabled === 'boolean'
            ? (String(spec.gateway.enabled) as 'true' | 'false')
            : '',
        modelName: spec.gateway?.modelName ?? '',
        httpRouteRef: spec.gateway?.httpRouteRef ?? '',
      },
    },
    volumes: spec.model?.storage?.volumes ?? [],
    engineArgs: fromMap(spec.engine?.args),
    env: (spec.env ?? []).map(e => ({ key: e.name, value: e.value ?? '' })),
    nodeSelector: fromMap(spec.nodeSelector),
    podLabels: fromMap(spec.podTemplate?.metadata?.labels),
    tolerations: (spec.tolerations ?? []).map(t => ({
      key: t.key ?? '',
      operator: (t.operator as TolerationRow['operator']) ?? '',
      value: t.value ?? '',
      effect: (t.effect as TolerationRow['effect']) ?? '',
    })),
    providerOverrides: spec.provider?.overrides
      ? JSON.stringify(spec.provider.overrides, null, 2)
      : '',
  };
}

/** Issue paths under a map or list edited as rows go to that field. */
/** Issues inside a map or list go to its editor (runway-common's form description), names to their fields. */
const ROW_FIELDS: Array<[prefix: string, field: string]> = [
  ...Object.entries(DEPLOYMENT_FORM_EDITORS).flatMap(
    ([field, prefix]): Array<[string, string]> =>
      prefix ? [[prefix, field]] : [],
  ),
  ['metadata.name', 'metadata.name'],
  ['metadata.namespace', 'metadata.namespace'],
];

/**
 * The form field an issue belongs to: the field of the same path when the
 * form has one, else the nearest enclosing field, else `root` (shown above
 * the step). `spec.env[0].name` → `env`; `spec.resources.gpu.count` →
 * `spec.resources.gpu.count`.
 */
export function fieldForIssue(
  path: string,
  fields: ReadonlySet<string>,
): string {
  for (const [prefix, field] of ROW_FIELDS) {
    if (
      path === prefix ||
      path.startsWith(`${prefix}.`) ||
      path.startsWith(`${prefix}[`)
    )
      return field;
  }
  let candidate = path
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\["([^"]*)"\]/g, '.$1');
  while (candidate) {
    if (fields.has(candidate)) return candidate;
    const dot = candidate.lastIndexOf('.');
    if (dot < 0) break;
    candidate = candidate.slice(0, dot);
  }
  return 'root';
}

/** Every form field (runway-common's form description: the steps' fields). */
export const SPEC_FIELDS: ReadonlySet<string> = DEPLOYMENT_FORM_FIELDS;

/** GPUs the deployment asks for in total (every replica of every component). */
export function totalGpus(md: ModelDeployment): number {
  const spec = md.spec;
  const times = (replicas: number | undefined, count: number | undefined) =>
    (Number.isFinite(replicas) ? (replicas as number) : 1) *
    (Number.isFinite(count) ? (count as number) : 0);
  if (spec.serving?.mode === 'disaggregated') {
    return (
      times(
        spec.scaling?.prefill?.replicas,
        spec.scaling?.prefill?.gpu?.count,
      ) +
      times(spec.scaling?.decode?.replicas, spec.scaling?.decode?.gpu?.count)
    );
  }
  return times(spec.scaling?.replicas, spec.resources?.gpu?.count);
}

export interface FormContext {
  /** The chosen cluster's providers (for engine availability and compatibility). */
  providers?: InferenceProviderConfig[];
  /** Free GPUs of the deployment's GPU type in the chosen cluster; undefined when unknown. */
  freeGpus?: number;
  /** The deployment being edited (update validation, identity warnings). */
  existing?: ModelDeployment;
  /** Namespaces the cluster opens to the portal; undefined when any. */
  namespaces?: string[];
}

export interface FieldIssue extends ValidationIssue {
  field: string;
}

/**
 * Validates the form: runway-common's create or update validation of the
 * object the form describes, plus what only the form knows (cluster chosen,
 * overrides parse, GPU capacity). Every issue is assigned to a form field.
 */
export function validateWizard(
  values: WizardValues,
  context: FormContext = {},
): FieldIssue[] {
  const md = toModelDeployment(values);
  const options = { providers: context.providers };
  const result = context.existing
    ? validateModelDeploymentUpdate(context.existing, md, options)
    : validateModelDeployment(md, options);
  const issues: ValidationIssue[] = [...result.issues];
  if (!values.cluster)
    issues.push({
      path: 'cluster',
      message: 'choose the cluster to deploy to',
      severity: 'error',
    });
  if (!md.metadata?.namespace) {
    issues.push({
      path: 'metadata.namespace',
      message: 'metadata.namespace is required: the namespace to deploy into',
      severity: 'error',
    });
  } else if (
    context.namespaces &&
    context.namespaces.length &&
    !context.namespaces.includes(md.metadata.namespace)
  ) {
    issues.push({
      path: 'metadata.namespace',
      message: `namespace ${
        md.metadata.namespace
      } is not open to the portal in cluster ${
        values.cluster
      }; choose one of ${context.namespaces.join(', ')}`,
      severity: 'error',
    });
  }
  const overrides = parseOverrides(values.providerOverrides);
  if (!overrides.ok)
    issues.push({
      path: 'spec.provider.overrides',
      message: overrides.message,
      severity: 'error',
    });
  if (context.freeGpus !== undefined) {
    const wanted = totalGpus(md);
    if (wanted > context.freeGpus) {
      const field =
        values.spec.serving.mode === 'disaggregated'
          ? 'spec.scaling.prefill.gpu.count'
          : 'spec.resources.gpu.count';
      issues.push({
        path: field,
        message: `this deployment needs ${wanted} GPU(s) but cluster ${values.cluster} has ${context.freeGpus} free; lower the GPU count or replicas, or pick another cluster (pods would stay Pending)`,
        severity: 'warning',
      });
    }
  }
  return dedupeIssues(issues).map(issue => ({
    ...issue,
    field: fieldForIssue(issue.path, SPEC_FIELDS),
  }));
}

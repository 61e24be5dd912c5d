/**
 * The stack form's values and their LlamaStackDistribution (v1alpha2, wire
 * form): the form edits the spec in place (its fields are named like the spec
 * paths, list rows by index), so runway-common's `validateStackV1alpha2`
 * issues land on the field of the same path, and every field the form does
 * not show (provider settings, overrides, autoscaling, ...) is kept as it
 * was. Pure.
 */
import {
  convertStack,
  isDnsLabel,
  normalizeStackV1alpha2,
  PROVIDER_APIS,
  type ProviderApi,
  STACK_KIND,
  STACK_V1ALPHA1,
  STACK_V1ALPHA2,
  type ValidationIssue,
  validateStackV1alpha2,
} from '@runway-portal/plugin-runway-common';
import type { KubeObject } from '../api/types';
import type { FieldIssue } from './form';

/** A provider row: the wire provider, its secret reference in the seed's form. */
export interface StackProviderRow {
  id?: string;
  provider: string;
  endpoint?: string;
  apiKey?: { secretKeyRef?: { name?: string; key?: string } };
  /** The running deployment the row was filled from (`namespace/name`); not written. */
  fromDeployment?: string;
}
// The form's types name only what it edits: the fields it does not (settings, overrides, ...) ride along untyped.

export interface StackModelRow {
  name: string;
  provider?: string;
  contextLength?: number | string;
}

export interface StackFormValues {
  cluster: string;
  metadata: { name: string; namespace: string };
  /** What the form edits in a way the wire form cannot hold directly. */
  ui: {
    distributionSource: 'name' | 'image';
    /** spec.resources.tools and .shields, comma separated. */
    tools: string;
    shields: string;
    expose: boolean;
    /** spec.networking.allowedFrom.namespaces and .labels, comma separated. */
    allowedNamespaces: string;
    allowedLabels: string;
    /** 'true' | 'false' | '' (the select's values). */
    tlsEnabled: string;
  };
  spec: {
    distribution: { name?: string; image?: string };
    providers: Partial<Record<ProviderApi, StackProviderRow[]>>;
    resources: { models: StackModelRow[] };
    storage?: {
      kv?: { type?: string; endpoint?: string; password?: SecretRef };
      sql?: { type?: string; connectionString?: SecretRef };
    };
    networking?: {
      port?: number | string;
      tls?: { enabled?: boolean; secretName?: string };
      expose?: { hostname?: string };
      allowedFrom?: unknown;
    };
    workload?: {
      replicas?: number | string;
      workers?: number | string;
      resources?: {
        requests?: Record<string, string>;
        limits?: Record<string, string>;
      };
      storage?: { size?: string; mountPath?: string };
    };
  };
}

type SecretRef = { secretKeyRef?: { name?: string; key?: string } };

/** The provider APIs the form shows, with their titles. */
export const STACK_PROVIDER_APIS: ReadonlyArray<{
  api: ProviderApi;
  title: string;
}> = PROVIDER_APIS.map(api => ({
  api,
  title: {
    inference: 'Inference',
    safety: 'Safety',
    vectorIo: 'Vector IO',
    toolRuntime: 'Tool runtime',
    telemetry: 'Telemetry',
  }[api],
}));

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);

const isObject = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text field's number: '' is unset; text that is not a number is kept, so the schema names the field. */
function numberish(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text) return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : value;
}

// Free-form maps and lists the form does not edit: written back exactly as they were.
const KEEP_AS_IS = new Set([
  'settings',
  'secretRefs',
  'overrides',
  'externalProviders',
  'topologySpreadConstraints',
  'podDisruptionBudget',
  'autoscaling',
  'caBundle',
]);

/** Drops empty strings, and the objects and lists they leave empty (what a blank field means). */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(prune).filter(v => v !== undefined);
    return items.length ? items : undefined;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const kept = KEEP_AS_IS.has(key) ? v : prune(v);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (value === '' || value === undefined || value === null) return undefined;
  return value;
}

/** A new stack's values: the first distribution the operator embeds, one empty inference provider. */
export function emptyStackValues(preset: {
  cluster?: string;
  namespace?: string;
  distribution?: string;
}): StackFormValues {
  return {
    cluster: preset.cluster ?? '',
    metadata: { name: '', namespace: preset.namespace ?? 'default' },
    ui: {
      distributionSource: 'name',
      tools: '',
      shields: '',
      expose: false,
      allowedNamespaces: '',
      allowedLabels: '',
      tlsEnabled: '',
    },
    spec: {
      distribution: { name: preset.distribution ?? '' },
      providers: { inference: [{ provider: 'vllm', endpoint: '' }] },
      resources: { models: [] },
      networking: { port: '' },
      workload: {
        replicas: '',
        workers: '',
        resources: {
          requests: { cpu: '', memory: '' },
          limits: { cpu: '', memory: '' },
        },
        storage: { size: '', mountPath: '' },
      },
      storage: {
        kv: { type: '', endpoint: '' },
        sql: { type: '' },
      },
    },
  };
}

/**
 * The form's values for an existing stack: a v1alpha1 object is converted
 * to v1alpha2 first (runway-common's conversion, the webhook's), then
 * normalized (shorthand and flat secret references to the wire form).
 */
export function fromStack(
  cluster: string,
  object: KubeObject,
): StackFormValues {
  const v2 =
    object.apiVersion === STACK_V1ALPHA1
      ? (convertStack(object, STACK_V1ALPHA2) as KubeObject)
      : object;
  const wire = normalizeStackV1alpha2(v2).object as KubeObject;
  const spec = structuredClone(wire.spec ?? {});
  const empty = emptyStackValues({});
  const networking = spec.networking ?? {};
  const allowed = networking.allowedFrom ?? {};
  const providers: Partial<Record<ProviderApi, StackProviderRow[]>> = {};
  for (const { api } of STACK_PROVIDER_APIS)
    if (Array.isArray(spec.providers?.[api]))
      providers[api] = spec.providers[api];
  return {
    cluster,
    metadata: {
      name: wire.metadata?.name ?? '',
      namespace: wire.metadata?.namespace ?? '',
    },
    ui: {
      distributionSource: spec.distribution?.image ? 'image' : 'name',
      tools: (spec.resources?.tools ?? []).join(', '),
      shields: (spec.resources?.shields ?? []).join(', '),
      expose: isObject(networking.expose),
      allowedNamespaces: (allowed.namespaces ?? []).join(', '),
      allowedLabels: (allowed.labels ?? []).join(', '),
      tlsEnabled:
        networking.tls?.enabled === undefined
          ? ''
          : String(networking.tls.enabled),
    },
    spec: {
      ...spec,
      distribution: spec.distribution ?? {},
      providers,
      resources: { ...spec.resources, models: spec.resources?.models ?? [] },
      networking: {
        ...networking,
        port: networking.port ?? '',
        expose: isObject(networking.expose) ? networking.expose : {},
      },
      workload: {
        ...empty.spec.workload,
        ...spec.workload,
        resources: {
          requests: {
            cpu: '',
            memory: '',
            ...spec.workload?.resources?.requests,
          },
          limits: { cpu: '', memory: '', ...spec.workload?.resources?.limits },
          ...(spec.workload?.resources?.claims
            ? { claims: spec.workload.resources.claims }
            : {}),
        },
        storage: { size: '', mountPath: '', ...spec.workload?.storage },
      },
      storage: {
        kv: { type: '', endpoint: '', ...spec.storage?.kv },
        sql: { type: '', ...spec.storage?.sql },
      },
    },
  };
}

/**
 * The LlamaStackDistribution the form describes (v1alpha2, wire form).
 * `existing` keeps its labels and annotations (conversion keeps what one
 * version cannot hold in an annotation: it must survive an edit).
 */
export function toStack(
  values: StackFormValues,
  existing?: KubeObject,
): KubeObject {
  const spec = structuredClone(values.spec) as Record<string, any>;
  if (values.ui.distributionSource === 'image')
    spec.distribution = { image: spec.distribution?.image };
  else spec.distribution = { name: spec.distribution?.name };

  const providers: Record<string, unknown[]> = {};
  for (const { api } of STACK_PROVIDER_APIS) {
    const rows = (spec.providers?.[api] ?? []) as StackProviderRow[];
    const kept = rows.map(({ fromDeployment: _shown, ...row }) => row);
    if (kept.length) providers[api] = kept;
  }
  spec.providers = providers;

  spec.resources = {
    ...spec.resources,
    models: (spec.resources?.models ?? []).map((m: StackModelRow) => ({
      ...m,
      contextLength: numberish(m.contextLength),
    })),
    tools: list(values.ui.tools),
    shields: list(values.ui.shields),
  };

  const storage = spec.storage ?? {};
  if (!storage.kv?.type) delete storage.kv;
  if (!storage.sql?.type) delete storage.sql;

  const networking = { ...spec.networking };
  networking.port = numberish(networking.port);
  networking.allowedFrom = {
    ...(isObject(networking.allowedFrom) ? networking.allowedFrom : {}),
    namespaces: list(values.ui.allowedNamespaces),
    labels: list(values.ui.allowedLabels),
  };
  if (values.ui.tlsEnabled)
    networking.tls = {
      ...networking.tls,
      enabled: values.ui.tlsEnabled === 'true',
    };
  else if (networking.tls) delete networking.tls.enabled;
  const hostname = networking.expose?.hostname;
  delete networking.expose;
  spec.networking = networking;

  const workload = { ...spec.workload };
  workload.replicas = numberish(workload.replicas);
  workload.workers = numberish(workload.workers);
  spec.workload = workload;

  const pruned = (prune(spec) ?? {}) as Record<string, any>;
  // `expose: {}` means exposed (the seed's `expose: true`): added after pruning, which would drop it.
  if (values.ui.expose) {
    pruned.networking = {
      ...pruned.networking,
      expose: hostname ? { hostname } : {},
    };
  }
  pruned.distribution ??= {};

  const { labels, annotations } = existing?.metadata ?? {};
  return {
    apiVersion: STACK_V1ALPHA2,
    kind: STACK_KIND,
    metadata: {
      name: values.metadata.name,
      namespace: values.metadata.namespace,
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: pruned,
  };
}

/** Form fields that hold a list the spec spells element by element. */
const LIST_FIELDS: Array<[string, string]> = [
  ['spec.resources.tools', 'ui.tools'],
  ['spec.resources.shields', 'ui.shields'],
  ['spec.networking.allowedFrom.namespaces', 'ui.allowedNamespaces'],
  ['spec.networking.allowedFrom.labels', 'ui.allowedLabels'],
  ['spec.networking.tls.enabled', 'ui.tlsEnabled'],
];

/**
 * The form field of an issue: lists edited as text take their elements'
 * issues; otherwise the spec path with indexes as segments
 * (`spec.providers.inference[0].endpoint` → `spec.providers.inference.0.endpoint`),
 * which is how the form names its fields.
 */
export function stackFieldForIssue(path: string): string {
  for (const [prefix, field] of LIST_FIELDS)
    if (path === prefix || path.startsWith(`${prefix}[`)) return field;
  if (path === '(root)' || !path) return 'root';
  if (path === 'spec' || path === 'spec.distribution')
    return 'spec.distribution.name';
  return path.replace(/\[(\d+)\]/g, '.$1').replace(/\["([^"]*)"\]/g, '.$1');
}

export interface StackFormContext {
  /** The names the stack operator embeds. */
  distributions?: readonly string[];
  /** Namespaces the cluster opens to the portal; undefined when any. */
  namespaces?: string[];
}

/**
 * Validates the form: runway-common's `validateStackV1alpha2` (the API's
 * and the webhook's) on the object the form describes, with the operator's
 * distribution names, plus what only the form knows (a cluster is chosen,
 * the namespace is open to the portal).
 */
export function validateStackForm(
  values: StackFormValues,
  context: StackFormContext = {},
  existing?: KubeObject,
): FieldIssue[] {
  const stack = toStack(values, existing);
  const issues: ValidationIssue[] = [
    ...validateStackV1alpha2(stack, {
      knownDistributions: context.distributions?.length
        ? context.distributions
        : undefined,
    }).issues,
  ];
  if (!values.cluster)
    issues.push({
      path: 'cluster',
      message: 'choose the cluster to run the stack in',
      severity: 'error',
    });
  // The API server checks the name too; the stack's Service and Deployment are named after it, so a label.
  const name = values.metadata.name;
  if (!name)
    issues.push({
      path: 'metadata.name',
      message: 'metadata.name is required: the name of the stack',
      severity: 'error',
    });
  else if (!isDnsLabel(name))
    issues.push({
      path: 'metadata.name',
      message: `metadata.name "${name}" must be at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit (its Service and Deployment are named after it)`,
      severity: 'error',
    });
  const namespace = values.metadata.namespace;
  if (!namespace) {
    issues.push({
      path: 'metadata.namespace',
      message: 'metadata.namespace is required: the namespace to run it in',
      severity: 'error',
    });
  } else if (
    context.namespaces?.length &&
    !context.namespaces.includes(namespace)
  ) {
    issues.push({
      path: 'metadata.namespace',
      message: `namespace ${namespace} is not open to the portal in cluster ${
        values.cluster
      }; choose one of ${context.namespaces.join(', ')}`,
      severity: 'error',
    });
  }
  const seen = new Set<string>();
  return issues
    .filter(i => {
      const key = `${i.severity}|${i.path}|${i.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(issue => ({ ...issue, field: stackFieldForIssue(issue.path) }));
}

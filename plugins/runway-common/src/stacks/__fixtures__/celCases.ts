/**
 * One object per CEL rule of the Model and LlamaStackDistribution CRDs that
 * breaks exactly that rule, with the path and message the API server (and
 * the local validators) must report. Used by the unit tests and by the
 * integration test against a real API server.
 */
import { MODEL_API_VERSION } from '../../models/schema';
import { STACK_V1ALPHA1, STACK_V1ALPHA2 } from '../v1alpha1';
import { PROVIDER_APIS } from '../v1alpha2';

export interface CelCase {
  name: string;
  object: Record<string, any>;
  /** Where the rule sits (with `[]` for list items and `.*` for map values, as `collectCelRules` names it). */
  rulePath: string;
  /** The message the API server gives for this object. */
  message: string;
}

export function stackV2(name: string, spec: Record<string, unknown>): Record<string, any> {
  return {
    apiVersion: STACK_V1ALPHA2,
    kind: 'LlamaStackDistribution',
    metadata: { name },
    spec: { distribution: { name: 'starter' }, ...spec },
  };
}

export function stackV1(name: string, server: Record<string, unknown>): Record<string, any> {
  return {
    apiVersion: STACK_V1ALPHA1,
    kind: 'LlamaStackDistribution',
    metadata: { name },
    spec: { server: { distribution: { name: 'starter' }, ...server } },
  };
}

export function model(name: string, spec: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: MODEL_API_VERSION,
    kind: 'Model',
    metadata: { name },
    spec: {
      source: { huggingFace: { repoId: 'meta-llama/Llama-3.1-8B-Instruct' } },
      storage: { storageClass: 'standard', size: '20Gi' },
      ...spec,
    },
  };
}

const vllm = { provider: 'vllm', endpoint: 'http://vllm:8000' };
const secret = { secretKeyRef: { name: 'creds', key: 'token' } };

export const MODEL_CEL_CASES: CelCase[] = [
  {
    name: 'model without source',
    object: model('no-source', { source: {} }),
    rulePath: 'spec.source',
    message: 'spec.source must set exactly one of huggingFace, s3 or url: remove the others, or add one if none is set',
  },
  {
    name: 'model with two sources',
    object: model('two-sources', { source: { huggingFace: { repoId: 'a/b' }, url: { url: 'https://example.com/m' } } }),
    rulePath: 'spec.source',
    message: 'spec.source must set exactly one of huggingFace, s3 or url: remove the others, or add one if none is set',
  },
  {
    name: 'model with a name too long for its Job',
    object: model('m'.repeat(49)),
    rulePath: '',
    message:
      'metadata.name must be at most 48 characters of lowercase letters, digits and "-", starting and ending with a letter or digit, because the download Job is named model-download-<name>',
  },
];

export const STACK_V1ALPHA1_CEL_CASES: CelCase[] = [
  {
    name: 'v1alpha1 distribution with name and image',
    object: stackV1('v1-both', { distribution: { name: 'starter', image: 'example.com/llama:1' } }),
    rulePath: 'spec.server.distribution',
    message: 'Only one of name or image can be specified',
  },
];

export const STACK_V1ALPHA2_CEL_CASES: CelCase[] = [
  {
    name: 'distribution with name and image',
    object: stackV2('dist-both', { distribution: { name: 'starter', image: 'example.com/llama:1' } }),
    rulePath: 'spec.distribution',
    message: 'spec.distribution: set name or image, not both',
  },
  {
    name: 'distribution with neither name nor image',
    object: stackV2('dist-none', { distribution: {} }),
    rulePath: 'spec.distribution',
    message: 'spec.distribution: set name (e.g. "starter") or image',
  },
  // FR-070
  ...(
    [
      ['providers', { inference: [vllm] }],
      ['resources', { tools: ['websearch'] }],
      ['storage', { kv: { type: 'sqlite' } }],
      ['disabled', ['eval']],
    ] as const
  ).map(([field, value]) => ({
    name: `overrideConfig with ${field} (FR-070)`,
    object: stackV2(`override-${field}`, { overrideConfig: { configMapName: 'my-config' }, [field]: value }),
    rulePath: 'spec',
    message: `spec.overrideConfig and spec.${field} are mutually exclusive: remove one of them`,
  })),
  // FR-071
  ...PROVIDER_APIS.map(api => ({
    name: `two ${api} providers without ids (FR-071)`,
    object: stackV2(`ids-${api.toLowerCase()}`, {
      providers: { [api]: [{ id: 'first', provider: 'a' }, { provider: 'b' }] },
    }),
    rulePath: `spec.providers.${api}`,
    message: `providers.${api} lists several providers: give each one an explicit id`,
  })),
  // FR-035: the generated id must be usable as an id.
  ...PROVIDER_APIS.map(api => ({
    name: `${api} provider whose name cannot be its id (FR-035)`,
    object: stackV2(`genid-${api.toLowerCase()}`, { providers: { [api]: [{ provider: 'inline::meta-reference' }] } }),
    rulePath: `spec.providers.${api}`,
    message: `providers.${api}: a provider without id uses its provider name as id, which must be letters, digits, "-" or "_": set an explicit id`,
  })),
  // FR-072
  {
    name: 'the same provider id in two APIs (FR-072)',
    object: stackV2('dup-ids', {
      providers: { inference: [{ id: 'shared', provider: 'vllm' }], safety: [{ id: 'shared', provider: 'llama-guard' }] },
    }),
    rulePath: 'spec.providers',
    message:
      'provider ids must be unique across all provider types (a provider without id uses its provider name as id): give the duplicates distinct ids',
  },
  {
    name: 'a secret reference in both forms',
    object: stackV2('secret-both', {
      providers: { inference: [{ ...vllm, apiKey: { ...secret, name: 'creds', key: 'token' } }] },
    }),
    rulePath: 'spec.providers.inference[].apiKey',
    message: 'set either secretKeyRef: {name, key} or name and key',
  },
  {
    name: 'a redis password with only a name',
    object: stackV2('secret-half', { storage: { kv: { type: 'redis', endpoint: 'redis://r:6379', password: { name: 'redis' } } } }),
    rulePath: 'spec.storage.kv.password',
    message: 'set either secretKeyRef: {name, key} or name and key',
  },
  {
    name: 'an empty postgres connection string reference',
    object: stackV2('secret-empty', { storage: { sql: { type: 'postgres', connectionString: {} } } }),
    rulePath: 'spec.storage.sql.connectionString',
    message: 'set either secretKeyRef: {name, key} or name and key',
  },
  {
    name: 'redis without endpoint',
    object: stackV2('redis-no-endpoint', { storage: { kv: { type: 'redis' } } }),
    rulePath: 'spec.storage.kv',
    message: 'storage.kv.endpoint is required when storage.kv.type is redis',
  },
  {
    name: 'postgres without connection string',
    object: stackV2('pg-no-conn', { storage: { sql: { type: 'postgres' } } }),
    rulePath: 'spec.storage.sql',
    message: 'storage.sql.connectionString is required when storage.sql.type is postgres',
  },
  {
    name: 'TLS enabled without secret',
    object: stackV2('tls-no-secret', { networking: { tls: { enabled: true } } }),
    rulePath: 'spec.networking.tls',
    message: 'networking.tls.secretName is required when networking.tls.enabled is true',
  },
  {
    name: 'autoscaling with max below min',
    object: stackV2('hpa-range', { workload: { autoscaling: { minReplicas: 3, maxReplicas: 2 } } }),
    rulePath: 'spec.workload.autoscaling',
    message: 'workload.autoscaling.maxReplicas must be greater than or equal to minReplicas',
  },
  {
    name: 'a PDB with minAvailable and maxUnavailable',
    object: stackV2('pdb-both', { workload: { podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 } } }),
    rulePath: 'spec.workload.podDisruptionBudget',
    message: 'workload.podDisruptionBudget: set minAvailable or maxUnavailable, not both',
  },
];

import type { TSchema } from '@sinclair/typebox';
import { parse } from 'yaml';
import {
  collectCelRules,
  celRuleIssues,
  type ValidationIssue,
} from '../schema';
import { ModelSchema } from '../models/schema';
import { validateModel } from '../models/validate';
import {
  type CelCase,
  MODEL_CEL_CASES,
  STACK_V1ALPHA1_CEL_CASES,
  STACK_V1ALPHA2_CEL_CASES,
  stackV1,
  stackV2,
} from './__fixtures__/celCases';
import { upstreamStackSamples } from './__fixtures__/upstream';
import { defaultStackV1alpha1, defaultStackV1alpha2 } from './defaults';
import { normalizeStackV1alpha2 } from './normalize';
import { StackV1alpha1Schema } from './v1alpha1';
import { StackV1alpha2Schema } from './v1alpha2';
import {
  providerEntries,
  stackSecretReferences,
  validateStack,
  validateStackV1alpha1,
  validateStackV1alpha2,
} from './validate';

const errorsOf = (issues: ValidationIssue[]) =>
  issues.filter(i => i.severity === 'error');
const warningsOf = (issues: ValidationIssue[]) =>
  issues.filter(i => i.severity === 'warning');

/** Seed 004's "Complete v1alpha2 Spec Structure", with the shorthand forms it uses. */
const SEED_EXAMPLE = parse(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: my-stack
spec:
  distribution:
    name: starter
  providers:
    inference:
      - id: vllm-primary
        provider: vllm
        endpoint: "http://vllm:8000"
        apiKey:
          secretKeyRef: {name: vllm-creds, key: token}
        settings:
          max_tokens: 8192
    safety:
      provider: llama-guard
    vectorIo:
      provider: pgvector
      settings:
        host:
          secretKeyRef: {name: pg-creds, key: host}
  resources:
    models:
      - "llama3.2-8b"
      - name: "llama3.2-70b"
        provider: vllm-primary
        contextLength: 128000
    tools:
      - websearch
      - rag
    shields:
      - llama-guard
  storage:
    kv:
      type: sqlite
    sql:
      type: postgres
      connectionString:
        secretKeyRef: {name: pg-creds, key: url}
  disabled:
    - postTraining
    - eval
  networking:
    port: 8321
    tls:
      enabled: true
      secretName: llama-tls
      caBundle:
        configMapName: custom-ca
    expose: true
    allowedFrom:
      namespaces: ["app-ns"]
      labels: ["llama-access"]
  workload:
    replicas: 1
    workers: 2
    resources:
      requests: {cpu: "500m", memory: "1Gi"}
      limits: {cpu: "2", memory: "4Gi"}
    autoscaling:
      minReplicas: 1
      maxReplicas: 5
      targetCPUUtilizationPercentage: 80
    storage:
      size: "10Gi"
      mountPath: "/.llama"
    podDisruptionBudget:
      minAvailable: 1
    topologySpreadConstraints: []
    overrides:
      serviceAccountName: "custom-sa"
      env: []
      command: []
      args: []
      volumes: []
      volumeMounts: []
  externalProviders:
    inference:
      - providerId: custom-inference
        image: registry.example.com/custom:v1
`);

const samples = upstreamStackSamples();

describe('upstream llama-stack samples', () => {
  it('are all found (5 v1alpha1 files, 4 v1alpha2 files)', () => {
    expect(samples.length).toBe(11);
  });

  it.each(samples)('%s validates without errors or warnings', (_name, obj) => {
    expect(validateStack(obj)).toEqual({ valid: true, issues: [] });
  });
});

describe("seed 004's complete example", () => {
  it('validates without errors', () => {
    const result = validateStackV1alpha2(SEED_EXAMPLE);
    expect(errorsOf(result.issues)).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('CEL rules', () => {
  const schemas: Array<[string, any, CelCase[]]> = [
    ['Model', ModelSchema, MODEL_CEL_CASES],
    [
      'LlamaStackDistribution v1alpha1',
      StackV1alpha1Schema,
      STACK_V1ALPHA1_CEL_CASES,
    ],
    [
      'LlamaStackDistribution v1alpha2',
      StackV1alpha2Schema,
      STACK_V1ALPHA2_CEL_CASES,
    ],
  ];

  it.each(schemas)(
    'every rule of %s has a case that breaks it',
    (_kind, schema, cases) => {
      const rules = collectCelRules(schema);
      expect(rules.length).toBeGreaterThan(0);
      for (const { path, rule } of rules) {
        const covered = cases.some(
          c =>
            c.message === rule.message &&
            (c.rulePath === path || samePlace(c.rulePath, path)),
        );
        if (!covered)
          throw new Error(
            `no case breaks the rule at ${path || '(root)'}: ${rule.message}`,
          );
      }
    },
  );

  const validatorOf = (obj: any) =>
    obj.kind === 'Model' ? validateModel(obj) : validateStack(obj);
  const allCases = [
    ...MODEL_CEL_CASES,
    ...STACK_V1ALPHA1_CEL_CASES,
    ...STACK_V1ALPHA2_CEL_CASES,
  ];

  it.each(allCases.map(c => [c.name, c] as const))(
    '%s: the validator reports the rule, and only it',
    (_name, c) => {
      const result = validatorOf(c.object);
      expect(result.valid).toBe(false);
      const messages = errorsOf(result.issues).map(i => i.message);
      expect(messages).toContain(c.message);
      // Apart from FR-072's detailed companion, nothing else is wrong with the case.
      expect(
        messages.filter(
          m => m !== c.message && !m.includes('is already used by'),
        ),
      ).toEqual([]);
    },
  );

  it.each(allCases.map(c => [c.name, c] as const))(
    '%s: the rule evaluates locally without error',
    (_name, c) => {
      const [schema, value] = schemaAndDefaulted(c.object);
      const failures: string[] = [];
      celRuleIssues(schema, value, '', {
        onError: (path, rule, error) =>
          failures.push(`${path}: ${rule.rule}: ${error}`),
      });
      expect(failures).toEqual([]);
    },
  );

  it('every rule compiles and evaluates on a valid object', () => {
    const failures: string[] = [];
    const onError = (path: string, rule: { rule: string }, error: string) =>
      failures.push(`${path}: ${rule.rule}: ${error}`);
    const full = defaultStackV1alpha2(
      normalizeStackV1alpha2(SEED_EXAMPLE).object as any,
    );
    expect(celRuleIssues(StackV1alpha2Schema, full, '', { onError })).toEqual(
      [],
    );
    expect(failures).toEqual([]);
  });
});

/** The schema of an object and the object as the API server defaults it. */
function schemaAndDefaulted(obj: any): [TSchema, unknown] {
  if (obj.kind === 'Model') return [ModelSchema, obj];
  if (obj.apiVersion.endsWith('v1alpha1'))
    return [StackV1alpha1Schema, defaultStackV1alpha1(obj)];
  return [StackV1alpha2Schema, defaultStackV1alpha2(obj)];
}

/** `spec.providers.inference[].apiKey` and `spec.providers.safety[].apiKey` are the same rule in another place. */
function samePlace(a: string, b: string): boolean {
  const generic = (p: string) =>
    p.replace(/spec\.providers\.[A-Za-z]+\[\]/, 'spec.providers.*[]');
  return generic(a) === generic(b);
}

describe('validateStackV1alpha2: structure', () => {
  it.each([
    [
      'a missing distribution',
      {
        apiVersion: 'llamastack.io/v1alpha2',
        kind: 'LlamaStackDistribution',
        metadata: { name: 'x' },
        spec: {},
      },
      'spec.distribution',
      'spec.distribution is required',
    ],
    [
      'a provider without provider',
      stackV2('p', { providers: { inference: [{ endpoint: 'http://x' }] } }),
      'spec.providers.inference[0].provider',
      'is required',
    ],
    [
      'an empty provider list',
      stackV2('p', { providers: { inference: [] } }),
      'spec.providers.inference',
      'must have at least 1 item',
    ],
    [
      '17 providers',
      stackV2('p', {
        providers: {
          inference: Array.from({ length: 17 }, (_, i) => ({
            id: `p${i}`,
            provider: 'vllm',
          })),
        },
      }),
      'spec.providers.inference',
      'must have at most 16 items',
    ],
    [
      'a provider id with a dot',
      stackV2('p', {
        providers: { inference: [{ id: 'a.b', provider: 'vllm' }] },
      }),
      'spec.providers.inference[0].id',
      'must be letters, digits, "-" or "_"',
    ],
    [
      'a provider id of 64 characters',
      stackV2('p', {
        providers: { inference: [{ id: 'a'.repeat(64), provider: 'vllm' }] },
      }),
      'spec.providers.inference[0].id',
      'at most 63 characters',
    ],
    [
      'an unknown disabled API',
      stackV2('p', { disabled: ['vector_io'] }),
      'spec.disabled[0]',
      'must be one of: agents, batches',
    ],
    [
      'an unknown kv type',
      stackV2('p', { storage: { kv: { type: 'etcd' } } }),
      'spec.storage.kv.type',
      'must be one of: sqlite, redis',
    ],
    [
      'an unknown sql type',
      stackV2('p', { storage: { sql: { type: 'mysql' } } }),
      'spec.storage.sql.type',
      'must be one of: sqlite, postgres',
    ],
    [
      'port 0',
      stackV2('p', { networking: { port: 0 } }),
      'spec.networking.port',
      'must be at least 1',
    ],
    [
      'port 70000',
      stackV2('p', { networking: { port: 70000 } }),
      'spec.networking.port',
      'must be at most 65535',
    ],
    [
      'negative replicas',
      stackV2('p', { workload: { replicas: -1 } }),
      'spec.workload.replicas',
      'must be at least 0',
    ],
    [
      'zero workers',
      stackV2('p', { workload: { workers: 0 } }),
      'spec.workload.workers',
      'must be at least 1',
    ],
    [
      'a CPU target over 100%',
      stackV2('p', {
        workload: {
          autoscaling: { maxReplicas: 2, targetCPUUtilizationPercentage: 120 },
        },
      }),
      'spec.workload.autoscaling.targetCPUUtilizationPercentage',
      'must be at most 100',
    ],
    [
      'autoscaling without maxReplicas',
      stackV2('p', { workload: { autoscaling: { minReplicas: 1 } } }),
      'spec.workload.autoscaling.maxReplicas',
      'is required',
    ],
    [
      'a bad storage size',
      stackV2('p', { workload: { storage: { size: '10 GB' } } }),
      'spec.workload.storage.size',
      'must be a Kubernetes quantity',
    ],
    [
      'a bad resource quantity',
      stackV2('p', { workload: { resources: { limits: { cpu: 'two' } } } }),
      'spec.workload.resources.limits.cpu',
      'must be a Kubernetes quantity',
    ],
    [
      'an env var without name',
      stackV2('p', { workload: { overrides: { env: [{ value: 'x' }] } } }),
      'spec.workload.overrides.env[0].name',
      'is required',
    ],
    [
      'a volume without name',
      stackV2('p', {
        workload: { overrides: { volumes: [{ emptyDir: {} }] } },
      }),
      'spec.workload.overrides.volumes[0].name',
      'is required',
    ],
    [
      'a model without name',
      stackV2('p', { resources: { models: [{ provider: 'x' }] } }),
      'spec.resources.models[0].name',
      'is required',
    ],
    [
      'a zero context length',
      stackV2('p', {
        resources: { models: [{ name: 'm', contextLength: 0 }] },
      }),
      'spec.resources.models[0].contextLength',
      'must be at least 1',
    ],
    [
      'an empty tool name',
      stackV2('p', { resources: { tools: [''] } }),
      'spec.resources.tools[0]',
      'must not be empty',
    ],
    [
      'an empty overrideConfig name',
      stackV2('p', { overrideConfig: { configMapName: '' } }),
      'spec.overrideConfig.configMapName',
      'must not be empty',
    ],
    [
      'an external provider without image',
      stackV2('p', { externalProviders: { inference: [{ providerId: 'x' }] } }),
      'spec.externalProviders.inference[0].image',
      'is required',
    ],
    [
      'a wrong apiVersion',
      { ...stackV2('p', {}), apiVersion: 'llamastack.io/v1' },
      'apiVersion',
      'apiVersion must be "llamastack.io/v1alpha2"',
    ],
    [
      'a wrong kind',
      { ...stackV2('p', {}), kind: 'LlamaStack' },
      'kind',
      'kind must be "LlamaStackDistribution"',
    ],
    [
      'not an object',
      [],
      '(root)',
      'a LlamaStackDistribution must be an object',
    ],
  ])('rejects %s', (_label, input, path, message) => {
    const found = errorsOf(validateStackV1alpha2(input).issues);
    const at = found.filter(i => i.path === path);
    expect(at.map(i => i.path)).toEqual([path]);
    expect(at[0].message).toContain(message);
  });
});

describe('validateStackV1alpha2: rules of the validating webhook (FR-076)', () => {
  const vllm = {
    id: 'vllm-primary',
    provider: 'vllm',
    endpoint: 'http://vllm:8000',
  };

  it.each([
    [
      'a model that names an unknown provider (edge case)',
      stackV2('r', {
        providers: { inference: [vllm] },
        resources: { models: [{ name: 'm', provider: 'ollama' }] },
      }),
      {},
      'spec.resources.models[0].provider',
      'spec.resources.models[0].provider "ollama" is not the id of an inference provider; available inference provider ids: "vllm-primary"',
    ],
    [
      'a model that names a safety provider',
      stackV2('r', {
        providers: { inference: [vllm], safety: [{ provider: 'llama-guard' }] },
        resources: { models: [{ name: 'm', provider: 'llama-guard' }] },
      }),
      {},
      'spec.resources.models[0].provider',
      'spec.resources.models[0].provider "llama-guard" is not the id of an inference provider; available inference provider ids: "vllm-primary"',
    ],
    [
      'tools without a toolRuntime provider anywhere (FR-043)',
      stackV2('r', { resources: { tools: ['websearch'] } }),
      { baseConfigProviders: { inference: ['ollama'] } },
      'spec.resources.tools',
      'resources.tools requires at least one toolRuntime provider to be configured',
    ],
    [
      'shields without a safety provider anywhere (FR-044)',
      stackV2('r', { resources: { shields: ['llama-guard'] } }),
      { baseConfigProviders: {} },
      'spec.resources.shields',
      'resources.shields requires at least one safety provider to be configured',
    ],
    [
      'models without an inference provider anywhere',
      stackV2('r', { resources: { models: [{ name: 'm' }] } }),
      { baseConfigProviders: { safety: ['llama-guard'] } },
      'spec.resources.models',
      'resources.models requires at least one inference provider to be configured',
    ],
    [
      'tools while toolRuntime is disabled',
      stackV2('r', {
        resources: { tools: ['websearch'] },
        disabled: ['toolRuntime'],
      }),
      {},
      'spec.resources.tools',
      'spec.resources.tools needs the toolRuntime API, which spec.disabled disables: remove one of them',
    ],
    [
      'a settings secretKeyRef without key (FR-005)',
      stackV2('r', {
        providers: {
          vectorIo: [
            {
              provider: 'pgvector',
              settings: { host: { secretKeyRef: { name: 'pg' } } },
            },
          ],
        },
      }),
      {},
      'spec.providers.vectorIo[0].settings.host.secretKeyRef',
      'spec.providers.vectorIo[0].settings.host.secretKeyRef must be {name: <secret>, key: <key>} with both set',
    ],
    [
      'an unknown distribution name',
      stackV2('r', { distribution: { name: 'startr' } }),
      { knownDistributions: ['starter', 'starter-gpu', 'postgres-demo'] },
      'spec.distribution.name',
      'spec.distribution.name "startr" is not a known distribution; use one of: starter, starter-gpu, postgres-demo, or set spec.distribution.image',
    ],
    [
      'a provider id used twice (FR-072, named)',
      stackV2('r', {
        providers: {
          inference: [{ provider: 'vllm' }],
          safety: [{ id: 'vllm', provider: 'llama-guard' }],
        },
      }),
      {},
      'spec.providers.safety[0].id',
      'spec.providers.safety[0].id: provider id "vllm" is already used by spec.providers.inference[0]; give each provider a distinct id',
    ],
  ])('rejects %s', (_label, input, options, path, message) => {
    const found = errorsOf(validateStackV1alpha2(input, options).issues);
    expect(found).toContainEqual({ path, message, severity: 'error' });
  });

  it.each([
    [
      'a model that names a base-config provider',
      stackV2('r', {
        providers: { inference: [vllm] },
        resources: { models: [{ name: 'm', provider: 'ollama' }] },
      }),
      { baseConfigProviders: { inference: ['ollama'] } },
    ],
    [
      'a model without provider',
      stackV2('r', {
        providers: { inference: [vllm] },
        resources: { models: ['m'] },
      }),
      {},
    ],
    [
      'a model naming a provider when the CR has none and the base config is unknown',
      stackV2('r', {
        resources: { models: [{ name: 'm', provider: 'ollama' }] },
      }),
      {},
    ],
    [
      'tools when the base config has a toolRuntime provider',
      stackV2('r', { resources: { tools: ['websearch'] } }),
      { baseConfigProviders: { toolRuntime: ['rag-runtime'] } },
    ],
    [
      'tools with an explicit toolRuntime provider',
      stackV2('r', {
        providers: { toolRuntime: [{ provider: 'tavily-search' }] },
        resources: { tools: ['websearch'] },
      }),
      { baseConfigProviders: {} },
    ],
    [
      'shields when the base config is unknown',
      stackV2('r', { resources: { shields: ['llama-guard'] } }),
      {},
    ],
    [
      'a known distribution name',
      stackV2('r', { distribution: { name: 'starter' } }),
      { knownDistributions: ['starter'] },
    ],
    [
      'a deeper secretKeyRef in settings (passed through, FR-005)',
      stackV2('r', {
        providers: {
          vectorIo: [
            {
              provider: 'pgvector',
              settings: {
                database: { connection: { secretKeyRef: { name: 'db' } } },
              },
            },
          ],
        },
      }),
      {},
    ],
  ])('accepts %s', (_label, input, options) => {
    expect(errorsOf(validateStackV1alpha2(input, options).issues)).toEqual([]);
  });

  it.each([
    [
      'a provider of a disabled API (OQ-002: warning, disabled wins)',
      stackV2('w', {
        providers: { inference: [vllm] },
        disabled: ['inference'],
      }),
      'spec.providers.inference',
      'spec.providers.inference is ignored because spec.disabled disables inference; remove one of them',
    ],
    [
      'a direct image without overrideConfig (FR-027c)',
      stackV2('w', { distribution: { image: 'registry.example.com/llama:1' } }),
      'spec.distribution.image',
      'Direct image references require either overrideConfig.configMapName or OCI config labels on the image; set spec.overrideConfig.configMapName unless the image carries io.llamastack.config.* labels',
    ],
    [
      'an external provider replacing an inline one (FR-092)',
      stackV2('w', {
        providers: { inference: [vllm] },
        externalProviders: {
          inference: [{ providerId: 'vllm-primary', image: 'x/y:1' }],
        },
      }),
      'spec.externalProviders.inference[0].providerId',
      'spec.externalProviders.inference[0] replaces the inline provider with id "vllm-primary"',
    ],
    [
      'a redis endpoint on sqlite',
      stackV2('w', { storage: { kv: { endpoint: 'redis://r:6379' } } }),
      'spec.storage.kv.endpoint',
      'spec.storage.kv.endpoint is ignored because spec.storage.kv.type is sqlite',
    ],
    [
      'a redis password on sqlite',
      stackV2('w', {
        storage: {
          kv: { password: { secretKeyRef: { name: 'r', key: 'p' } } },
        },
      }),
      'spec.storage.kv.password',
      'spec.storage.kv.password is ignored because spec.storage.kv.type is sqlite',
    ],
    [
      'a connection string on sqlite',
      stackV2('w', {
        storage: {
          sql: {
            type: 'sqlite',
            connectionString: { secretKeyRef: { name: 'pg', key: 'dsn' } },
          },
        },
      }),
      'spec.storage.sql.connectionString',
      'spec.storage.sql.connectionString is ignored because spec.storage.sql.type is sqlite',
    ],
    [
      'an unknown field',
      stackV2('w', { networking: { expose: {}, hostname: 'x' } }),
      'spec.networking.hostname',
      'spec.networking.hostname is not a known field',
    ],
  ])('warns about %s, without rejecting', (_label, input, path, message) => {
    const result = validateStackV1alpha2(input);
    expect(result.valid).toBe(true);
    const warning = warningsOf(result.issues).find(i => i.path === path);
    expect(warning?.message).toContain(message);
  });

  it('points issues of shorthand input at the field as written', () => {
    const input = stackV2('s', {
      providers: {
        inference: { provider: 'vllm', apiKey: { name: 'creds' } },
        safety: { provider: '' },
      },
      resources: { models: ['ok', ''] },
    });
    const paths = errorsOf(validateStackV1alpha2(input).issues).map(
      i => `${i.path}: ${i.message}`,
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        'spec.providers.safety.provider: spec.providers.safety.provider must not be empty',
        'spec.resources.models[1]: spec.resources.models[1] must not be empty',
        'spec.providers.inference.apiKey: set either secretKeyRef: {name, key} or name and key',
      ]),
    );
  });
});

describe('normalizeStackV1alpha2 (seed 004 shorthand forms)', () => {
  it.each([
    [
      'a single provider object (FR-004)',
      { providers: { safety: { provider: 'llama-guard' } } },
      { providers: { safety: [{ provider: 'llama-guard' }] } },
    ],
    [
      'a list of providers (unchanged)',
      { providers: { inference: [{ id: 'a', provider: 'vllm' }] } },
      { providers: { inference: [{ id: 'a', provider: 'vllm' }] } },
    ],
    [
      'a model string (FR-007)',
      { resources: { models: ['llama3.2-8b', { name: 'x' }] } },
      { resources: { models: [{ name: 'llama3.2-8b' }, { name: 'x' }] } },
    ],
    [
      'expose: true (FR-011)',
      { networking: { expose: true } },
      { networking: { expose: {} } },
    ],
    [
      'expose: {} (edge case: enabled with defaults)',
      { networking: { expose: {} } },
      { networking: { expose: {} } },
    ],
    [
      'expose: false',
      { networking: { expose: false, port: 1 } },
      { networking: { port: 1 } },
    ],
    [
      'expose with hostname',
      { networking: { expose: { hostname: 'llama.example.com' } } },
      { networking: { expose: { hostname: 'llama.example.com' } } },
    ],
    [
      'a flat apiKey',
      {
        providers: {
          inference: { provider: 'vllm', apiKey: { name: 's', key: 'k' } },
        },
      },
      {
        providers: {
          inference: [
            {
              provider: 'vllm',
              apiKey: { secretKeyRef: { name: 's', key: 'k' } },
            },
          ],
        },
      },
    ],
    [
      'a flat connection string (upstream form)',
      {
        storage: {
          sql: {
            type: 'postgres',
            connectionString: { name: 'pg', key: 'dsn' },
          },
        },
      },
      {
        storage: {
          sql: {
            type: 'postgres',
            connectionString: { secretKeyRef: { name: 'pg', key: 'dsn' } },
          },
        },
      },
    ],
    [
      'a flat redis password',
      {
        storage: {
          kv: {
            type: 'redis',
            endpoint: 'e',
            password: { name: 'r', key: 'p' },
          },
        },
      },
      {
        storage: {
          kv: {
            type: 'redis',
            endpoint: 'e',
            password: { secretKeyRef: { name: 'r', key: 'p' } },
          },
        },
      },
    ],
  ])('rewrites %s', (_label, spec, expected) => {
    const { object } = normalizeStackV1alpha2({ spec });
    expect(object).toEqual({ spec: expected });
    expect(normalizeStackV1alpha2(object).object).toEqual(object); // idempotent
  });

  it('does not change its input', () => {
    const input = {
      spec: { providers: { safety: { provider: 'llama-guard' } } },
    };
    normalizeStackV1alpha2(input);
    expect(input).toEqual({
      spec: { providers: { safety: { provider: 'llama-guard' } } },
    });
  });

  it('leaves non-objects alone', () => {
    expect(normalizeStackV1alpha2('x').object).toBe('x');
    expect(normalizeStackV1alpha2({ spec: 3 }).object).toEqual({ spec: 3 });
  });
});

describe('defaults', () => {
  const at = (obj: any, path: string) =>
    path.split('.').reduce((n, k) => n?.[k], obj);

  it.each([
    ['networking.port (FR-060)', {}, 'spec.networking.port', 8321],
    [
      'networking.port with networking given',
      { networking: { allowedFrom: { namespaces: ['a'] } } },
      'spec.networking.port',
      8321,
    ],
    ['workload.replicas', {}, 'spec.workload.replicas', 1],
    [
      'workload.storage.mountPath',
      { workload: { storage: { size: '20Gi' } } },
      'spec.workload.storage.mountPath',
      '/.llama',
    ],
    [
      'storage.kv.type (FR-050b)',
      { storage: { kv: {} } },
      'spec.storage.kv.type',
      'sqlite',
    ],
    [
      'storage.sql.type (FR-051a)',
      { storage: { sql: {} } },
      'spec.storage.sql.type',
      'sqlite',
    ],
    [
      'env valueFrom secretKeyRef name',
      {
        workload: {
          overrides: {
            env: [{ name: 'A', valueFrom: { secretKeyRef: { key: 'k' } } }],
          },
        },
      },
      'spec.workload.overrides.env.0.valueFrom.secretKeyRef.name',
      '',
    ],
  ])('v1alpha2 %s', (_label, spec, path, value) => {
    expect(at(defaultStackV1alpha2(stackV2('d', spec) as any), path)).toEqual(
      value,
    );
  });

  it.each([
    ['storage (FR-053: absent stays absent)', 'spec.storage'],
    ['workload.storage', 'spec.workload.storage'],
    ['networking.tls', 'spec.networking.tls'],
    ['networking.expose', 'spec.networking.expose'],
  ])('v1alpha2 adds no %s', (_label, path) => {
    expect(
      at(defaultStackV1alpha2(stackV2('d', {}) as any), path),
    ).toBeUndefined();
  });

  it('keeps values that are set', () => {
    const out = defaultStackV1alpha2(
      stackV2('d', {
        networking: { port: 9000 },
        workload: { replicas: 0 },
        storage: { kv: { type: 'redis', endpoint: 'e' } },
      }) as any,
    );
    expect(out.spec.networking!.port).toBe(9000);
    expect(out.spec.workload!.replicas).toBe(0);
    expect(out.spec.storage!.kv!.type).toBe('redis');
  });

  it.each([
    ['replicas', {}, 'spec.replicas', 1],
    [
      'containerSpec.name',
      { containerSpec: {} },
      'spec.server.containerSpec.name',
      'llama-stack',
    ],
    ['network.exposeRoute', {}, 'spec.network.exposeRoute', undefined],
  ])('v1alpha1 %s (as upstream)', (_label, server, path, value) => {
    expect(at(defaultStackV1alpha1(stackV1('d', server) as any), path)).toEqual(
      value,
    );
  });

  it('v1alpha1 defaults exposeRoute when network is given', () => {
    const input = {
      ...stackV1('d', {}),
      spec: { ...stackV1('d', {}).spec, network: {} },
    };
    expect(
      (defaultStackV1alpha1(input as any).spec as any).network.exposeRoute,
    ).toBe(false);
  });
});

describe('validateStackV1alpha1', () => {
  it.each([
    [
      'a missing server',
      {
        apiVersion: 'llamastack.io/v1alpha1',
        kind: 'LlamaStackDistribution',
        spec: {},
      },
      'spec.server',
      'is required',
    ],
    [
      'zero workers',
      stackV1('v', { workers: 0 }),
      'spec.server.workers',
      'must be at least 1',
    ],
    [
      'a string port',
      stackV1('v', { containerSpec: { port: '8321' } }),
      'spec.server.containerSpec.port',
      'must be a whole number',
    ],
    [
      'a CA bundle without ConfigMap name',
      stackV1('v', { tlsConfig: { caBundle: {} } }),
      'spec.server.tlsConfig.caBundle.configMapName',
      'is required',
    ],
    [
      '51 CA bundle keys',
      stackV1('v', {
        tlsConfig: {
          caBundle: {
            configMapName: 'c',
            configMapKeys: Array.from({ length: 51 }, (_, i) => `k${i}`),
          },
        },
      }),
      'spec.server.tlsConfig.caBundle.configMapKeys',
      'must have at most 50 items',
    ],
    [
      'a topology constraint without key',
      stackV1('v', {
        topologySpreadConstraints: [
          { maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' },
        ],
      }),
      'spec.server.topologySpreadConstraints[0].topologyKey',
      'is required',
    ],
  ])('rejects %s', (_label, input, path, message) => {
    const found = errorsOf(validateStackV1alpha1(input).issues).find(
      i => i.path === path,
    );
    expect(found?.message).toContain(message);
  });

  it('accepts what upstream accepts but v1alpha2 would reject (both PDB fields, 0% targets)', () => {
    const input = stackV1('v', {
      podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 },
      autoscaling: { maxReplicas: 1, targetCPUUtilizationPercentage: 0 },
    });
    expect(validateStackV1alpha1(input)).toEqual({ valid: true, issues: [] });
  });

  it('is chosen by validateStack for v1alpha1 objects', () => {
    expect(validateStack(stackV1('v', { workers: 0 })).issues[0].path).toBe(
      'spec.server.workers',
    );
  });
});

describe('providerEntries and stackSecretReferences', () => {
  const spec = normalizeStackV1alpha2(SEED_EXAMPLE).object as any;

  it('lists providers with their effective ids (FR-035)', () => {
    expect(
      providerEntries(spec.spec).map(e => [e.path, e.effectiveId]),
    ).toEqual([
      ['spec.providers.inference[0]', 'vllm-primary'],
      ['spec.providers.safety[0]', 'llama-guard'],
      ['spec.providers.vectorIo[0]', 'pgvector'],
    ]);
  });

  it('lists every secret reference of the seed example (FR-073)', () => {
    expect(stackSecretReferences(spec.spec)).toEqual([
      {
        path: 'spec.providers.inference[0].apiKey.secretKeyRef',
        name: 'vllm-creds',
        key: 'token',
      },
      {
        path: 'spec.providers.vectorIo[0].settings.host.secretKeyRef',
        name: 'pg-creds',
        key: 'host',
      },
      {
        path: 'spec.storage.sql.connectionString.secretKeyRef',
        name: 'pg-creds',
        key: 'url',
      },
      { path: 'spec.networking.tls.secretName', name: 'llama-tls' },
    ]);
  });

  it('lists upstream-form references (secretRefs, flat connection string)', () => {
    const upstream = samples.find(([name]) =>
      name.includes('llamastack-vllm-pg'),
    )![1];
    expect(
      stackSecretReferences(upstream.spec).map(
        r => `${r.path}=${r.name}/${r.key}`,
      ),
    ).toEqual([
      'spec.providers.inference[0].secretRefs.api_key=vllm-creds/token',
      'spec.providers.vectorIo[0].secretRefs.host=pg-credentials/host',
      'spec.storage.sql.connectionString=pg-credentials/dsn',
    ]);
  });
});

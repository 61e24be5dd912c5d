import { stackV1, stackV2 } from './__fixtures__/celCases';
import { upstreamStackSamples } from './__fixtures__/upstream';
import {
  convertStack,
  convertStackToV1alpha1,
  convertStackToV1alpha2,
  FIELD_MAP,
  V1ALPHA1_FIELDS_ANNOTATION,
  V1ALPHA2_FIELDS_ANNOTATION,
} from './conversion';
import { defaultStackV1alpha1, defaultStackV1alpha2 } from './defaults';
import { validateStackV1alpha1, validateStackV1alpha2 } from './validate';

const get = (obj: any, path: string) =>
  path.split('.').reduce((n, k) => n?.[k], obj);

/** Seed 004's "Field Mapping: v1alpha1 to v1alpha2" table, row by row (except the new fields). */
const SEED_TABLE: Array<[string, string]> = [
  ['spec.server.distribution', 'spec.distribution'],
  ['spec.server.containerSpec.port', 'spec.networking.port'],
  ['spec.server.containerSpec.resources', 'spec.workload.resources'],
  ['spec.server.containerSpec.env', 'spec.workload.overrides.env'],
  ['spec.server.containerSpec.command', 'spec.workload.overrides.command'],
  ['spec.server.containerSpec.args', 'spec.workload.overrides.args'],
  ['spec.server.userConfig', 'spec.overrideConfig'],
  ['spec.server.storage', 'spec.workload.storage'],
  ['spec.server.tlsConfig.caBundle', 'spec.networking.tls.caBundle'],
  ['spec.server.autoscaling', 'spec.workload.autoscaling'],
  ['spec.server.workers', 'spec.workload.workers'],
  ['spec.server.podOverrides', 'spec.workload.overrides'],
  ['spec.server.podDisruptionBudget', 'spec.workload.podDisruptionBudget'],
  [
    'spec.server.topologySpreadConstraints',
    'spec.workload.topologySpreadConstraints',
  ],
  ['spec.replicas', 'spec.workload.replicas'],
  ['spec.network.exposeRoute', 'spec.networking.expose'],
  ['spec.network.allowedFrom', 'spec.networking.allowedFrom'],
];

/** A v1alpha1 object using every field. */
const fullV1 = {
  apiVersion: 'llamastack.io/v1alpha1',
  kind: 'LlamaStackDistribution',
  metadata: {
    name: 'full',
    namespace: 'ns',
    labels: { team: 'ai' },
    annotations: { note: 'kept' },
  },
  spec: {
    replicas: 2,
    server: {
      distribution: { name: 'starter' },
      containerSpec: {
        name: 'server',
        port: 9000,
        resources: {
          requests: { cpu: '1', memory: '2Gi' },
          limits: { 'nvidia.com/gpu': 1 },
        },
        env: [
          { name: 'A', value: '1' },
          { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        ],
        command: ['python'],
        args: ['-m', 'llama_stack'],
      },
      podOverrides: {
        serviceAccountName: 'sa',
        terminationGracePeriodSeconds: 30,
        volumes: [{ name: 'cache', emptyDir: {} }],
        volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
      },
      podDisruptionBudget: { maxUnavailable: '25%' },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'ScheduleAnyway',
        },
      ],
      autoscaling: {
        minReplicas: 1,
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 70,
      },
      workers: 3,
      storage: { size: '20Gi', mountPath: '/data' },
      userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
      tlsConfig: {
        caBundle: { configMapName: 'ca', configMapKeys: ['a.crt', 'b.crt'] },
      },
    },
    network: {
      exposeRoute: true,
      allowedFrom: { namespaces: ['a'], labels: ['b'] },
    },
  },
  status: {
    phase: 'Ready',
    availableReplicas: 2,
    conditions: [
      {
        type: 'DeploymentReady',
        status: 'True',
        reason: 'Ready',
        message: '',
        lastTransitionTime: '2025-01-01T00:00:00Z',
      },
    ],
    version: { operatorVersion: 'v0.9.0', llamaStackServerVersion: '0.7.1' },
    distributionConfig: {
      activeDistribution: 'starter',
      availableDistributions: { starter: 'img' },
    },
    serviceURL: 'http://full.ns.svc:9000',
    routeURL: 'https://full.example.com',
  },
};

/** A v1alpha2 object using every field. */
const fullV2 = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'full2', namespace: 'ns' },
  spec: {
    distribution: { name: 'starter' },
    providers: {
      inference: [
        {
          id: 'vllm-primary',
          provider: 'vllm',
          endpoint: 'http://vllm:8000',
          apiKey: { secretKeyRef: { name: 'v', key: 't' } },
          settings: { max_tokens: 8192 },
        },
      ],
      safety: [{ provider: 'llama-guard' }],
    },
    resources: {
      models: [
        {
          name: 'llama3.2-8b',
          provider: 'vllm-primary',
          contextLength: 128000,
        },
      ],
      tools: ['websearch'],
      shields: ['llama-guard'],
    },
    storage: {
      kv: { type: 'redis', endpoint: 'redis://r:6379' },
      sql: {
        type: 'postgres',
        connectionString: { secretKeyRef: { name: 'pg', key: 'dsn' } },
      },
    },
    disabled: ['eval'],
    networking: {
      port: 8321,
      tls: {
        enabled: true,
        secretName: 'tls',
        caBundle: { configMapName: 'ca' },
      },
      expose: { hostname: 'llama.example.com' },
      allowedFrom: { namespaces: ['*'] },
    },
    workload: {
      replicas: 3,
      workers: 2,
      resources: { requests: { cpu: '500m' } },
      autoscaling: { minReplicas: 1, maxReplicas: 5 },
      storage: { size: '10Gi', mountPath: '/.llama' },
      podDisruptionBudget: { minAvailable: 1 },
      topologySpreadConstraints: [],
      overrides: {
        serviceAccountName: 'sa',
        env: [],
        command: [],
        args: [],
        volumes: [],
        volumeMounts: [],
      },
    },
    externalProviders: {
      inference: [
        { providerId: 'custom', image: 'registry.example.com/custom:v1' },
      ],
    },
  },
  status: {
    phase: 'Ready',
    resolvedDistribution: {
      image: 'docker.io/llamastack/distribution-starter@sha256:abc',
      configSource: 'embedded',
      configHash: 'sha256:def',
    },
    configGeneration: {
      configMapName: 'full2-config-abc',
      generatedAt: '2026-02-02T12:00:00Z',
      providerCount: 2,
      resourceCount: 1,
    },
    availableReplicas: 3,
  },
};

describe('FIELD_MAP', () => {
  it.each(SEED_TABLE)('covers the seed row %s -> %s', (v1, v2) => {
    const covered = FIELD_MAP.some(
      ([a, b]) =>
        (a === v1 || a.startsWith(`${v1}.`)) &&
        (b === v2 || b.startsWith(`${v2}.`)),
    );
    expect(
      covered ||
        (v1 === 'spec.network.exposeRoute' && v2 === 'spec.networking.expose'),
    ).toBe(true);
  });
});

describe('v1alpha1 -> v1alpha2', () => {
  const v2 = convertStackToV1alpha2(fullV1 as any) as any;

  it.each(FIELD_MAP.map(([a, b]) => [a, b] as const))(
    'moves %s to %s',
    (from, to) => {
      expect(get(v2, to)).toEqual(get(fullV1, from));
    },
  );

  it('turns exposeRoute: true into expose: {}', () => {
    expect(v2.spec.networking.expose).toEqual({});
  });

  it('keeps what v1alpha2 cannot hold in an annotation, and other metadata as is', () => {
    expect(
      JSON.parse(v2.metadata.annotations[V1ALPHA1_FIELDS_ANNOTATION]),
    ).toEqual({
      spec: {
        server: {
          containerSpec: { name: 'server' },
          userConfig: { configMapNamespace: 'shared' },
        },
      },
    });
    expect(v2.metadata.annotations.note).toBe('kept');
    expect(v2.metadata.labels).toEqual({ team: 'ai' });
    expect(v2.apiVersion).toBe('llamastack.io/v1alpha2');
  });

  it('produces a valid v1alpha2 object', () => {
    expect(
      validateStackV1alpha2(v2).issues.filter(i => i.severity === 'error'),
    ).toEqual([]);
  });

  it('converts back to exactly the original', () => {
    expect(convertStackToV1alpha1(v2)).toEqual(fullV1);
  });

  it('does not change its input', () => {
    const copy = JSON.parse(JSON.stringify(fullV1));
    convertStackToV1alpha2(copy);
    expect(copy).toEqual(fullV1);
  });
});

describe('v1alpha2 -> v1alpha1', () => {
  const v1 = convertStackToV1alpha1(fullV2 as any) as any;

  it.each(FIELD_MAP.map(([a, b]) => [b, a] as const))(
    'moves %s to %s',
    (from, to) => {
      expect(get(v1, to)).toEqual(get(fullV2, from));
    },
  );

  it('turns expose into exposeRoute: true and keeps the hostname aside', () => {
    expect(v1.spec.network.exposeRoute).toBe(true);
    const aside = JSON.parse(
      v1.metadata.annotations[V1ALPHA2_FIELDS_ANNOTATION],
    );
    expect(aside.spec.networking).toEqual({
      tls: { enabled: true, secretName: 'tls' },
      expose: { hostname: 'llama.example.com' },
    });
    expect(Object.keys(aside.spec).sort()).toEqual([
      'disabled',
      'externalProviders',
      'networking',
      'providers',
      'resources',
      'storage',
    ]);
  });

  it('produces a valid v1alpha1 object', () => {
    expect(validateStackV1alpha1(v1)).toEqual({ valid: true, issues: [] });
  });

  it('converts back to exactly the original', () => {
    const back = convertStackToV1alpha2(v1) as any;
    expect(back.spec).toEqual(fullV2.spec);
    expect(back.metadata).toEqual(fullV2.metadata);
    // Status too: the API server's apply prunes through a v1alpha1 manager's version.
    expect(back.status).toEqual(fullV2.status);
  });
});

describe('edits made through the other version', () => {
  it('an exposure switched off in v1alpha1 stays off', () => {
    const v1 = convertStackToV1alpha1(fullV2 as any) as any;
    v1.spec.network.exposeRoute = false;
    const v2 = convertStackToV1alpha2(v1) as any;
    expect(v2.spec.networking.expose).toBeUndefined();
    expect(v2.spec.providers).toEqual(fullV2.spec.providers);
  });

  it('a field changed in v1alpha1 wins over the set-aside copy', () => {
    const v2 = convertStackToV1alpha2(fullV1 as any) as any;
    v2.spec.workload.overrides.env = [{ name: 'C', value: '3' }];
    v2.spec.networking.port = 8321;
    const v1 = convertStackToV1alpha1(v2) as any;
    expect(v1.spec.server.containerSpec).toEqual({
      ...fullV1.spec.server.containerSpec,
      env: [{ name: 'C', value: '3' }],
      port: 8321,
    });
  });

  it('exposing in v1alpha2 an object that had exposeRoute: false', () => {
    const v1 = stackV1('x', {});
    (v1.spec as any).network = { exposeRoute: false };
    const v2 = convertStackToV1alpha2(v1 as any) as any;
    expect(v2.spec.networking).toBeUndefined();
    v2.spec.networking = { expose: {} };
    expect((convertStackToV1alpha1(v2) as any).spec.network).toEqual({
      exposeRoute: true,
    });
  });

  it('ignores a broken annotation instead of failing', () => {
    const v1 = {
      ...stackV1('x', {}),
      metadata: {
        name: 'x',
        annotations: { [V1ALPHA2_FIELDS_ANNOTATION]: '{not json' },
      },
    };
    const v2 = convertStackToV1alpha2(v1 as any) as any;
    expect(v2.metadata).toEqual({ name: 'x' });
    expect(v2.spec).toEqual({ distribution: { name: 'starter' } });
  });
});

describe('round trips', () => {
  const samples = upstreamStackSamples();
  const other = (v: string) =>
    v.endsWith('v1alpha1')
      ? 'llamastack.io/v1alpha2'
      : 'llamastack.io/v1alpha1';

  it.each(samples)(
    '%s survives a round trip, and its conversion validates',
    (_name, obj) => {
      const converted = convertStack(obj, other(obj.apiVersion));
      const result = converted.apiVersion.endsWith('v1alpha1')
        ? validateStackV1alpha1(converted)
        : validateStackV1alpha2(converted);
      expect(result.issues.filter(i => i.severity === 'error')).toEqual([]);
      expect(convertStack(converted, obj.apiVersion)).toEqual(obj);
    },
  );

  it.each(samples)(
    '%s survives a round trip after the API server defaults it',
    (_name, obj) => {
      const defaulted = obj.apiVersion.endsWith('v1alpha1')
        ? defaultStackV1alpha1(obj as any)
        : defaultStackV1alpha2(obj as any);
      expect(
        convertStack(
          convertStack(defaulted, other(obj.apiVersion)),
          obj.apiVersion,
        ),
      ).toEqual(defaulted);
    },
  );

  it.each([
    [
      'an empty network',
      {
        ...stackV1('e', {}),
        spec: { server: { distribution: { name: 'starter' } }, network: {} },
      },
    ],
    ['an empty containerSpec', stackV1('e', { containerSpec: {} })],
    ['an empty podOverrides', stackV1('e', { podOverrides: {} })],
    [
      'an image distribution',
      stackV1('e', { distribution: { image: 'registry/llama:1' } }),
    ],
  ])('v1alpha1 with %s survives a round trip', (_name, obj) => {
    expect(convertStackToV1alpha1(convertStackToV1alpha2(obj as any))).toEqual(
      obj,
    );
  });

  it.each([
    ['an empty networking', stackV2('e', { networking: {} })],
    [
      'TLS without CA bundle',
      stackV2('e', { networking: { tls: { enabled: true, secretName: 's' } } }),
    ],
    ['an empty workload', stackV2('e', { workload: {} })],
    [
      'overrideConfig',
      stackV2('e', { overrideConfig: { configMapName: 'c' } }),
    ],
  ])('v1alpha2 with %s survives a round trip', (_name, obj) => {
    expect(convertStackToV1alpha2(convertStackToV1alpha1(obj as any))).toEqual(
      obj,
    );
  });
});

describe('convertStack', () => {
  it('returns a copy when the version is already the desired one', () => {
    const obj = stackV2('s', {});
    const out = convertStack(obj, 'llamastack.io/v1alpha2');
    expect(out).toEqual(obj);
    expect(out).not.toBe(obj);
  });

  it.each([
    [
      stackV2('s', {}),
      'llamastack.io/v1beta1',
      'cannot convert to apiVersion "llamastack.io/v1beta1": expected one of llamastack.io/v1alpha1, llamastack.io/v1alpha2',
    ],
    [
      { ...stackV2('s', {}), apiVersion: 'llamastack.io/v2' },
      'llamastack.io/v1alpha1',
      'cannot convert from apiVersion "llamastack.io/v2"',
    ],
    [
      'text',
      'llamastack.io/v1alpha1',
      'the object to convert must be a LlamaStackDistribution object',
    ],
  ])('refuses %j to %s with a clear error', (obj, version, message) => {
    expect(() => convertStack(obj, version)).toThrow(message);
  });
});

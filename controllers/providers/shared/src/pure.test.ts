import { KubeApiError } from '@runway-portal/controller-runtime';
import {
  KAITO_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  crdNotInstalledMessage,
  detectApiVersion,
  schemaHash,
} from './crdVersion';
import type { ProviderDefinition } from './definition';
import {
  DESIRED_ANNOTATION,
  IDENTITY_ANNOTATION,
  desiredObjects,
  propagatedLabels,
  resolveDeployment,
} from './desired';
import { applyDecision, containsDesired } from './drift';
import {
  DEFAULT_FINALIZER_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_PROVIDER_WORKERS,
} from './controller';
import { parseProviderOptions, providerOptions } from './options';
import { checkOverrides } from './overrides';
import { registrationStatus } from './registration';
import {
  providerNeedsWork,
  applyFailedStatus,
  applyFailure,
  deployedStatus,
  incompatibleStatus,
  notCreatedStatus,
  statusUpToDate,
} from './status';

const upstream = {
  group: 'kaito.sh',
  kind: 'Workspace',
  plural: 'workspaces',
  versions: ['v1beta1', 'v1alpha1'],
};

/** A CRD with [name, served, storage?] versions. */
function crd(versions: Array<[string, boolean, boolean?]>, established = true) {
  return {
    metadata: { name: 'workspaces.kaito.sh' },
    spec: {
      group: 'kaito.sh',
      versions: versions.map(([name, served, storage = false]) => ({
        name,
        served,
        storage,
      })),
    },
    status: {
      conditions: [
        { type: 'Established', status: established ? 'True' : 'False' },
      ],
    },
  };
}

describe('detectApiVersion', () => {
  it('prefers the provider order among served versions when none is the storage version', () => {
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1alpha1', true],
          ['v1beta1', true],
        ]),
      ),
    ).toBe('kaito.sh/v1beta1');
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1alpha1', true],
          ['v1beta1', false],
        ]),
      ),
    ).toBe('kaito.sh/v1alpha1');
  });
  it('prefers the storage version the provider supports, so writes need no conversion webhook', () => {
    // Dynamo v1.3.0-era: stores v1alpha1, serves v1beta1 through the operator's webhook.
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1alpha1', true, true],
          ['v1beta1', true],
        ]),
      ),
    ).toBe('kaito.sh/v1alpha1');
    // Current releases store the provider's preferred version.
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1alpha1', true],
          ['v1beta1', true, true],
        ]),
      ),
    ).toBe('kaito.sh/v1beta1');
  });
  it('falls back to the provider order when the storage version is unknown to it or not served', () => {
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1', true, true],
          ['v1alpha1', true],
          ['v1beta1', true],
        ]),
      ),
    ).toBe('kaito.sh/v1beta1');
    expect(
      detectApiVersion(
        upstream,
        crd([
          ['v1alpha1', false, true],
          ['v1beta1', true],
        ]),
      ),
    ).toBe('kaito.sh/v1beta1');
  });
  it('is undefined when missing, not established or no known version is served', () => {
    expect(detectApiVersion(upstream, undefined)).toBeUndefined();
    expect(
      detectApiVersion(upstream, crd([['v1beta1', true]], false)),
    ).toBeUndefined();
    expect(detectApiVersion(upstream, crd([['v2', true]]))).toBeUndefined();
  });
  it('hashes the schema of the detected version', () => {
    const c = crd([['v1beta1', true]]) as any;
    c.spec.versions[0].schema = { openAPIV3Schema: { type: 'object' } };
    const h = schemaHash(c, 'kaito.sh/v1beta1');
    expect(h).toMatch(/^[0-9a-f]{12}$/);
    c.spec.versions[0].schema.openAPIV3Schema.properties = {
      x: { type: 'string' },
    };
    expect(schemaHash(c, 'kaito.sh/v1beta1')).not.toBe(h);
    expect(schemaHash(c, 'kaito.sh/v1alpha1')).toBeUndefined();
  });
  it('has the seed message', () => {
    expect(crdNotInstalledMessage('kaito')).toBe(
      "Provider 'kaito' CRD not installed in cluster",
    );
  });
});

describe('checkOverrides', () => {
  const schema = {
    head: {
      resources: { cpu: 'string' as const, memory: 'string' as const },
      rayStartParams: 'stringMap' as const,
    },
    replicas: 'integer' as const,
  };
  it('reports unknown keys at any depth', () => {
    const r = checkOverrides(
      {
        head: { resources: { cpu: '4', cpus: '3' }, replicsa: 1 },
        extra: true,
      },
      schema,
    );
    expect(r.unknown).toEqual([
      'spec.provider.overrides.head.resources.cpus',
      'spec.provider.overrides.head.replicsa',
      'spec.provider.overrides.extra',
    ]);
    expect(r.errors).toEqual([]);
  });
  it('fails wrong types naming the field', () => {
    const r = checkOverrides(
      {
        head: { resources: { cpu: 4 }, rayStartParams: { 'num-cpus': 0 } },
        replicas: 1.5,
      },
      schema,
    );
    expect(r.errors).toEqual([
      'spec.provider.overrides.head.resources.cpu must be a string, got a number: fix the value in spec.provider.overrides',
      'spec.provider.overrides.head.rayStartParams.num-cpus must be a string, got a number: fix the value in spec.provider.overrides',
      'spec.provider.overrides.replicas must be a whole number, got a number: fix the value in spec.provider.overrides',
    ]);
    expect(checkOverrides('x', schema).errors[0]).toContain(
      'spec.provider.overrides must be an object',
    );
    expect(checkOverrides(undefined, schema)).toEqual({
      unknown: [],
      errors: [],
    });
  });
  it('treats every key as unknown for a provider without overrides', () => {
    expect(checkOverrides({ a: 1 }, {}).unknown).toEqual([
      'spec.provider.overrides.a',
    ]);
  });
});

describe('containsDesired and applyDecision', () => {
  it('ignores added fields, not changed or removed ones', () => {
    expect(
      containsDesired(
        { a: 1, b: { c: [1, 2] } },
        { a: 1, b: { c: [1, 2], d: 3 }, e: 4 },
      ),
    ).toBe(true);
    expect(containsDesired({ a: 1 }, { a: 2 })).toBe(false);
    expect(containsDesired({ b: { c: [1, 2] } }, { b: { c: [1] } })).toBe(
      false,
    );
    expect(containsDesired({ b: {} }, {})).toBe(true);
  });
  const desired = {
    apiVersion: 'kaito.sh/v1beta1',
    kind: 'Workspace',
    metadata: {
      name: 'w',
      labels: { x: 'y' },
      annotations: { [IDENTITY_ANNOTATION]: 'i1', [DESIRED_ANNOTATION]: 'd1' },
    },
    resource: { count: 1 },
  };
  it('decides create, none, update, drift and recreate', () => {
    expect(applyDecision(desired, undefined)).toBe('create');
    const live = structuredClone(desired) as any;
    live.status = { conditions: [] };
    expect(applyDecision(desired, live)).toBe('none');
    const { apiVersion: _a, kind: _k, ...listed } = live; // list items carry no apiVersion/kind
    expect(applyDecision(desired, listed)).toBe('none');
    expect(
      applyDecision(
        {
          ...desired,
          metadata: {
            ...desired.metadata,
            annotations: {
              [IDENTITY_ANNOTATION]: 'i1',
              [DESIRED_ANNOTATION]: 'd2',
            },
          },
        },
        live,
      ),
    ).toBe('update');
    expect(applyDecision(desired, { ...live, resource: { count: 3 } })).toBe(
      'drift',
    );
    expect(
      applyDecision(desired, {
        ...live,
        metadata: { ...live.metadata, labels: {} },
      }),
    ).toBe('drift');
    expect(
      applyDecision(
        {
          ...desired,
          metadata: {
            ...desired.metadata,
            annotations: { [IDENTITY_ANNOTATION]: 'i2' },
          },
        },
        live,
      ),
    ).toBe('recreate');
  });
});

const md = (
  patch: Partial<ModelDeployment['spec']> = {},
  labels: Record<string, string> = {},
): ModelDeployment => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'm', namespace: 'ns', uid: 'u-1', labels },
  spec: { model: { id: 'org/model' }, ...patch },
  status: { provider: { name: 'kaito' }, engine: { type: 'llamacpp' } },
});

const definition: ProviderDefinition = {
  name: 'kaito',
  registration: KAITO_PROVIDER,
  version: 'test',
  upstream,
  overrides: {},
  transform: d => ({
    objects: [
      {
        apiVersion: 'kaito.sh/v1beta1',
        kind: 'Workspace',
        metadata: { name: d.metadata!.name },
        engine: d.spec.engine?.type,
      },
    ],
  }),
  mapStatus: () => ({
    phase: 'Running',
    message: '',
    ready: true,
    reason: 'R',
  }),
};

describe('desiredObjects', () => {
  it('resolves the engine from status and decorates every object', () => {
    expect(resolveDeployment(md()).spec.engine?.type).toBe('llamacpp');
    const { objects } = desiredObjects(
      definition,
      md({}, { 'airunway.ai/team': 'a', other: 'b' }),
      { apiVersion: 'kaito.sh/v1beta1' },
    );
    expect(objects[0].engine).toBe('llamacpp');
    expect(objects[0].metadata).toMatchObject({
      name: 'm',
      namespace: 'ns',
      labels: { 'airunway.ai/team': 'a', 'airunway.ai/managed-by': 'airunway' },
      ownerReferences: [
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          name: 'm',
          uid: 'u-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(objects[0].metadata!.labels!.other).toBeUndefined();
  });
  it('changes the identity hash only with identity fields', () => {
    const id = (d: ModelDeployment) =>
      desiredObjects(definition, d, { apiVersion: 'x/v1' }).objects[0].metadata!
        .annotations!;
    const base = id(md());
    expect(id(md({ image: 'other' }))[IDENTITY_ANNOTATION]).toBe(
      base[IDENTITY_ANNOTATION],
    );
    expect(
      id(md({ model: { id: 'org/other' } }))[IDENTITY_ANNOTATION],
    ).not.toBe(base[IDENTITY_ANNOTATION]);
    expect(propagatedLabels(md())).toEqual({
      'airunway.ai/managed-by': 'airunway',
    });
  });
});

describe('providerNeedsWork', () => {
  const deployment = (generation: number, seen?: number, deleting = false) => ({
    metadata: {
      generation,
      ...(deleting ? { deletionTimestamp: '2026-11-26T05:00:00Z' } : {}),
    },
    status: {
      conditions: [
        // The core's condition says nothing about the provider.
        { type: 'ProviderSelected', observedGeneration: generation },
        ...(seen === undefined
          ? []
          : [{ type: 'ProviderCompatible', observedGeneration: seen }]),
      ],
    },
  });
  it('replays first what the provider has not acted on, and deletions', () => {
    expect(providerNeedsWork(deployment(1))).toBe(true);
    expect(providerNeedsWork(deployment(2, 1))).toBe(true);
    expect(providerNeedsWork(deployment(2, 2))).toBe(false);
    expect(providerNeedsWork(deployment(2, 2, true))).toBe(true);
  });
});

describe('status builders', () => {
  const ctx = { previous: [], now: '2026-01-01T00:00:00Z', generation: 2 };
  it('builds the incompatible, not-created and deployed outcomes', () => {
    expect(
      incompatibleStatus(ctx, ['KAITO does not support sglang engine']),
    ).toEqual({
      phase: 'Failed',
      message: 'KAITO does not support sglang engine',
      conditions: [
        {
          type: 'ProviderCompatible',
          status: 'False',
          reason: 'Incompatible',
          message: 'KAITO does not support sglang engine',
          lastTransitionTime: ctx.now,
          observedGeneration: 2,
        },
      ],
    });
    const pending = notCreatedStatus(ctx, 'Pending', 'CRDNotInstalled', 'x');
    expect(pending.conditions!.map(c => `${c.type}=${c.status}`)).toEqual([
      'ProviderCompatible=True',
      'ResourceCreated=False',
      'Ready=False',
    ]);
    const running = deployedStatus(
      ctx,
      { kind: 'Workspace', name: 'm' },
      {
        phase: 'Running',
        message: 'ok',
        ready: true,
        reason: 'R',
        endpoint: { service: 'm', port: 80 },
      },
    );
    expect(running).toMatchObject({
      phase: 'Running',
      provider: { resourceName: 'm', resourceKind: 'Workspace' },
      endpoint: { service: 'm', port: 80 },
    });
  });
  it('keeps lastTransitionTime while a condition keeps its status', () => {
    const before = [
      {
        type: 'ProviderCompatible',
        status: 'True' as const,
        reason: 'x',
        message: 'y',
        lastTransitionTime: '2020-01-01T00:00:00Z',
      },
    ];
    const s = notCreatedStatus(
      { ...ctx, previous: before },
      'Pending',
      'R',
      'm',
    );
    expect(s.conditions![0].lastTransitionTime).toBe('2020-01-01T00:00:00Z');
    expect(s.conditions![1].lastTransitionTime).toBe(ctx.now);
  });
  it('knows when no write is needed', () => {
    const s = deployedStatus(
      ctx,
      { kind: 'Workspace', name: 'm' },
      {
        phase: 'Running',
        message: 'ok',
        ready: true,
        reason: 'R',
        replicas: { desired: 1 },
      },
    );
    const live = {
      ...structuredClone(s),
      provider: { name: 'kaito', resourceName: 'm', resourceKind: 'Workspace' },
      conditions: [
        ...s.conditions!,
        {
          type: 'Validated',
          status: 'True' as const,
          reason: 'a',
          message: 'b',
          lastTransitionTime: ctx.now,
        },
      ],
    };
    expect(statusUpToDate(s, live)).toBe(true);
    expect(statusUpToDate(incompatibleStatus(ctx, ['x']), live)).toBe(false);
    expect(statusUpToDate(s, { ...live, phase: 'Deploying' })).toBe(false);
    expect(statusUpToDate(s, undefined)).toBe(false);
  });
});

describe('options', () => {
  it('reads env and lets flags win', () => {
    const o = parseProviderOptions(
      ['--finalizer-timeout', '3s', '--metrics-port=0'],
      { KUBECONFIG: '/k', FINALIZER_TIMEOUT: '1m', HEALTH_PORT: '9000' },
    );
    expect(o).toEqual({
      ok: true,
      options: {
        kubeconfig: '/k',
        finalizerTimeoutMs: 3000,
        metricsPort: 0,
        healthPort: 9000,
        heartbeatIntervalMs: 60_000,
        maxConcurrentReconciles: 32,
        logLevel: 'info',
      },
    });
  });
  it('defaults to the controller defaults', () => {
    expect(parseProviderOptions([], {})).toEqual({
      ok: true,
      options: expect.objectContaining({
        finalizerTimeoutMs: DEFAULT_FINALIZER_TIMEOUT_MS,
        heartbeatIntervalMs: DEFAULT_HEARTBEAT_INTERVAL_MS,
      }),
    });
  });
  it("defaults parallel reconciles to the definition's own number, and the flag wins over it", () => {
    const own = { maxConcurrentReconciles: 64 };
    expect(parseProviderOptions([], {}, own)).toMatchObject({
      options: { maxConcurrentReconciles: 64 },
    });
    expect(
      parseProviderOptions(['--max-concurrent-reconciles', '8'], {}, own),
    ).toMatchObject({ options: { maxConcurrentReconciles: 8 } });
    expect(parseProviderOptions([], {})).toMatchObject({
      options: { maxConcurrentReconciles: DEFAULT_PROVIDER_WORKERS },
    });
    expect(providerOptions(own).maxConcurrentReconciles.default).toBe('64');
  });
  it('names every bad option, its variable and the fix', () => {
    expect(
      parseProviderOptions(
        ['--metrics-port', 'abc', '--bogus', '--kubeconfig'],
        {
          MAX_CONCURRENT_RECONCILES: '65',
          LEADER_ELECTION_NAMESPACE: 'Kube_System',
        },
      ),
    ).toEqual({
      ok: false,
      errors: [
        'unknown flag "--bogus": run with --help to list the flags',
        '--kubeconfig needs a value: write --kubeconfig=<value> or --kubeconfig <value>',
        '--metrics-port (METRICS_PORT) "abc" is not valid: use a whole number from 0 to 65535',
        '--max-concurrent-reconciles (MAX_CONCURRENT_RECONCILES) "65" is not valid: use a whole number from 1 to 64',
        expect.stringContaining(
          '--leader-election-namespace (LEADER_ELECTION_NAMESPACE) "Kube_System" is not valid: use a namespace name',
        ),
      ],
    });
  });
});

describe('registrationStatus', () => {
  const kaito = {
    version: 'v1',
    upstream: {
      group: 'kaito.sh',
      kind: 'Workspace',
      plural: 'workspaces',
      versions: ['v1beta1', 'v1alpha1'],
    },
  };

  it('is ready with the upstream CRD installed at a supported version, and reports version, heartbeat and upstream version', () => {
    expect(
      registrationStatus(
        kaito,
        new Date('2026-01-01T10:00:00.123Z'),
        'kaito.sh/v1beta1',
      ),
    ).toEqual({
      ready: true,
      version: 'v1',
      lastHeartbeat: '2026-01-01T10:00:00Z',
      upstreamCRDVersion: 'kaito.sh/v1beta1',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'UpstreamCRDInstalled',
          message:
            'Upstream CRD workspaces.kaito.sh installed; writing kaito.sh/v1beta1',
          lastTransitionTime: '2026-01-01T10:00:00Z',
        },
      ],
    });
  });

  it('is not ready without the upstream CRD, and says which versions it supports', () => {
    const s = registrationStatus(
      kaito,
      new Date(0),
      undefined,
      undefined,
      '2025-12-31T00:00:00Z',
    );
    expect(s.ready).toBe(false);
    expect(s.upstreamCRDVersion).toBeUndefined();
    expect(s.conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'CRDNotInstalled',
        message:
          'Upstream CRD workspaces.kaito.sh is not installed at a supported version (kaito.sh/v1beta1, kaito.sh/v1alpha1): install its operator',
        lastTransitionTime: '2025-12-31T00:00:00Z',
      },
    ]);
  });
});

describe('applyFailure', () => {
  const label = "Workspace 'llama'";
  const apiError = (code: number, reason: string, message: string) =>
    new KubeApiError(
      'PATCH',
      '/apis/kaito.sh/v1beta1/namespaces/ns/workspaces/llama',
      code,
      { reason, message },
    );

  it('fails the deployment when the server rejects the object, naming it and quoting the server', () => {
    const invalid = apiError(
      422,
      'Invalid',
      'Workspace.kaito.sh "llama" is invalid: resource.count: Invalid value: "string": resource.count in body must be of type integer: "string"',
    );
    expect(applyFailure(label, invalid, false)).toEqual({
      phase: 'Failed',
      rejected: true,
      message: `Applying Workspace 'llama' failed: 422 Invalid: Workspace.kaito.sh "llama" is invalid: resource.count: Invalid value: "string": resource.count in body must be of type integer: "string"`,
    });
    const forbidden = apiError(
      403,
      'Forbidden',
      'workspaces.kaito.sh "llama" is forbidden: User "system:serviceaccount:airunway-system:kaito-provider" cannot patch resource "workspaces"',
    );
    expect(applyFailure(label, forbidden, true)).toMatchObject({
      phase: 'Failed',
      rejected: true,
    });
    expect(applyFailure(label, forbidden, true).message).toContain(
      '403 Forbidden: workspaces.kaito.sh "llama" is forbidden',
    );
    // Server-side apply's answer to a value of the wrong type for the schema.
    const mistyped = apiError(
      500,
      'InternalError',
      'failed to create typed patch object (ns/llama; kaito.sh/v1beta1, Kind=Workspace): .resource.count: expected numeric (int or float), got string',
    );
    expect(applyFailure(label, mistyped, false)).toMatchObject({
      phase: 'Failed',
      rejected: true,
    });
  });

  it('retries conflicts, throttling, server errors and timeouts without failing the deployment', () => {
    for (const err of [
      apiError(409, 'Conflict', 'the object has been modified'),
      apiError(429, 'TooManyRequests', 'slow down'),
      apiError(
        500,
        'InternalError',
        'conversion webhook for nvidia.com/v1beta1 failed',
      ),
      apiError(503, 'ServiceUnavailable', 'etcd'),
    ]) {
      expect(applyFailure(label, err, false)).toMatchObject({
        phase: 'Pending',
        rejected: false,
      });
      expect(applyFailure(label, err, true)).toMatchObject({
        phase: 'Deploying',
        rejected: false,
      });
      expect(applyFailure(label, err, true).message).toBe(
        `Applying Workspace 'llama' failed, retrying: ${err.code} ${err.reason}: ${err.status.message}`,
      );
    }
    const timeout = new Error('request timed out after 30000 ms');
    expect(applyFailure(label, timeout, true)).toEqual({
      phase: 'Deploying',
      rejected: false,
      message:
        "Applying Workspace 'llama' failed, retrying: request timed out after 30000 ms",
    });
  });
});

describe('applyFailedStatus', () => {
  const ctx = { previous: [], now: '2026-01-01T00:00:00Z', generation: 2 };
  const failure = {
    phase: 'Deploying' as const,
    rejected: false,
    message: "Applying Workspace 'llama' failed, retrying: 503: etcd",
  };
  const previous = {
    phase: 'Running' as const,
    provider: {
      name: 'kaito',
      selectedReason: 'r',
      resourceName: 'llama',
      resourceKind: 'Workspace',
    },
    replicas: { desired: 2, ready: 2 },
    endpoint: { service: 'llama', port: 80 },
  };

  it('keeps what is true of an upstream object that exists, with the failure in phase, message and conditions', () => {
    const status = applyFailedStatus(ctx, failure, previous, true);
    expect(status).toMatchObject({
      phase: 'Deploying',
      message: failure.message,
      provider: { resourceName: 'llama', resourceKind: 'Workspace' },
      replicas: { desired: 2, ready: 2 },
      endpoint: { service: 'llama', port: 80 },
    });
    // The core's fields are not the provider's to write.
    expect(status.provider).not.toHaveProperty('name');
    expect(
      status.conditions?.find(c => c.type === 'ResourceCreated'),
    ).toMatchObject({
      status: 'False',
      reason: 'ApplyFailed',
      message: failure.message,
    });
  });

  it('claims nothing about an upstream object that does not exist', () => {
    const status = applyFailedStatus(
      ctx,
      { ...failure, phase: 'Pending' },
      previous,
      false,
    );
    expect(status).not.toHaveProperty('endpoint');
    expect(status).not.toHaveProperty('replicas');
    expect(status).not.toHaveProperty('provider');
    expect(status.phase).toBe('Pending');
  });
});

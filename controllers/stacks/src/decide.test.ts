import {
  defaultStackV1alpha2,
  normalizeStackV1alpha2,
} from '@runway-portal/plugin-runway-common';
import { embeddedDistributions } from './config/distributions';
import {
  configMapsToDelete,
  decide,
  DISTRIBUTION_ANNOTATION,
  statusUpToDate,
  type DecideInput,
} from './decide';
import type { Stack } from './objects';

const registry = embeddedDistributions();
const NOW = '2026-11-25T12:00:00Z';

function stackOf(spec: unknown, status?: unknown): Stack {
  const obj = normalizeStackV1alpha2({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: {
      name: 'my-stack',
      namespace: 'team-a',
      uid: 'uid-1',
      generation: 2,
    },
    spec,
    status,
  }).object as Stack;
  return defaultStackV1alpha2(obj);
}

const input = (
  stack: Stack,
  extra: Partial<DecideInput> = {},
): DecideInput => ({
  stack,
  registry,
  referenceIssues: [],
  secretCount: 0,
  live: {},
  now: NOW,
  ...extra,
});

const spec = {
  distribution: { name: 'starter' },
  providers: { inference: { provider: 'vllm', endpoint: 'http://vllm:8000' } },
};
const cond = (d: { status: any }, type: string) =>
  d.status.conditions.find((c: any) => c.type === type);

/** A live Deployment as the API server would report it after `decide`'s Deployment rolled out. */
function rolledOut(deployment: any, available = 1) {
  return {
    ...deployment,
    metadata: { ...deployment.metadata, generation: 1 },
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: available,
    },
  };
}

describe('decide', () => {
  it('a new stack: ConfigMap, Deployment and Service to write; Initializing until a pod is available', () => {
    const d = decide(input(stackOf(spec)));
    expect(d.writes?.configMap?.metadata?.name).toMatch(
      /^my-stack-config-[0-9a-f]{8}$/,
    );
    expect(
      d.writes?.deployment.metadata?.annotations?.[DISTRIBUTION_ANNOTATION],
    ).toBe('{"name":"starter"}');
    expect(d.status).toMatchObject({
      phase: 'Initializing',
      resolvedDistribution: {
        image: 'docker.io/llamastack/distribution-starter:latest',
        configSource: 'embedded',
      },
      configGeneration: {
        configMapName: d.currentConfigMap,
        generatedAt: NOW,
        providerCount: 1,
        resourceCount: 0,
        configVersion: 2,
      },
      serviceURL: 'http://my-stack-service.team-a.svc.cluster.local:8321',
    });
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'True',
      reason: 'ConfigGenerationSucceeded',
      message: 'Generated config.yaml with 1 providers and 0 models',
      observedGeneration: 2,
    });
    expect(cond(d, 'Available')).toMatchObject({
      status: 'False',
      reason: 'ReplicasUnavailable',
    });
    expect(d.events.map(e => e.reason)).toEqual([
      'ConfigGenerated',
      'PhaseInitializing',
      'ConfigUpdated',
    ]);
  });

  it('Ready once a pod runs the current config; a repeat decides the same status and no events', () => {
    const first = decide(input(stackOf(spec)));
    const live = rolledOut(first.writes!.deployment);
    const ready = decide(
      input(stackOf(spec, first.status), {
        live: { deployment: live, service: {} },
        health: { state: 'ok', pods: 1 },
      }),
    );
    expect(ready.status.phase).toBe('Ready');
    expect(cond(ready, 'HealthCheck')).toMatchObject({
      status: 'True',
      reason: 'HealthCheckPassed',
      message:
        'Health check passed: 1 pod with the current config answer {"status":"OK"} on /v1/health',
    });
    expect(cond(ready, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '1/1 replicas available with current config',
    });
    expect(cond(ready, 'DeploymentReady')).toMatchObject({ status: 'True' });
    expect(cond(ready, 'ServiceReady')).toMatchObject({ status: 'True' });
    expect(cond(ready, 'StorageReady')).toMatchObject({
      status: 'True',
      reason: 'StorageNotRequested',
    });
    expect(ready.events.map(e => e.reason)).toEqual(['PhaseReady']);
    const again = decide(
      input(stackOf(spec, ready.status), {
        live: { deployment: live, service: {} },
        health: { state: 'ok', pods: 1 },
        now: '2026-11-25T13:00:00Z',
      }),
    );
    expect(again.events).toEqual([]);
    expect(statusUpToDate(again.status, ready.status)).toBe(true);
    expect(again.status.configGeneration?.generatedAt).toBe(NOW); // same config, same status
  });

  it('HealthCheck from the probe: not OK is Failed, no answer is Initializing, as upstream', () => {
    const first = decide(input(stackOf(spec)));
    const live = rolledOut(first.writes!.deployment);
    const probed = (health: DecideInput['health']) =>
      decide(
        input(stackOf(spec, first.status), {
          live: { deployment: live, service: {} },
          health,
        }),
      );
    const failing = probed({
      state: 'failed',
      message: 'pod my-stack-0 answered HTTP 503 {"status":"Error"}',
    });
    expect(failing.status.phase).toBe('Failed');
    expect(cond(failing, 'HealthCheck')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckFailed',
      message:
        'Health check failed: pod my-stack-0 answered HTTP 503 {"status":"Error"} on /v1/health: see the server\'s log',
    });
    // The Deployment is still what it is: the config went out, the pods are there.
    expect(failing.writes).toBeDefined();
    expect(cond(failing, 'Available')).toMatchObject({ status: 'True' });
    const silent = probed({
      state: 'unreachable',
      message:
        'pod my-stack-0 at http://10.0.0.7:8321/v1/health: connect ECONNREFUSED',
    });
    expect(silent.status.phase).toBe('Initializing');
    expect(cond(silent, 'HealthCheck')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckUnreachable',
      message:
        'Health check failed: pod my-stack-0 at http://10.0.0.7:8321/v1/health: connect ECONNREFUSED',
    });
    const unprobed = probed(undefined);
    expect(unprobed.status.phase).toBe('Initializing');
    expect(cond(unprobed, 'HealthCheck')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckPending',
    });
    // Before the Deployment is available the probe does not count.
    const notYet = decide(
      input(stackOf(spec, first.status), { health: { state: 'ok', pods: 1 } }),
    );
    expect(notYet.status.phase).toBe('Initializing');
    expect(cond(notYet, 'HealthCheck')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckPending',
      message: 'Deployment not ready',
    });
  });

  it('FR-096: an equivalent spec gives the same Deployment; a config change is RolloutInProgress until it lands', () => {
    const first = decide(input(stackOf(spec)));
    const live = rolledOut(first.writes!.deployment);
    const reworded = decide(
      input(
        stackOf(
          {
            providers: {
              inference: [{ endpoint: 'http://vllm:8000', provider: 'vllm' }],
            },
            distribution: { name: 'starter' },
          },
          first.status,
        ),
        {
          live: { deployment: live },
        },
      ),
    );
    expect(reworded.writes!.deployment).toEqual(first.writes!.deployment);
    const changed = decide(
      input(stackOf({ ...spec, resources: { models: ['m'] } }, first.status), {
        live: { deployment: live },
      }),
    );
    expect(changed.currentConfigMap).not.toBe(first.currentConfigMap);
    expect(cond(changed, 'Available')).toMatchObject({
      status: 'False',
      reason: 'RolloutInProgress',
      message: 'Rolling update in progress: 1/1 updated',
    });
    expect(changed.events.map(e => e.reason)).toContain('ConfigUpdated');
  });

  it('FR-097: a failed generation writes nothing and says why; the running status stays', () => {
    const first = decide(input(stackOf(spec)));
    const live = rolledOut(first.writes!.deployment);
    const ready = decide(
      input(stackOf(spec, first.status), {
        live: { deployment: live },
        health: { state: 'ok', pods: 1 },
      }),
    );
    const broken = decide(
      input(
        stackOf(
          { ...spec, resources: { shields: ['llama-guard'] } },
          ready.status,
        ),
        { live: { deployment: live } },
      ),
    );
    expect(broken.writes).toBeUndefined();
    expect(broken.status.phase).toBe('Failed');
    expect(cond(broken, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'MissingProviderForResource',
      message:
        'resources.shields requires at least one safety provider to be configured',
    });
    // What runs is still reported: the old config is available.
    expect(cond(broken, 'Available')).toMatchObject({ status: 'True' });
    expect(broken.status.resolvedDistribution).toEqual(
      ready.status.resolvedDistribution,
    );
    expect(broken.events).toEqual([
      {
        type: 'Warning',
        reason: 'MissingProviderForResource',
        message:
          'resources.shields requires at least one safety provider to be configured',
      },
      {
        type: 'Warning',
        reason: 'PhaseFailed',
        message: 'phase Ready → Failed',
      },
    ]);
  });

  it('FR-027c: a direct image without overrideConfig is BaseConfigRequired', () => {
    const d = decide(input(stackOf({ distribution: { image: 'my/image:1' } })));
    expect(d.writes).toBeUndefined();
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      reason: 'BaseConfigRequired',
      message:
        'Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.',
    });
  });

  it('FR-101: the same distribution resolving to a new image that breaks generation is UpgradeConfigFailure', () => {
    const first = decide(
      input(stackOf({ ...spec, resources: { tools: ['websearch'] } })),
    );
    const live = rolledOut(first.writes!.deployment);
    // The new release's base config for "starter" has no toolRuntime provider.
    const newRegistry = {
      images: {
        ...registry.images,
        starter: 'docker.io/llamastack/distribution-starter:0.9.0',
      },
      configs: {
        ...registry.configs,
        starter: 'version: 2\ndistro_name: starter\nproviders: {}\n',
      },
    };
    const d = decide({
      ...input(
        stackOf({ ...spec, resources: { tools: ['websearch'] } }, first.status),
        { live: { deployment: live } },
      ),
      registry: newRegistry,
    });
    expect(d.writes).toBeUndefined();
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      reason: 'UpgradeConfigFailure',
      message:
        'Config generation failed after operator upgrade: resources.tools requires at least one toolRuntime provider to be configured',
    });
  });

  it('edge case: a missing Secret says "Secret not found: {name}" with the field and the fix', () => {
    const d = decide(
      input(stackOf(spec), {
        secretCount: 1,
        referenceIssues: [
          {
            severity: 'error',
            path: 'spec.providers.inference[0].apiKey.secretKeyRef.name',
            message:
              'Secret "vllm-creds" not found in namespace "team-a": create it or change spec.providers.inference[0].apiKey.secretKeyRef.name',
          },
        ],
      }),
    );
    expect(d.writes).toBeUndefined();
    const message =
      'Secret not found: vllm-creds (spec.providers.inference[0].apiKey.secretKeyRef.name): create it in namespace "team-a" or change spec.providers.inference[0].apiKey.secretKeyRef.name';
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'ConfigGenerationFailed',
      message,
    });
    expect(cond(d, 'SecretsResolved')).toMatchObject({
      status: 'False',
      reason: 'SecretNotFound',
      message,
    });
  });

  it('overrideConfig (v1alpha1 userConfig) mounts the user ConfigMap, hashed by its content', () => {
    const stack = stackOf({
      distribution: { name: 'starter' },
      overrideConfig: { configMapName: 'my-config' },
    });
    const a = decide(
      input(stack, {
        overrideConfig: { key: 'config.yaml', text: 'version: 2\n' },
      }),
    );
    const b = decide(
      input(stack, {
        overrideConfig: { key: 'config.yaml', text: 'version: 2\napis: []\n' },
      }),
    );
    expect(a.writes?.configMap).toBeUndefined();
    expect(
      (a.writes!.deployment as any).spec.template.spec.volumes[0].configMap,
    ).toEqual({
      name: 'my-config',
      items: [{ key: 'config.yaml', path: 'config.yaml' }],
    });
    expect(a.status.resolvedDistribution?.configSource).toBe('configmap');
    expect(a.status.resolvedDistribution?.configHash).not.toBe(
      b.status.resolvedDistribution?.configHash,
    );
  });

  it('userConfig.configMapNamespace (kept by conversion): the config is copied into an immutable ConfigMap of ours', () => {
    const stack = stackOf({
      distribution: { name: 'starter' },
      overrideConfig: { configMapName: 'team-config' },
    });
    stack.metadata!.annotations = {
      'llamastack.io/v1alpha1-fields': JSON.stringify({
        spec: { server: { userConfig: { configMapNamespace: 'shared' } } },
      }),
    };
    const d = decide(
      input(stack, {
        overrideConfig: { key: 'run.yaml', text: 'version: 2\n' },
      }),
    );
    const copy = d.writes!.configMap!;
    expect(copy.metadata?.name).toMatch(/^my-stack-config-[0-9a-f]{8}$/);
    expect((copy as any).immutable).toBe(true);
    expect((copy as any).data).toEqual({ 'config.yaml': 'version: 2\n' });
    expect(
      (d.writes!.deployment as any).spec.template.spec.volumes[0].configMap,
    ).toEqual({
      name: copy.metadata?.name,
      items: [{ key: 'config.yaml', path: 'config.yaml' }],
    });
    expect(d.status.resolvedDistribution?.configSource).toBe('configmap');
    // A ConfigMap without a config names the namespace it was read from.
    const missing = decide(input(stack));
    expect(cond(missing, 'ConfigGenerated')?.message).toBe(
      'ConfigMap "team-config" in namespace "shared" has no config.yaml or run.yaml key: store the server configuration under config.yaml',
    );
  });

  it('a CA bundle: the managed {name}-ca-bundle before the Deployment; a key without certificates writes nothing', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nAAA\n-----END CERTIFICATE-----';
    const stack = stackOf({
      ...spec,
      networking: {
        tls: {
          caBundle: {
            configMapName: 'corp-ca',
            configMapNamespace: 'certs',
            configMapKeys: ['a.crt'],
          },
        },
      },
    });
    const d = decide(input(stack, { caBundleData: { 'a.crt': pem } }));
    expect(d.writes?.caBundle?.metadata?.name).toBe('my-stack-ca-bundle');
    expect((d.writes?.caBundle as any).data).toEqual({
      'ca-bundle.crt': `${pem}\n`,
    });
    expect(
      (d.writes!.deployment as any).spec.template.metadata.annotations[
        'llamastack.io/ca-bundle-hash'
      ],
    ).toMatch(/^sha256:/);
    const bad = decide(input(stack, { caBundleData: { 'a.crt': 'junk' } }));
    expect(bad.writes).toBeUndefined();
    expect(cond(bad, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      message:
        'ConfigMap "corp-ca" in namespace "certs" has no PEM certificate (-----BEGIN CERTIFICATE-----) under key "a.crt": put the CA certificates there or change spec.networking.tls.caBundle.configMapKeys',
    });
  });

  it('an unknown distribution name fails naming the known ones', () => {
    expect(
      cond(
        decide(input(stackOf({ distribution: { name: 'nope' } }))),
        'ConfigGenerated',
      ).message,
    ).toBe(
      'spec.distribution.name "nope" is not a known distribution; use one of: postgres-demo, starter, starter-gpu, or set spec.distribution.image',
    );
  });
});

describe('configMapsToDelete', () => {
  const cm = (name: string, at: string) => ({
    metadata: { name, creationTimestamp: at },
  });
  it('keeps the current and the newest older one, only once the rollout is done', () => {
    const owned = [
      cm('s-config-1', '2026-01-01T00:00:00Z'),
      cm('s-config-2', '2026-01-02T00:00:00Z'),
      cm('s-config-3', '2026-01-03T00:00:00Z'),
    ];
    expect(configMapsToDelete(owned, 's-config-3', false)).toEqual([]);
    expect(configMapsToDelete(owned, 's-config-3', true)).toEqual([
      's-config-1',
    ]);
    expect(configMapsToDelete(owned, 's-config-1', true)).toEqual([
      's-config-2',
    ]);
  });
});

describe('decide with image config labels (FR-027f..j)', () => {
  const starterBase = registry.configs.starter;
  // The label's config differs from the embedded one, so which base was used shows in the output.
  const labelled = starterBase.replace(
    /^distro_name: .*$/m,
    'distro_name: labelled',
  );
  const found = {
    state: 'read' as const,
    kind: 'found' as const,
    digest: 'sha256:feed',
    config: labelled,
    version: 2,
  };
  const configText = (d: ReturnType<typeof decide>) =>
    (d.writes?.configMap as any)?.data?.['config.yaml'] as string;

  it('labels on a named distribution take precedence over the embedded config (FR-027g)', () => {
    const d = decide(input(stackOf(spec), { imageConfig: found }));
    expect(cond(d, 'ConfigGenerated')?.status).toBe('True');
    expect(d.status.resolvedDistribution?.configSource).toBe('oci-label');
    expect(configText(d)).toMatch(/^distro_name: labelled$/m);
    const embedded = decide(input(stackOf(spec)));
    expect(embedded.status.resolvedDistribution?.configSource).toBe('embedded');
    expect(configText(embedded)).not.toMatch(/^distro_name: labelled$/m);
  });

  it('a direct image with labels needs no overrideConfig (FR-027j)', () => {
    const d = decide(
      input(
        stackOf({ ...spec, distribution: { image: 'reg.local/llama:1' } }),
        { imageConfig: found },
      ),
    );
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'True',
      reason: 'ConfigGenerationSucceeded',
    });
    expect(d.status.resolvedDistribution).toMatchObject({
      image: 'reg.local/llama:1',
      configSource: 'oci-label',
    });
    expect(d.writes?.deployment).toBeDefined();
  });

  it("a direct image without labels: the seed's BaseConfigRequired message (FR-027c)", () => {
    const d = decide(
      input(
        stackOf({ ...spec, distribution: { image: 'reg.local/llama:1' } }),
        {
          imageConfig: { state: 'read', kind: 'none', digest: 'sha256:feed' },
        },
      ),
    );
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'BaseConfigRequired',
      message:
        'Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.',
    });
    expect(d.writes).toBeUndefined();
  });

  it("a direct image whose registry failed names the image and the registry's answer; nothing is written", () => {
    const d = decide(
      input(
        stackOf({ ...spec, distribution: { image: 'reg.local/llama:1' } }),
        {
          imageConfig: {
            state: 'failed',
            message: 'no answer from reg.local within 10 s',
            retryInMs: 10_000,
          },
        },
      ),
    );
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'ImageConfigUnavailable',
      message:
        'Cannot read the config labels of image reg.local/llama:1: no answer from reg.local within 10 s. Direct image references require either overrideConfig.configMapName or OCI config labels on the image; the operator retries with backoff',
    });
    expect(d.status.phase).toBe('Failed');
    expect(d.writes).toBeUndefined();
  });

  it('a named distribution whose registry failed keeps its embedded config (air-gapped, FR-027e)', () => {
    const d = decide(
      input(stackOf(spec), {
        imageConfig: {
          state: 'failed',
          message: 'cannot reach registry-1.docker.io: ENOTFOUND',
          retryInMs: 10_000,
        },
      }),
    );
    expect(cond(d, 'ConfigGenerated')?.status).toBe('True');
    expect(d.status.resolvedDistribution?.configSource).toBe('embedded');
  });

  it("an unsupported version label fails with the seed's message, naming the image", () => {
    const d = decide(
      input(stackOf(spec), {
        imageConfig: {
          state: 'read',
          kind: 'invalid',
          digest: 'sha256:feed',
          reason: 'UnsupportedConfigVersion',
          message:
            'Unsupported config.yaml version 3. Supported versions: 2, 1',
        },
      }),
    );
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedConfigVersion',
      message:
        'Unsupported config.yaml version 3. Supported versions: 2, 1 (label io.llamastack.config.version of image docker.io/llamastack/distribution-starter:latest)',
    });
    expect(d.writes).toBeUndefined();
  });

  it('the config inside the labels is checked like any base config (its own version field)', () => {
    const d = decide(
      input(stackOf(spec), {
        imageConfig: {
          ...found,
          config: labelled.replace(/^version: .*$/m, 'version: 9'),
        },
      }),
    );
    expect(cond(d, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedConfigVersion',
      message: 'Unsupported config.yaml version 9. Supported versions: 2, 1',
    });
  });
});

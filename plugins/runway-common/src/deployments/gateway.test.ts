import {
  boundedName,
  buildEndpointPicker,
  buildHTTPRoute,
  buildInferencePool,
  chooseGateway,
  DEFAULT_EPP_CONFIG,
  DEFAULT_EPP_IMAGE,
  type GatewayInfo,
  gatewayAcceptsNamespace,
  gatewayApplyFailure,
  gatewayEndpoint,
  gatewayLookups,
  gatewayModelName,
  gatewayObjectNames,
  type GatewayInput,
  gatewayReadyCondition,
  planGateway,
  resolvePoolPattern,
  serviceTargetPort,
} from './gateway';
import { DYNAMO_PROVIDER, KAITO_PROVIDER, LLMD_PROVIDER } from './providers';
import { deployment, ready } from './testing';
import type { InferenceProviderConfig, ModelDeployment } from './types';

// Values of ../shared/upstream/samples/gaie-inferencepool-v1-primary.yaml and gaie-conformance-base.yaml.
const SAMPLE_POOL = {
  apiVersion: 'inference.networking.k8s.io/v1',
  kind: 'InferencePool',
  metadata: {
    name: 'primary-inference-pool',
    namespace: 'inference-conformance-app-backend',
  },
  spec: {
    selector: { matchLabels: { app: 'primary-inference-model-server' } },
    targetPorts: [{ number: 3000 }],
    endpointPickerRef: {
      name: 'primary-endpoint-picker-svc',
      port: { number: 9002 },
    },
  },
};

const gateway = (
  name: string,
  namespace: string,
  extra: Partial<GatewayInfo> = {},
): GatewayInfo => ({
  metadata: { name, namespace, ...extra.metadata },
  spec: extra.spec ?? {
    listeners: [
      {
        name: 'http',
        port: 80,
        protocol: 'HTTP',
        allowedRoutes: { namespaces: { from: 'All' } },
      },
    ],
  },
  status: extra.status,
});

/** A deployment a provider has taken and reported a Service for. */
function running(
  patch: Partial<ModelDeployment['spec']> = {},
  provider = 'dynamo',
  name = 'llama',
): ModelDeployment {
  const md = deployment(patch, name);
  return {
    ...md,
    metadata: { ...md.metadata, uid: 'uid-1' },
    status: {
      engine: { type: 'vllm' },
      provider: { name: provider },
      phase: 'Running',
      endpoint: { service: name, port: 8000 },
    },
  };
}

const modelService = {
  selector: { 'app.kubernetes.io/instance': 'llama' },
  ports: [{ name: 'http', port: 8000, targetPort: 8000 }],
};
const labelled = gateway('inference-gateway', 'gw', {
  metadata: { labels: { 'airunway.ai/inference-gateway': 'true' } },
  status: { addresses: [{ type: 'IPAddress', value: '10.0.0.7' }] },
});

function input(
  md: ModelDeployment,
  patch: Partial<GatewayInput> = {},
): GatewayInput {
  return {
    md,
    provider: ready(DYNAMO_PROVIDER),
    missingCrds: [],
    gateways: [labelled],
    modelService,
    ...patch,
  };
}

describe('names', () => {
  it('are the deployment name (pool, route) and <name>-epp while they fit 63 characters', () => {
    expect(gatewayObjectNames('llama')).toEqual({
      inferencePool: 'llama',
      endpointPicker: 'llama-epp',
      httpRoute: 'llama',
    });
  });

  it('are cut to 63 characters with a hash of the full name, so long names stay distinct', () => {
    const a = gatewayObjectNames(`${'a'.repeat(100)}-one`);
    const b = gatewayObjectNames(`${'a'.repeat(100)}-two`);
    for (const n of [...Object.values(a), ...Object.values(b)])
      expect(n.length).toBeLessThanOrEqual(63);
    expect(a.endpointPicker.endsWith('-epp')).toBe(true);
    expect(a.endpointPicker).not.toBe(b.endpointPicker);
    expect(boundedName('x'.repeat(63))).toBe('x'.repeat(63));
    expect(boundedName('x'.repeat(64))).toMatch(/^x{54}-[0-9a-f]{8}$/);
  });
});

describe('builders', () => {
  it('build the InferencePool of the upstream sample from the same values', () => {
    const pool = buildInferencePool({
      name: 'primary-inference-pool',
      namespace: 'inference-conformance-app-backend',
      selector: { app: 'primary-inference-model-server' },
      targetPort: 3000,
      endpointPickerName: 'primary-endpoint-picker-svc',
    });
    expect(pool.apiVersion).toBe(SAMPLE_POOL.apiVersion);
    expect(pool.kind).toBe(SAMPLE_POOL.kind);
    expect(pool.spec).toEqual(SAMPLE_POOL.spec);
    expect(pool.metadata.ownerReferences).toBeUndefined();
  });

  it('build the endpoint picker objects with the GAIE image, ports 9002/9003/9090 and a namespace-scoped Role', () => {
    const owner = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      name: 'llama',
      uid: 'uid-1',
    };
    const objects = buildEndpointPicker({
      name: 'llama-epp',
      namespace: 'ml',
      poolName: 'llama',
      owner,
    });
    expect(objects.map(o => o.kind)).toEqual([
      'ServiceAccount',
      'Role',
      'RoleBinding',
      'ConfigMap',
      'Deployment',
      'Service',
    ]);
    for (const o of objects) {
      expect(o.metadata).toMatchObject({ name: 'llama-epp', namespace: 'ml' });
      expect(o.metadata.ownerReferences).toEqual([
        { ...owner, controller: true, blockOwnerDeletion: true },
      ]);
    }
    const [, role, binding, config, dep, svc] = objects as any[];
    expect(role.rules).toContainEqual({
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(role.rules).toContainEqual({
      apiGroups: ['inference.networking.k8s.io'],
      resources: ['inferencepools'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'llama-epp', namespace: 'ml' },
    ]);
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'llama-epp',
    });
    expect(config.data['default-plugins.yaml']).toBe(DEFAULT_EPP_CONFIG);
    const container = dep.spec.template.spec.containers[0];
    expect(container.image).toBe(DEFAULT_EPP_IMAGE);
    expect(DEFAULT_EPP_IMAGE).toBe(
      'registry.k8s.io/gateway-api-inference-extension/epp:v1.6.0',
    );
    // As the sample's EPP: pool name/namespace, gRPC and health ports.
    expect(container.args.join(' ')).toContain(
      '--pool-name llama --pool-namespace ml --zap-encoder json --grpc-port 9002 --grpc-health-port 9003',
    );
    expect(container.ports.map((p: any) => p.containerPort)).toEqual([
      9002, 9003, 9090,
    ]);
    expect(container.readinessProbe.grpc).toEqual({
      port: 9003,
      service: 'inference-extension',
    });
    expect(dep.spec.template.spec.serviceAccountName).toBe('llama-epp');
    expect(dep.spec.selector.matchLabels).toEqual(svc.spec.selector);
    expect(
      Object.entries(svc.spec.selector).every(
        ([k, v]) => dep.spec.template.metadata.labels[k] === v,
      ),
    ).toBe(true);
    expect(svc.spec.ports.map((p: any) => [p.name, p.port])).toEqual([
      ['grpc-ext-proc', 9002],
      ['grpc-health', 9003],
      ['metrics', 9090],
    ]);
  });

  it('honour the provider endpointPicker image and configData', () => {
    const objects = buildEndpointPicker({
      name: 'm-epp',
      namespace: 'ml',
      poolName: 'm',
      endpointPicker: {
        image: 'ghcr.io/llm-d/llm-d-inference-scheduler:v0.4.0',
        configData: 'kind: EndpointPickerConfig\nplugins: []\n',
      },
    }) as any[];
    expect(objects[3].data['default-plugins.yaml']).toBe(
      'kind: EndpointPickerConfig\nplugins: []\n',
    );
    expect(objects[4].spec.template.spec.containers[0].image).toBe(
      'ghcr.io/llm-d/llm-d-inference-scheduler:v0.4.0',
    );
  });

  it("label the picker objects and its pods with the given managed-by value, the core's by default", () => {
    const managedBy = (picker: { managedBy?: string }) =>
      (
        buildEndpointPicker({
          name: 'm-epp',
          namespace: 'ml',
          poolName: 'm',
          ...picker,
        }) as any[]
      ).flatMap(o => [
        o.metadata.labels['app.kubernetes.io/managed-by'],
        ...(o.spec?.template
          ? [o.spec.template.metadata.labels['app.kubernetes.io/managed-by']]
          : []),
      ]);
    expect(managedBy({})).toEqual(Array(7).fill('airunway-core'));
    expect(managedBy({ managedBy: 'airunway-provider-llmd' })).toEqual(
      Array(7).fill('airunway-provider-llmd'),
    );
  });

  it('build an HTTPRoute like the upstream sample: parent the Gateway, backend the InferencePool, matched on the model name header', () => {
    const route = buildHTTPRoute({
      name: 'llama',
      namespace: 'inference-conformance-app-backend',
      gateway: {
        name: 'conformance-primary',
        namespace: 'inference-conformance-infra',
      },
      modelName: 'Llama-3.1-8B-Instruct',
      pool: {
        name: 'primary-inference-pool',
        namespace: 'inference-conformance-app-backend',
      },
    }) as any;
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec.parentRefs).toEqual([
      {
        group: 'gateway.networking.k8s.io',
        kind: 'Gateway',
        name: 'conformance-primary',
        namespace: 'inference-conformance-infra',
      },
    ]);
    expect(route.spec.rules[0].backendRefs).toEqual([
      {
        group: 'inference.networking.k8s.io',
        kind: 'InferencePool',
        name: 'primary-inference-pool',
        namespace: 'inference-conformance-app-backend',
      },
    ]);
    expect(route.spec.rules[0].matches[0].headers).toEqual([
      {
        type: 'Exact',
        name: 'X-Gateway-Model-Name',
        value: 'Llama-3.1-8B-Instruct',
      },
    ]);
  });
});

describe('model name, ports, endpoint', () => {
  it.each([
    [
      'spec.gateway.modelName first',
      { model: { id: 'org/m', servedName: 's' }, gateway: { modelName: 'g' } },
      undefined,
      'g',
    ],
    [
      'then the served name',
      { model: { id: 'org/m', servedName: 's' } },
      undefined,
      's',
    ],
    [
      'derived from the id when not set',
      { model: { id: 'org/m' } },
      undefined,
      'm',
    ],
    [
      'the model id when the provider ignores served names',
      { model: { id: 'org/m', servedName: 's' } },
      { ignoresServedName: true },
      'org/m',
    ],
    [
      'the model id for custom models',
      { model: { id: 'my-model', source: 'custom' } },
      undefined,
      'my-model',
    ],
  ])('%s', (_, spec, caps, expected) => {
    expect(gatewayModelName(spec as any, caps)).toBe(expected);
  });

  it.each([
    [
      {
        ports: [
          { name: 'metrics', port: 9090 },
          { name: 'http', port: 80, targetPort: 5000 },
        ],
      },
      5000,
    ],
    [{ ports: [{ name: 'http', port: 8080, targetPort: 'serve' }] }, 8080],
    [{ ports: [{ name: 'api', port: 3000, targetPort: 3000 }] }, 3000],
    [{}, 8000],
  ])('target port of %j is %p', (svc, port) => {
    expect(serviceTargetPort(svc as any)).toBe(port);
  });

  it.each([
    [
      { addresses: [{ value: '10.0.0.7' }] },
      [{ protocol: 'HTTP', port: 80 }],
      'http://10.0.0.7',
    ],
    [
      { addresses: [{ value: 'gw.example.com' }] },
      [{ protocol: 'HTTPS', port: 8443 }],
      'https://gw.example.com:8443',
    ],
    [
      { addresses: [{ value: 'fd00::1' }] },
      [{ protocol: 'HTTP', port: 8080 }],
      'http://[fd00::1]:8080',
    ],
    [{ addresses: [] }, [{ protocol: 'HTTP', port: 80 }], undefined],
    [undefined, [], undefined],
  ])(
    'endpoint of status %j with listeners %j is %p',
    (status, listeners, expected) => {
      expect(
        gatewayEndpoint({
          metadata: { name: 'g', namespace: 'n' },
          spec: { listeners },
          status,
        } as any),
      ).toBe(expected);
    },
  );

  it('fills provider pool patterns', () => {
    expect(resolvePoolPattern('{name}-pool', 'm', 'ns', 'm')).toBe('m-pool');
    expect(resolvePoolPattern('{namespace}-{name}', 'm', 'ns', 'm')).toBe(
      'ns-m',
    );
    expect(resolvePoolPattern(undefined, 'm', 'ns', 'fallback')).toBe(
      'fallback',
    );
  });
});

describe('chooseGateway', () => {
  it('takes the flags, else a labelled Gateway, else the only one', () => {
    const a = gateway('a', 'x');
    const b = gateway('b', 'y', {
      metadata: { labels: { 'airunway.ai/inference-gateway': 'true' } },
    });
    expect(chooseGateway([a, b], { name: 'a', namespace: 'x' })).toEqual({
      ok: true,
      gateway: a,
    });
    expect(chooseGateway([a, b])).toEqual({ ok: true, gateway: b });
    expect(chooseGateway([a])).toEqual({ ok: true, gateway: a });
  });

  it('says what to do when none or several unlabelled are found, or the flags name a missing one', () => {
    const none = chooseGateway([]);
    expect(none.ok || none.message).toMatch(
      /^No Gateway \(gateway.networking.k8s.io\/v1\) in the cluster: create one/,
    );
    const several = chooseGateway([gateway('a', 'x'), gateway('b', 'y')]);
    expect(several.ok || several.message).toBe(
      '2 Gateways found (x/a, y/b) but none labelled airunway.ai/inference-gateway=true: label the one to use, or start the core with --gateway-name and --gateway-namespace',
    );
    const missing = chooseGateway([gateway('a', 'x')], {
      name: 'gw',
      namespace: 'infra',
    });
    expect(missing.ok || missing.message).toContain(
      'Gateway infra/gw (the core',
    );
  });
});

describe('planGateway', () => {
  it('configures the core pool, EPP and route, and the status, for a deployment with a Service', () => {
    const plan = planGateway(input(running()));
    if (plan.action !== 'configure')
      throw new Error(`unexpected ${plan.action}`);
    expect(plan.outcome).toEqual({
      status: 'True',
      reason: 'GatewayConfigured',
      message:
        "Model 'Llama-3.1-8B-Instruct' is routed through Gateway gw/inference-gateway at http://10.0.0.7 by HTTPRoute 'llama' to InferencePool 'llama'",
    });
    expect(plan.status).toEqual({
      endpoint: 'http://10.0.0.7',
      modelName: 'Llama-3.1-8B-Instruct',
      gatewayNamespace: 'gw',
      apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
    });
    const pool = plan.objects.inferencePool[0] as any;
    expect(pool.spec.selector.matchLabels).toEqual(modelService.selector);
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
    expect(pool.spec.endpointPickerRef).toEqual({
      name: 'llama-epp',
      port: { number: 9002 },
    });
    expect(pool.metadata.ownerReferences[0]).toMatchObject({
      kind: 'ModelDeployment',
      name: 'llama',
      uid: 'uid-1',
      controller: true,
    });
    expect(plan.objects.endpointPicker).toHaveLength(6);
    expect((plan.objects.httpRoute[0] as any).spec.parentRefs[0]).toMatchObject(
      { name: 'inference-gateway', namespace: 'gw' },
    );
    expect(plan.recheck).toBe(false);
  });

  it('creates no HTTPRoute with spec.gateway.httpRouteRef', () => {
    const plan = planGateway(
      input(running({ gateway: { httpRouteRef: 'mine' } })),
    );
    if (plan.action !== 'configure')
      throw new Error(`unexpected ${plan.action}`);
    expect(plan.objects.httpRoute).toEqual([]);
    expect(plan.outcome.message).toContain(
      "by the HTTPRoute 'mine' (spec.gateway.httpRouteRef)",
    );
  });

  it('routes to the pool of a provider that manages it (llm-d), creating no pool or EPP, once it exists', () => {
    const md = running({}, 'llmd');
    const provider = ready(LLMD_PROVIDER);
    expect(gatewayLookups(md, provider, [])).toEqual({
      gateways: true,
      modelService: undefined,
      providerPool: { name: 'llama', namespace: 'default' },
    });
    const waiting = planGateway(
      input(md, { provider, providerPoolExists: false }),
    );
    expect(waiting).toMatchObject({
      action: 'report',
      recheck: true,
      outcome: { status: 'False', reason: 'WaitingForProvider' },
    });
    const plan = planGateway(
      input(md, {
        provider,
        providerPoolExists: true,
        modelService: undefined,
      }),
    );
    if (plan.action !== 'configure')
      throw new Error(`unexpected ${plan.action}`);
    expect(plan.objects.inferencePool).toEqual([]);
    expect(plan.objects.endpointPicker).toEqual([]);
    expect(
      (plan.objects.httpRoute[0] as any).spec.rules[0].backendRefs[0],
    ).toMatchObject({ name: 'llama', namespace: 'default' });
    expect(plan.providerPool).toEqual({ name: 'llama', namespace: 'default' });
  });

  it('uses the provider endpoint picker and ignoresServedName from its engine capabilities', () => {
    const custom: InferenceProviderConfig = {
      ...ready(KAITO_PROVIDER),
      spec: {
        capabilities: {
          engines: [
            {
              name: 'vllm',
              gateway: {
                ignoresServedName: true,
                endpointPicker: { image: 'example/epp:1' },
              },
            },
          ],
        },
      },
    };
    const plan = planGateway(
      input(running({ model: { id: 'org/m', servedName: 's' } }, 'kaito'), {
        provider: custom,
      }),
    );
    if (plan.action !== 'configure')
      throw new Error(`unexpected ${plan.action}`);
    expect(plan.status.modelName).toBe('org/m');
    expect(plan.status.apiFormats).toEqual(['openai-chat']);
    expect(
      (plan.objects.endpointPicker[4] as any).spec.template.spec.containers[0]
        .image,
    ).toBe('example/epp:1');
  });

  it.each([
    [
      'missing CRDs',
      { missingCrds: ['httproutes.gateway.networking.k8s.io'] },
      'CRDsNotAvailable',
      'CRDs not installed (httproutes.gateway.networking.k8s.io)',
    ],
    ['no Gateway', { gateways: [] }, 'NoGateway', 'No Gateway'],
    [
      'no Service reported yet',
      {
        md: {
          ...running(),
          status: { ...running().status, endpoint: undefined },
        },
      },
      'WaitingForProvider',
      "Waiting for the model's Service from provider 'dynamo' (status.endpoint.service, in namespace 'default')",
    ],
    [
      'the Service not found',
      { modelService: null },
      'WaitingForProvider',
      "Waiting for the model's Service from provider 'dynamo' (status.endpoint.service, in namespace 'default')",
    ],
    [
      'a Service without selector',
      { modelService: { ports: [] } },
      'InferencePoolFailed',
      'has no selector',
    ],
    [
      'a Gateway that accepts only its own namespace',
      {
        gateways: [
          gateway('g', 'infra', {
            spec: { listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
          }),
        ],
      },
      'NoGateway',
      "Gateway infra/g does not accept HTTPRoutes from namespace 'default' (listeners' allowedRoutes.namespaces.from: Same): allow it on a listener",
    ],
  ])('reports %s', (_, patch, reason, message) => {
    const plan = planGateway({
      ...input(running()),
      ...(patch as Partial<GatewayInput>),
    });
    expect(plan).toMatchObject({
      action: 'report',
      outcome: {
        status: 'False',
        reason,
        message: expect.stringContaining(message),
      },
    });
  });

  it('says the same while the Service is not reported and while it is not created yet, looking again only once it is reported', () => {
    // The provider reporting the Service's name is no transition: no status write for it.
    const notReported = planGateway({
      ...input(running()),
      md: {
        ...running(),
        status: { ...running().status, endpoint: undefined },
      },
    });
    const notCreated = planGateway({
      ...input(running()),
      modelService: null,
    });
    expect(notReported).toMatchObject({ action: 'report', recheck: false });
    expect(notCreated).toMatchObject({ action: 'report', recheck: true });
    expect(notCreated.action === 'report' && notCreated.outcome).toEqual(
      notReported.action === 'report' && notReported.outcome,
    );
  });

  it('cleans up every object the core may have created when disabled; nothing to say without the CRDs', () => {
    const md = running(
      { gateway: { enabled: false, httpRouteRef: 'mine' } },
      'llmd',
    );
    const plan = planGateway(input(md, { provider: ready(LLMD_PROVIDER) }));
    expect(plan).toMatchObject({
      action: 'cleanup',
      outcome: { status: 'False', reason: 'GatewayDisabled' },
    });
    expect(
      (plan as { remove: Array<{ kind: string; name: string }> }).remove.map(
        r => `${r.kind}/${r.name}`,
      ),
    ).toEqual([
      'HTTPRoute/llama',
      'InferencePool/llama',
      'Deployment/llama-epp',
      'Service/llama-epp',
      'ConfigMap/llama-epp',
      'RoleBinding/llama-epp',
      'Role/llama-epp',
      'ServiceAccount/llama-epp',
    ]);
    expect(
      planGateway(
        input(md, { missingCrds: ['gateways.gateway.networking.k8s.io'] }),
      ),
    ).toEqual({ action: 'none' });
  });

  it("removes its own earlier HTTPRoute once httpRouteRef is set, and never names a managing provider's pool or picker", () => {
    const own = planGateway(input(running()));
    expect(own).toMatchObject({ action: 'configure', remove: [] });
    const byo = planGateway(
      input(running({ gateway: { httpRouteRef: 'mine' } })),
    );
    expect(
      (byo as { remove: Array<{ kind: string }> }).remove.map(r => r.kind),
    ).toEqual(['HTTPRoute']);
    const managed = planGateway(
      input(running({}, 'llmd'), {
        provider: ready(LLMD_PROVIDER),
        providerPoolExists: true,
      }),
    );
    expect(managed).toMatchObject({ action: 'configure', remove: [] });
  });

  it('takes a listener of any kind that admits the namespace', () => {
    const listeners = (...froms: Array<string | undefined>) => ({
      listeners: froms.map((from, i) => ({
        name: `l${i}`,
        port: 80,
        protocol: 'HTTP',
        ...(from ? { allowedRoutes: { namespaces: { from } } } : {}),
      })),
    });
    const gw = (namespace: string, ...froms: Array<string | undefined>) =>
      gateway('g', namespace, { spec: listeners(...froms) });
    expect(gatewayAcceptsNamespace(gw('infra', 'None', 'All'), 'ml')).toBe(
      true,
    );
    expect(gatewayAcceptsNamespace(gw('infra', 'Selector'), 'ml')).toBe(true);
    expect(gatewayAcceptsNamespace(gw('ml', undefined), 'ml')).toBe(true);
    expect(gatewayAcceptsNamespace(gw('infra', undefined, 'None'), 'ml')).toBe(
      false,
    );
    const plan = planGateway(
      input(running(), { gateways: [gw('infra', undefined, 'None')] }),
    );
    expect(plan).toMatchObject({
      outcome: {
        reason: 'NoGateway',
        message: expect.stringContaining(
          "(listeners' allowedRoutes.namespaces.from: Same, None)",
        ),
      },
    });
  });

  it('a Gateway without an address: configured, endpoint left out, looked at again', () => {
    const plan = planGateway(
      input(running(), { gateways: [gateway('only', 'default')] }),
    );
    expect(plan).toMatchObject({
      action: 'configure',
      recheck: true,
      status: { gatewayNamespace: 'default' },
      outcome: {
        message: expect.stringContaining(
          '(the Gateway reports no address yet)',
        ),
      },
    });
    expect(
      (plan as { status?: { endpoint?: string } }).status?.endpoint,
    ).toBeUndefined();
  });
});

describe('conditions', () => {
  it('a failed apply names the object and the API server message', () => {
    const failure = gatewayApplyFailure(
      'endpointPicker',
      'llama-epp',
      'forbidden',
    );
    expect(failure).toEqual({
      status: 'False',
      reason: 'EPPFailed',
      message: "Could not apply the endpoint picker 'llama-epp': forbidden",
    });
    expect(
      gatewayReadyCondition(failure, {
        observedGeneration: 3,
        lastTransitionTime: '2026-01-01T00:00:00Z',
      }),
    ).toEqual({
      type: 'GatewayReady',
      ...failure,
      observedGeneration: 3,
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });
});

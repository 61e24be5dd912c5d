/**
 * The core's gateway integration against a real API server with the real
 * InferencePool CRD (../shared/upstream/crds) and the stand-in Gateway and
 * HTTPRoute CRDs of e2e/simulators/gateway-api (simulators: the Gateway API
 * CRDs are not in ../shared/upstream). The core runs with only its RBAC
 * (controllers/deploy/core/rbac.yaml, installed by the `runway` CLI; a token
 * of its ServiceAccount).
 * No provider or gateway implementation runs: the test writes what they
 * would (a provider's status.endpoint and Service, llm-d's InferencePool, a
 * Gateway's status.addresses).
 */
import path from 'node:path';
import {
  Deployments,
  isNotFound,
  type KubeObject,
  type ResourceType,
  Services,
} from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { CORE_FIELD_MANAGER } from './decide';
import { GATEWAY_RECHECK_MS } from './gateway';
import { GATEWAY_LIST_TTL_MS, Gateways, InferencePools } from './lookups';
import { ModelDeployments } from './reconciler';
import {
  conditionOf,
  deployment,
  eventsOf,
  eventually,
  getDeployment,
  sleep,
  useCoreCluster,
} from './__testUtils__/cluster';

jest.setTimeout(90_000);

const POOL_CRD = path.resolve(
  __dirname,
  '../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
);
const GATEWAY_API_STAND_INS = path.resolve(
  __dirname,
  '../../../e2e/simulators/gateway-api',
);

const HTTPRoutes: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'httproutes',
  kind: 'HTTPRoute',
  namespaced: true,
};
const kinds: Record<string, ResourceType> = {
  ServiceAccount: {
    group: '',
    version: 'v1',
    plural: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
  },
  ConfigMap: {
    group: '',
    version: 'v1',
    plural: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
  },
  Role: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'roles',
    kind: 'Role',
    namespaced: true,
  },
  RoleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
  },
  Deployment: Deployments,
  Service: Services,
};

const GPU = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};
const NS = 'ml';

describe('core gateway integration against a real cluster', () => {
  const env = useCoreCluster({
    name: 'core-gateway',
    crds: [POOL_CRD, GATEWAY_API_STAND_INS],
    namespaces: [NS, 'infra'],
    providers: ['dynamo', 'llmd'],
    asCoreServiceAccount: true,
    flags: ['--webhook-mode=off'],
  });

  const waitFor = (
    name: string,
    what: string,
    test: (md: ModelDeployment) => boolean,
  ) =>
    eventually(
      what,
      async () => {
        const md = await getDeployment(env.client, NS, name);
        return test(md) && md;
      },
      30_000,
    );
  const gatewayReady = (name: string, reason: string) =>
    waitFor(
      name,
      `GatewayReady ${reason}`,
      m => conditionOf(m, 'GatewayReady')?.reason === reason,
    );
  const exists = async (rt: ResourceType, name: string, namespace = NS) => {
    try {
      return await env.client.get<KubeObject & Record<string, any>>(rt, {
        namespace,
        name,
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  /** Writes `status` of deployment `name` as `provider` does (its own field manager). */
  async function reportAs(provider: string, name: string, status: object) {
    await env.client.apply(
      ModelDeployments,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name, namespace: NS },
        status,
      } as never,
      {
        fieldManager: `airunway-provider-${provider}`,
        subresource: 'status',
        force: true,
      },
    );
  }

  /** What a provider does once its resource runs: the model's Service, then status.endpoint (its own field manager). */
  async function provide(name: string, provider: string) {
    await env.client.apply(
      Services,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: NS },
        spec: {
          selector: { 'model.example/serving': name },
          ports: [{ name: 'http', port: 8000, targetPort: 8000 }],
        },
      },
      { fieldManager: `airunway-provider-${provider}`, force: true },
    );
    await reportAs(provider, name, {
      phase: 'Running',
      endpoint: { service: name, port: 8000 },
    });
  }

  async function createGateway(
    name: string,
    namespace: string,
    labels: Record<string, string>,
    address?: string,
  ) {
    await env.client.apply(
      Gateways,
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name, namespace, labels },
        spec: {
          gatewayClassName: 'test',
          listeners: [
            {
              name: 'http',
              port: 80,
              protocol: 'HTTP',
              allowedRoutes: { namespaces: { from: 'All' } },
            },
          ],
        },
      },
      { fieldManager: 'gateway-test', force: true },
    );
    if (address) {
      // What a gateway implementation reports once it has an address.
      await env.client.apply(
        Gateways,
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'Gateway',
          metadata: { name, namespace },
          status: { addresses: [{ type: 'IPAddress', value: address }] },
        },
        {
          fieldManager: 'gateway-implementation',
          subresource: 'status',
          force: true,
        },
      );
    }
  }

  it('reports NoGateway, saying what to do, while the CRDs are installed but no Gateway exists', async () => {
    await env.client.create(ModelDeployments, deployment(NS, 'early', GPU));
    const md = await gatewayReady('early', 'NoGateway');
    expect(conditionOf(md, 'GatewayReady')).toMatchObject({ status: 'False' });
    expect(conditionOf(md, 'GatewayReady')?.message).toContain(
      'No Gateway (gateway.networking.k8s.io/v1) in the cluster: create one',
    );
    expect(md.status?.gateway).toBeUndefined();
  });

  describe('with a labelled Gateway (and an unlabelled one) that has an address', () => {
    beforeAll(async () => {
      await createGateway('other', 'infra', {});
      await createGateway(
        'inference-gateway',
        'infra',
        { 'airunway.ai/inference-gateway': 'true' },
        '10.1.2.3',
      );
      // The core reuses its Gateway list this long: the deployments below must see the new Gateways.
      await sleep(GATEWAY_LIST_TTL_MS + 500);
    });

    it('creates the InferencePool, endpoint picker and HTTPRoute owned by the deployment, and reports the gateway status', async () => {
      // Every version of the deployment, to see the first one that names its provider.
      const versions: ModelDeployment[] = [];
      const watching = new AbortController();
      void env.client
        .watch<ModelDeployment & KubeObject>(
          ModelDeployments,
          {
            namespace: NS,
            fieldSelector: 'metadata.name=llama',
            signal: watching.signal,
          },
          e => versions.push(e.object),
        )
        .catch(() => undefined);
      await sleep(200);
      const created = await env.client.create(
        ModelDeployments,
        deployment(NS, 'llama', GPU),
      );
      await waitFor(
        'llama',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      await eventually('the watch saw the provider named', () =>
        versions.some(v => v.status?.provider),
      );
      watching.abort();
      // In the same status write as ProviderSelected: GatewayReady already names the provider chosen.
      expect(
        conditionOf(versions.find(v => v.status?.provider)!, 'GatewayReady')
          ?.message,
      ).toContain("Waiting for the model's Service from provider 'dynamo'");
      const waiting = await gatewayReady('llama', 'WaitingForProvider');
      expect(conditionOf(waiting, 'GatewayReady')?.message).toContain(
        "Waiting for the model's Service from provider 'dynamo' (status.endpoint.service",
      );

      await provide('llama', 'dynamo');
      const md = await gatewayReady('llama', 'GatewayConfigured');
      expect(conditionOf(md, 'GatewayReady')).toMatchObject({
        status: 'True',
        message:
          "Model 'Llama-3.1-8B-Instruct' is routed through Gateway infra/inference-gateway at http://10.1.2.3 by HTTPRoute 'llama' to InferencePool 'llama'",
      });
      expect(md.status?.gateway).toEqual({
        endpoint: 'http://10.1.2.3',
        modelName: 'Llama-3.1-8B-Instruct',
        gatewayNamespace: 'infra',
        apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
      });

      const owner = {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'llama',
        uid: created.metadata!.uid,
        controller: true,
      };
      const pool = (await exists(InferencePools, 'llama'))!;
      // The real CRD's defaults (appProtocol, failureMode, kind Service) come on top.
      expect(pool.spec).toMatchObject({
        selector: { matchLabels: { 'model.example/serving': 'llama' } },
        targetPorts: [{ number: 8000 }],
        endpointPickerRef: { name: 'llama-epp', port: { number: 9002 } },
      });
      expect(pool.metadata?.ownerReferences).toEqual([
        expect.objectContaining(owner),
      ]);
      for (const [kind, rt] of Object.entries(kinds)) {
        const obj = await exists(rt, 'llama-epp');
        expect({ kind, owners: obj?.metadata?.ownerReferences }).toEqual({
          kind,
          owners: [expect.objectContaining(owner)],
        });
      }
      const epp = (await exists(Deployments, 'llama-epp'))!;
      expect(epp.spec.template.spec.containers[0].image).toBe(
        'registry.k8s.io/gateway-api-inference-extension/epp:v1.6.0',
      );
      const route = (await exists(HTTPRoutes, 'llama'))!;
      expect(route.metadata?.ownerReferences).toEqual([
        expect.objectContaining(owner),
      ]);
      expect(route.spec.parentRefs).toEqual([
        expect.objectContaining({
          name: 'inference-gateway',
          namespace: 'infra',
        }),
      ]);
      expect(route.spec.rules[0].backendRefs).toEqual([
        {
          group: 'inference.networking.k8s.io',
          kind: 'InferencePool',
          name: 'llama',
          namespace: NS,
        },
      ]);
      expect(route.spec.rules[0].matches[0].headers).toEqual([
        {
          type: 'Exact',
          name: 'X-Gateway-Model-Name',
          value: 'Llama-3.1-8B-Instruct',
        },
      ]);
      const events = await eventually('GatewayConfigured event', async () => {
        const list = await eventsOf(env.client, NS, 'llama');
        return list.some(e => e.reason === 'GatewayConfigured') && list;
      });
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'Normal',
          reason: 'GatewayConfigured',
          message: conditionOf(md, 'GatewayReady')?.message,
        }),
      );
    });

    it('routes a deployment as soon as it runs when its Service came after status.endpoint, not at the 30 s recheck', async () => {
      await env.client.create(
        ModelDeployments,
        deployment(NS, 'late-svc', GPU),
      );
      await waitFor(
        'late-svc',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      // The core's lookups of the Service, and what they found (GatewayReady says nothing new).
      const lookups: Array<Promise<string>> = [];
      const client = env.core.manager.client;
      const get = client.get.bind(client);
      const spy = jest
        .spyOn(client, 'get')
        .mockImplementation((rt, key, ...rest) => {
          const answer = get(rt, key, ...rest);
          if (rt === Services && key.name === 'late-svc')
            lookups.push(
              answer.then(
                () => 'found',
                err => (isNotFound(err) ? 'missing' : 'failed'),
              ),
            );
          return answer;
        });
      try {
        // The provider reports its endpoint before the operator has made the Service.
        await reportAs('dynamo', 'late-svc', {
          phase: 'Deploying',
          endpoint: { service: 'late-svc', port: 8000 },
        });
        await eventually('the core found the Service missing', async () =>
          (await Promise.all(lookups)).includes('missing'),
        );
      } finally {
        spy.mockRestore();
      }
      // No status write for it: the same wait, now with the Service named in status.endpoint.
      expect(
        conditionOf(
          await getDeployment(env.client, NS, 'late-svc'),
          'GatewayReady',
        ),
      ).toMatchObject({ status: 'False', reason: 'WaitingForProvider' });
      await provide('late-svc', 'dynamo');
      await eventually(
        'GatewayReady=True soon after Running',
        async () => {
          const md = await getDeployment(env.client, NS, 'late-svc');
          return conditionOf(md, 'GatewayReady')?.status === 'True';
        },
        GATEWAY_RECHECK_MS / 3,
      );
    });

    it('owns status.gateway and GatewayReady with its field manager (managedFields)', async () => {
      const md = (await getDeployment(
        env.client,
        NS,
        'llama',
      )) as ModelDeployment & { metadata: { managedFields?: any[] } };
      const coreFields = md.metadata.managedFields!.find(
        f => f.manager === CORE_FIELD_MANAGER && f.subresource === 'status',
      );
      const owned = coreFields.fieldsV1['f:status'];
      expect(Object.keys(owned['f:gateway'])).toEqual(
        expect.arrayContaining([
          'f:endpoint',
          'f:modelName',
          'f:gatewayNamespace',
          'f:apiFormats',
        ]),
      );
      expect(Object.keys(owned['f:conditions'])).toContain(
        'k:{"type":"GatewayReady"}',
      );
      const provider = md.metadata.managedFields!.find(
        f =>
          f.manager === 'airunway-provider-dynamo' &&
          f.subresource === 'status',
      );
      expect(provider.fieldsV1['f:status']['f:gateway']).toBeUndefined();
    });

    it('creates no HTTPRoute with spec.gateway.httpRouteRef, and routes through the named one', async () => {
      await env.client.create(
        ModelDeployments,
        deployment(NS, 'byo', {
          ...GPU,
          gateway: { httpRouteRef: 'my-route' },
        }),
      );
      await waitFor(
        'byo',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      await provide('byo', 'dynamo');
      const md = await gatewayReady('byo', 'GatewayConfigured');
      expect(conditionOf(md, 'GatewayReady')?.message).toContain(
        "by the HTTPRoute 'my-route' (spec.gateway.httpRouteRef)",
      );
      expect(await exists(InferencePools, 'byo')).toBeDefined();
      expect(await exists(HTTPRoutes, 'byo')).toBeUndefined();
      expect(await exists(HTTPRoutes, 'my-route')).toBeUndefined();
    });

    it('removes its HTTPRoute once httpRouteRef is set, and all it created with spec.gateway.enabled=false (GatewayDisabled)', async () => {
      await env.client.create(ModelDeployments, deployment(NS, 'off', GPU));
      await waitFor(
        'off',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      await provide('off', 'dynamo');
      await gatewayReady('off', 'GatewayConfigured');
      expect(await exists(Deployments, 'off-epp')).toBeDefined();

      // Routing through a user's HTTPRoute later: the core's own route goes.
      await env.client.patch(
        ModelDeployments,
        { namespace: NS, name: 'off' },
        { spec: { gateway: { httpRouteRef: 'elsewhere' } } },
        'merge',
      );
      await eventually(
        'the core HTTPRoute removed',
        async () => (await exists(HTTPRoutes, 'off')) === undefined,
      );
      await waitFor(
        'off',
        'configured by the user route',
        m =>
          conditionOf(m, 'GatewayReady')?.message?.includes(
            "HTTPRoute 'elsewhere'",
          ) === true,
      );

      await env.client.patch(
        ModelDeployments,
        { namespace: NS, name: 'off' },
        { spec: { gateway: { enabled: false, httpRouteRef: null } } },
        'merge',
      );
      const md = await gatewayReady('off', 'GatewayDisabled');
      expect(conditionOf(md, 'GatewayReady')).toMatchObject({
        status: 'False',
      });
      expect(md.status?.gateway).toBeUndefined();
      await eventually('gateway objects deleted', async () => {
        const left = await Promise.all([
          exists(InferencePools, 'off'),
          exists(HTTPRoutes, 'off'),
          ...Object.values(kinds).map(rt => exists(rt, 'off-epp')),
        ]);
        // Objects whose dependents are still being collected may linger briefly with a deletionTimestamp.
        return left.every(
          o => o === undefined || o.metadata?.deletionTimestamp !== undefined,
        );
      });
      // The other deployments' objects stay.
      expect(await exists(InferencePools, 'llama')).toBeDefined();
      expect(await exists(HTTPRoutes, 'llama')).toBeDefined();
    });

    it('never deletes objects of the same names it did not create', async () => {
      // Someone's ConfigMap and HTTPRoute with the names the core would use for 'quiet'.
      await env.client.apply(
        kinds.ConfigMap,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'quiet-epp', namespace: NS },
          data: {},
        },
        { fieldManager: 'someone', force: true },
      );
      await env.client.apply(
        HTTPRoutes,
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'quiet', namespace: NS },
          spec: { parentRefs: [{ name: 'other', namespace: 'infra' }] },
        },
        { fieldManager: 'someone', force: true },
      );
      await env.client.create(
        ModelDeployments,
        deployment(NS, 'quiet', { ...GPU, gateway: { enabled: false } }),
      );
      await gatewayReady('quiet', 'GatewayDisabled');
      expect(await exists(kinds.ConfigMap, 'quiet-epp')).toBeDefined();
      expect(await exists(HTTPRoutes, 'quiet')).toBeDefined();
    });

    it("reports HTTPRouteFailed, and takes nothing over, when someone else's HTTPRoute has the name", async () => {
      await env.client.apply(
        HTTPRoutes,
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'taken', namespace: NS },
          spec: { parentRefs: [{ name: 'other', namespace: 'infra' }] },
        },
        { fieldManager: 'someone', force: true },
      );
      await env.client.create(ModelDeployments, deployment(NS, 'taken', GPU));
      await waitFor(
        'taken',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      await provide('taken', 'dynamo');
      const md = await gatewayReady('taken', 'HTTPRouteFailed');
      expect(conditionOf(md, 'GatewayReady')).toMatchObject({
        status: 'False',
        message: expect.stringMatching(
          /^Could not apply the HTTPRoute 'taken': .*conflict/i,
        ),
      });
      expect(md.status?.gateway).toBeUndefined();
      const route = (await exists(HTTPRoutes, 'taken'))!;
      expect(route.spec.parentRefs).toEqual([
        { name: 'other', namespace: 'infra' },
      ]);
      await eventually('HTTPRouteFailed warning', async () =>
        (
          await eventsOf(env.client, NS, 'taken')
        ).some(e => e.type === 'Warning' && e.reason === 'HTTPRouteFailed'),
      );
    });

    it('routes to the InferencePool of a provider that manages its own (llm-d), creating no pool or endpoint picker', async () => {
      await env.client.create(
        ModelDeployments,
        deployment(NS, 'pd', { ...GPU, provider: { name: 'llmd' } }),
      );
      await waitFor(
        'pd',
        'provider llmd',
        m => m.status?.provider?.name === 'llmd',
      );
      // llm-d's own pool (its field manager), then its status.
      await env.client.apply(
        InferencePools,
        {
          apiVersion: 'inference.networking.k8s.io/v1',
          kind: 'InferencePool',
          metadata: { name: 'pd', namespace: NS },
          spec: {
            selector: { matchLabels: { 'llm-d.ai/inference-serving': 'true' } },
            targetPorts: [{ number: 8000 }],
            endpointPickerRef: { name: 'pd-epp', port: { number: 9002 } },
          },
        },
        { fieldManager: 'airunway-provider-llmd', force: true },
      );
      await provide('pd', 'llmd');
      const md = await gatewayReady('pd', 'GatewayConfigured');
      expect(conditionOf(md, 'GatewayReady')?.message).toContain(
        "to provider 'llmd''s InferencePool 'pd'",
      );
      const pool = (await exists(InferencePools, 'pd'))!;
      expect(pool.metadata?.managedFields?.map((f: any) => f.manager)).toEqual([
        'airunway-provider-llmd',
      ]);
      expect(await exists(Deployments, 'pd-epp')).toBeUndefined();
      const route = (await exists(HTTPRoutes, 'pd'))!;
      expect(route.spec.rules[0].backendRefs[0]).toMatchObject({
        kind: 'InferencePool',
        name: 'pd',
        namespace: NS,
      });
    });
  });
});

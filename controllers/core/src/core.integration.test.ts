/**
 * The core controller against a real API server with the generated
 * airunway.ai CRDs and no webhook installed (seed 000 §8: validation then
 * happens at reconcile time). Provider controllers are not running: their
 * InferenceProviderConfig registrations are written by the test, as they
 * would write them. The core runs with only the RBAC of
 * controllers/deploy/core/rbac.yaml, installed by the `runway` CLI (a token
 * of its ServiceAccount).
 */
import http from 'node:http';
import {
  KubeClient,
  type KubeObject,
  Secrets,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  CORE_FIELD_MANAGER,
  OBSERVED_IDENTITY_ANNOTATION,
  PROVIDER_LABEL,
} from './decide';
import type { CoreProcess } from './main';
import { ModelDeployments } from './reconciler';
import {
  installForTest,
  type InstalledComponent,
} from '@runway-portal/e2e-testing';
import {
  createNamespace,
  DEPLOYMENT_CRDS,
  START_TIMEOUT_MS,
  startCore,
  type Deployment,
  conditionOf,
  deployment,
  eventsOf,
  eventually,
  getDeployment,
  registerProvider,
  setProviderReady,
  sleep,
  useCoreCluster,
} from './__testUtils__/cluster';

jest.setTimeout(60_000);

const GPU = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};
const CPU = {
  model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' },
  engine: { type: 'llamacpp' },
};

describe('core controller against a real cluster (no webhook installed)', () => {
  const env = useCoreCluster({
    name: 'core-controller',
    namespaces: ['none', 'unready', 'main'],
    asCoreServiceAccount: true,
    flags: ['--webhook-mode=off'],
  });

  const create = (md: Deployment) => env.client.create(ModelDeployments, md);
  const waitFor = (
    ns: string,
    name: string,
    what: string,
    test: (md: ModelDeployment) => boolean,
  ) =>
    eventually(what, async () => {
      const md = await getDeployment(env.client, ns, name);
      return test(md) && md;
    });

  it("runs with its own RBAC only: it may not list Secrets nor write deployments' specs wholesale", async () => {
    const asCore = new KubeClient(env.coreAccount!.kubeConfig);
    try {
      await expect(asCore.list(Secrets, { namespace: 'main' })).rejects.toThrow(
        /forbidden/i,
      );
      await expect(
        asCore.create(ModelDeployments, deployment('main', 'not-mine', GPU)),
      ).rejects.toThrow(/forbidden/i);
      await expect(
        asCore.list(ModelDeployments, { namespace: 'main' }),
      ).resolves.toBeDefined();
    } finally {
      asCore.close();
    }
  });

  it("writes Deployments, ServiceAccounts, Roles and RoleBindings only as Runway's own objects, never in kube-system (admission policy)", async () => {
    const asCore = new KubeClient(env.coreAccount!.kubeConfig);
    const ServiceAccounts = {
      group: '',
      version: 'v1',
      plural: 'serviceaccounts',
      kind: 'ServiceAccount',
      namespaced: true,
    };
    try {
      const owner = await env.client.create(
        ModelDeployments,
        deployment('main', 'owner', GPU),
      );
      const labels = { 'app.kubernetes.io/managed-by': 'airunway-core' };
      const ownerReferences = [
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          name: 'owner',
          uid: owner.metadata!.uid!,
          controller: true,
        },
      ];
      const sa = (
        namespace: string,
        name: string,
        metadata: Record<string, unknown>,
      ) =>
        asCore.create(ServiceAccounts, {
          metadata: { name, namespace, ...metadata },
        });
      // The policy is read by the API server a moment after it is stored.
      await eventually('the policy in force', async () => {
        try {
          await sa('kube-system', 'escalate', { labels, ownerReferences: [] });
          return false;
        } catch (e) {
          return /may not write .* in kube-system/.test((e as Error).message);
        }
      });
      await expect(
        sa('main', 'unlabelled', { ownerReferences }),
      ).rejects.toThrow(
        /may write only objects labelled app\.kubernetes\.io\/managed-by=airunway-core/,
      );
      await expect(sa('main', 'orphan', { labels })).rejects.toThrow(
        /may write only objects controlled by a ModelDeployment/,
      );
      await expect(
        sa('main', 'owner-epp', { labels, ownerReferences }),
      ).resolves.toBeDefined();
      // Nobody else is affected.
      await expect(
        env.client.create(ServiceAccounts, {
          metadata: { name: 'admin-made', namespace: 'kube-system' },
        }),
      ).resolves.toBeDefined();
    } finally {
      asCore.close();
    }
  });

  it('holds a deployment Pending with "No healthy providers available" when no provider is installed', async () => {
    await create(deployment('none', 'llm', GPU));
    const md = await waitFor(
      'none',
      'llm',
      'Pending status',
      m => m.status?.phase === 'Pending',
    );
    expect(md.status?.message).toBe('No healthy providers available');
    expect(conditionOf(md, 'ProviderSelected')).toMatchObject({
      status: 'False',
      reason: 'NoHealthyProviders',
      message: 'No healthy providers available',
    });
    expect(conditionOf(md, 'Validated')).toMatchObject({ status: 'True' });
    expect(md.status?.provider).toBeUndefined();
    expect(md.status?.observedGeneration).toBe(md.metadata?.generation);
  });

  it('skips an unready provider, then selects it once it reports ready', async () => {
    await registerProvider(env.client, 'kaito', false);
    await create(deployment('unready', 'cpu', CPU));
    const pending = await waitFor(
      'unready',
      'cpu',
      'Pending status',
      m => m.status?.phase === 'Pending',
    );
    expect(pending.status?.message).toBe('No healthy providers available');

    await setProviderReady(env.client, 'kaito', true);
    const md = await waitFor(
      'unready',
      'cpu',
      'provider kaito and label',
      m =>
        m.metadata?.labels?.[PROVIDER_LABEL] === 'kaito' &&
        m.status?.provider?.name === 'kaito',
    );
    // The core released phase/message: a provider writes them from now on.
    expect(md.status?.phase).toBeUndefined();
    expect(md.status?.message).toBeUndefined();
    expect(md.status?.provider?.selectedReason).toBe(
      'no GPU requested → kaito (only CPU provider)',
    );
    expect(conditionOf(md, 'ProviderSelected')).toMatchObject({
      status: 'True',
      reason: 'AutoSelected',
    });
    expect(md.metadata?.labels?.[PROVIDER_LABEL]).toBe('kaito');
    const events = await eventually('ProviderSelected event', async () => {
      const list = await eventsOf(env.client, 'unready', 'cpu');
      return list.some(e => e.reason === 'ProviderSelected') && list;
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'Normal',
        reason: 'ProviderSelected',
        message:
          "Selected provider 'kaito': no GPU requested → kaito (only CPU provider)",
      }),
    );

    // Once handed over, the deployment stays with its provider while that provider is unready.
    await setProviderReady(env.client, 'kaito', false);
    await sleep(1500);
    const kept = await getDeployment(env.client, 'unready', 'cpu');
    expect(kept.status?.provider?.name).toBe('kaito');
    expect(kept.status?.phase).toBeUndefined();
  });

  describe('with KAITO and Dynamo registered and ready', () => {
    beforeAll(async () => {
      await registerProvider(env.client, 'kaito', true);
      await registerProvider(env.client, 'dynamo', true);
    });

    it('auto-selects Dynamo for a GPU deployment and owns exactly its status fields (managedFields)', async () => {
      await create(deployment('main', 'gpu', GPU));
      await waitFor(
        'main',
        'gpu',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      // A provider writes its own fields next to the core's, with its own field manager.
      await env.client.apply(
        ModelDeployments,
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name: 'gpu', namespace: 'main' },
          status: {
            phase: 'Deploying',
            provider: {
              resourceName: 'gpu',
              resourceKind: 'DynamoGraphDeployment',
            },
          },
        } as never,
        { fieldManager: 'airunway-provider-dynamo', subresource: 'status' },
      );
      const md = (await getDeployment(
        env.client,
        'main',
        'gpu',
      )) as ModelDeployment & { metadata: { managedFields?: any[] } };
      const coreFields = md.metadata.managedFields!.find(
        f => f.manager === CORE_FIELD_MANAGER && f.subresource === 'status',
      );
      const owned = coreFields.fieldsV1['f:status'];
      expect(Object.keys(owned['f:provider'] ?? {})).toEqual(
        expect.arrayContaining(['f:name', 'f:selectedReason']),
      );
      expect(Object.keys(owned['f:provider'])).not.toContain('f:resourceName');
      expect(Object.keys(owned['f:engine'])).toEqual(
        expect.arrayContaining(['f:type', 'f:selectedReason']),
      );
      expect(owned['f:observedGeneration']).toBeDefined();
      expect(owned['f:phase']).toBeUndefined();
      const coreConditions = Object.keys(owned['f:conditions']).filter(k =>
        k.startsWith('k:'),
      );
      expect(
        coreConditions.map(k => JSON.parse(k.slice(2)).type).sort(),
      ).toEqual([
        'EngineSelected',
        'GatewayReady',
        'ProviderSelected',
        'Validated',
      ]);
      const provider = md.metadata.managedFields!.find(
        f => f.manager === 'airunway-provider-dynamo',
      );
      expect(Object.keys(provider.fieldsV1['f:status'])).toEqual(
        expect.arrayContaining(['f:phase', 'f:provider']),
      );
      expect(md.status).toMatchObject({
        phase: 'Deploying',
        provider: { name: 'dynamo', resourceName: 'gpu' },
      });
    });

    it('reports GatewayReady=False CRDsNotAvailable without the Gateway API Inference Extension CRDs', async () => {
      const md = await waitFor(
        'main',
        'gpu',
        'GatewayReady',
        m => conditionOf(m, 'GatewayReady') !== undefined,
      );
      expect(conditionOf(md, 'GatewayReady')).toMatchObject({
        status: 'False',
        reason: 'CRDsNotAvailable',
      });
      expect(conditionOf(md, 'GatewayReady')?.message).toContain(
        'inferencepools.inference.networking.k8s.io',
      );
    });

    it("hands an incompatible explicit provider its deployment (compatibility is the provider controller's call)", async () => {
      await create(
        deployment('main', 'sglang-on-kaito', {
          ...GPU,
          engine: { type: 'sglang' },
          provider: { name: 'kaito' },
        }),
      );
      const md = await waitFor(
        'main',
        'sglang-on-kaito',
        'provider kaito',
        m => m.status?.provider?.name === 'kaito',
      );
      expect(md.status?.provider?.selectedReason).toBe(
        'explicit provider selection',
      );
      expect(conditionOf(md, 'ProviderSelected')).toMatchObject({
        status: 'True',
        reason: 'Specified',
      });
      expect(conditionOf(md, 'ProviderCompatible')).toBeUndefined();
    });

    it('holds an explicitly named provider that is not registered Pending, naming it', async () => {
      await create(
        deployment('main', 'ray', { ...GPU, provider: { name: 'kuberay' } }),
      );
      const md = await waitFor(
        'main',
        'ray',
        'Pending',
        m => m.status?.phase === 'Pending',
      );
      expect(md.status?.message).toContain(
        "Provider 'kuberay' is not registered",
      );
      expect(conditionOf(md, 'ProviderSelected')?.status).toBe('False');
    });

    it("then holds it Pending with seed 000 §8's message while the provider reports no upstream CRD, and hands it over once it does", async () => {
      await registerProvider(env.client, 'kuberay', true, {
        crdInstalled: false,
      });
      const md = await waitFor(
        'main',
        'ray',
        'CRD message',
        m => m.status?.message?.includes('CRD not installed') === true,
      );
      expect(md.status?.phase).toBe('Pending');
      expect(md.status?.message).toBe(
        "Validation failed: spec.provider.name: Provider 'kuberay' CRD not installed in cluster",
      );
      expect(conditionOf(md, 'Validated')).toMatchObject({
        status: 'False',
        message:
          "spec.provider.name: Provider 'kuberay' CRD not installed in cluster",
      });
      expect(md.status?.provider).toBeUndefined();
      // Only the CRD version changes (ready stays true): the core looks again.
      await setProviderReady(env.client, 'kuberay', true);
      const selected = await waitFor(
        'main',
        'ray',
        'provider kuberay',
        m => m.status?.provider?.name === 'kuberay',
      );
      expect(conditionOf(selected, 'Validated')).toMatchObject({
        status: 'True',
      });
    });

    it('emits SecretNotFound for a missing token Secret (existence only) and still selects', async () => {
      await create(
        deployment('main', 'secret', {
          ...GPU,
          secrets: { huggingFaceToken: 'hf-token-secret' },
        }),
      );
      const events = await eventually('SecretNotFound event', async () => {
        const list = await eventsOf(env.client, 'main', 'secret');
        return list.some(e => e.reason === 'SecretNotFound') && list;
      });
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'Warning',
          reason: 'SecretNotFound',
          message: "Secret 'hf-token-secret' not found in namespace 'main'",
        }),
      );
      const md = await waitFor(
        'main',
        'secret',
        'provider',
        m => m.status?.provider?.name === 'dynamo',
      );
      expect(md.status?.phase).toBeUndefined();
    });

    it('validates at reconcile time what the API server accepts (webhook not installed): Pending with the message', async () => {
      // Blocked override keys are a validator rule the CRD schema cannot express.
      await create(
        deployment('main', 'invalid', {
          ...GPU,
          provider: {
            name: 'dynamo',
            overrides: { securityContext: { privileged: true } },
          },
        }),
      );
      const md = await waitFor(
        'main',
        'invalid',
        'Pending',
        m => m.status?.phase === 'Pending',
      );
      expect(md.status?.message).toMatch(
        /^Validation failed: spec\.provider\.overrides/,
      );
      expect(conditionOf(md, 'Validated')).toMatchObject({
        status: 'False',
        reason: 'ValidationFailed',
      });
      expect(md.status?.provider).toBeUndefined();

      // Fixing the spec lets it through.
      await env.client.patch(
        ModelDeployments,
        { namespace: 'main', name: 'invalid' },
        { spec: { provider: { overrides: null } } },
        'merge',
      );
      const fixed = await waitFor(
        'main',
        'invalid',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      expect(conditionOf(fixed, 'Validated')).toMatchObject({ status: 'True' });
      expect(fixed.status?.phase).toBeUndefined();
    });

    it('owns its provider label even when a user set it by hand', async () => {
      const md = deployment('main', 'hand-labelled', GPU);
      md.metadata!.labels = { [PROVIDER_LABEL]: 'bogus', team: 'a' };
      await create(md);
      const live = await waitFor(
        'main',
        'hand-labelled',
        'label corrected',
        m => m.metadata?.labels?.[PROVIDER_LABEL] === 'dynamo',
      );
      expect(live.metadata?.labels?.team).toBe('a');
    });

    it('leaves a paused deployment alone until the annotation goes', async () => {
      await create(
        deployment('main', 'paused', GPU, {
          'airunway.ai/reconcile-paused': 'true',
        }),
      );
      await sleep(1500);
      expect(
        (await getDeployment(env.client, 'main', 'paused')).status,
      ).toBeUndefined();
      await env.client.patch(
        ModelDeployments,
        { namespace: 'main', name: 'paused' },
        { metadata: { annotations: { 'airunway.ai/reconcile-paused': null } } },
        'merge',
      );
      await waitFor(
        'main',
        'paused',
        'provider after unpause',
        m => m.status?.provider?.name === 'dynamo',
      );
    });

    it('follows observedGeneration on a config change without re-selecting or warning', async () => {
      await create(deployment('main', 'scale', GPU));
      await waitFor(
        'main',
        'scale',
        'provider',
        m => m.status?.provider?.name === 'dynamo',
      );
      await env.client.patch(
        ModelDeployments,
        { namespace: 'main', name: 'scale' },
        { spec: { scaling: { replicas: 3 } } },
        'merge',
      );
      const md = await waitFor(
        'main',
        'scale',
        'generation 2 observed',
        m => m.metadata?.generation === 2 && m.status?.observedGeneration === 2,
      );
      expect(conditionOf(md, 'Validated')?.observedGeneration).toBe(2);
      expect(md.status?.provider?.name).toBe('dynamo');
      expect(
        (await eventsOf(env.client, 'main', 'scale')).map(e => e.reason),
      ).not.toContain('IdentityFieldChanged');
    });

    it('re-selects and warns when an identity field changes (the provider recreates its resource)', async () => {
      await create(deployment('main', 'identity', GPU));
      await waitFor(
        'main',
        'identity',
        'provider dynamo',
        m => m.status?.provider?.name === 'dynamo',
      );
      await env.client.patch(
        ModelDeployments,
        { namespace: 'main', name: 'identity' },
        {
          spec: {
            model: { id: 'Qwen/Qwen3-0.6B' },
            provider: { name: 'kaito' },
          },
        },
        'merge',
      );
      const md = await waitFor(
        'main',
        'identity',
        'provider kaito and label',
        m =>
          m.metadata?.labels?.[PROVIDER_LABEL] === 'kaito' &&
          m.status?.provider?.name === 'kaito',
      );
      expect(md.status?.provider?.selectedReason).toBe(
        'explicit provider selection',
      );
      expect(
        JSON.parse(md.metadata!.annotations![OBSERVED_IDENTITY_ANNOTATION]),
      ).toMatchObject({
        'model.id': 'Qwen/Qwen3-0.6B',
        'provider.name': 'kaito',
      });
      expect(md.metadata?.labels?.[PROVIDER_LABEL]).toBe('kaito');
      const events = await eventually(
        'IdentityFieldChanged event',
        async () => {
          const list = await eventsOf(env.client, 'main', 'identity');
          return list.some(e => e.reason === 'IdentityFieldChanged') && list;
        },
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'Warning',
          reason: 'IdentityFieldChanged',
          message:
            'spec.model.id changed from meta-llama/Llama-3.1-8B-Instruct to Qwen/Qwen3-0.6B; spec.provider.name changed from dynamo to kaito: the provider resource is deleted and recreated (brief downtime)',
        }),
      );
    });

    it('serves the airunway_ metrics', async () => {
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get(
            `http://127.0.0.1:${env.core.manager.metricsPort()}/metrics`,
            res => {
              let text = '';
              res.on('data', chunk => (text += chunk));
              res.on('end', () => resolve(text));
            },
          )
          .on('error', reject);
      });
      expect(body).toMatch(
        /airunway_modeldeployment_total\{namespace="main",phase="Deploying"\} 1/,
      );
      expect(body).toMatch(
        /airunway_provider_selection\{provider="dynamo",reason="default → dynamo \(GPU inference default\)"\} \d+/,
      );
      expect(body).toContain('airunway_reconciliation_duration_seconds_bucket');
    });
  });
});

describe('core with --check-secrets=false and the secrets rule removed from its ClusterRole', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let core: CoreProcess;
  let running: Promise<void>;
  let coreAccount: InstalledComponent;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'core-no-secrets',
      crds: DEPLOYMENT_CRDS,
    });
    client = new KubeClient(cluster.kubeConfig());
    await createNamespace(client, 'main');
    coreAccount = await installForTest(cluster, 'core', client);
    // The README's option: the ClusterRole without its `secrets: get` rule.
    const role = coreAccount.objects.find(
      o => o.kind === 'ClusterRole',
    )! as KubeObject & {
      rules: Array<{ resources: string[] }>;
    };
    const rules = role.rules.filter(r => !r.resources.includes('secrets'));
    if (rules.length !== role.rules.length - 1)
      throw new Error(
        'rbac.yaml: expected exactly one ClusterRole rule on secrets',
      );
    const ClusterRoles = await client.resolve(
      'rbac.authorization.k8s.io/v1',
      'ClusterRole',
    );
    await client.apply(
      ClusterRoles,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: role.metadata!.name },
        rules,
      } as never,
      { fieldManager: 'core-test', force: true },
    );
    await registerProvider(client, 'dynamo', true);
    ({ core, running } = await startCore(
      cluster,
      ['--webhook-mode=off', '--check-secrets=false'],
      { kubeConfig: coreAccount.kubeConfig },
    ));
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await core?.manager.stop();
    await running;
    client?.close();
    await cluster?.stop();
  }, 60_000);

  it('selects a deployment that names a token Secret without reading it (no SecretNotFound)', async () => {
    const asCore = new KubeClient(coreAccount.kubeConfig);
    try {
      await expect(
        asCore.get(Secrets, { namespace: 'main', name: 'hf-token-secret' }),
      ).rejects.toThrow(/forbidden/i);
    } finally {
      asCore.close();
    }
    await client.create(
      ModelDeployments,
      deployment('main', 'tokened', {
        ...GPU,
        secrets: { huggingFaceToken: 'hf-token-secret' },
      }),
    );
    // With the check on, the forbidden lookup would fail every reconcile before selection.
    const md = await eventually('provider dynamo', async () => {
      const live = await getDeployment(client, 'main', 'tokened');
      return live.status?.provider?.name === 'dynamo' && live;
    });
    expect(conditionOf(md, 'Validated')).toMatchObject({ status: 'True' });
    const events = await eventually('ProviderSelected event', async () => {
      const list = await eventsOf(client, 'main', 'tokened');
      return list.some(e => e.reason === 'ProviderSelected') && list;
    });
    expect(events.map(e => e.reason)).not.toContain('SecretNotFound');
  });
});

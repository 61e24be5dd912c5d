/**
 * The core's admission webhooks called by a real API server: the core runs
 * as a local process would (`--webhook-mode=url` on 127.0.0.1), registers
 * its webhook configurations, and keeps their caBundle with its own CA.
 */
import {
  isNotFound,
  KubeApiError,
  MutatingWebhookConfigurations,
  ValidatingWebhookConfigurations,
} from '@runway-portal/controller-runtime';
import { MUTATE_PATH } from './admission';
import { MUTATING_CONFIG, VALIDATING_CONFIG } from './main';
import { ModelDeployments } from './reconciler';
import path from 'node:path';
import {
  applyManifests,
  conditionOf,
  CORE_MANIFESTS,
  deployment,
  eventually,
  freePort,
  getDeployment,
  registerProvider,
  startCore,
  useCoreCluster,
} from './__testUtils__/cluster';

jest.setTimeout(60_000);

const GPU = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};

describe('core webhooks called by the API server (url mode)', () => {
  let flags: string[] = [];
  const env = useCoreCluster({
    name: 'core-webhooks',
    namespaces: ['apps'],
    flags: async () =>
      (flags = [
        '--webhook-mode=url',
        `--webhook-port=${await freePort()}`,
        '--namespace=airunway-system',
      ]),
  });

  beforeAll(async () => {
    // Ready once the certificate is served and both caBundles are written.
    await eventually(
      'webhook certificate ready',
      () => env.core.manager.certManager?.isReady(),
      30_000,
    );
    await registerProvider(env.client, 'dynamo', true);
  }, 60_000);

  it('ships manifests the API server accepts (service mode: Deployment, Service, webhook configurations, RBAC)', async () => {
    const kinds: string[] = [];
    for (const file of [
      'rbac.yaml',
      'deployment.yaml',
      'webhooks.yaml',
      'admission-policy.yaml',
    ]) {
      // Renamed: the url-mode configurations of this test already hold the real names.
      const applied = await applyManifests(
        env.client,
        path.join(CORE_MANIFESTS, file),
        { dryRun: true, nameSuffix: '-dry' },
      );
      kinds.push(
        ...applied.map(
          o => `${o.kind}/${o.metadata?.name?.replace(/-dry$/, '')}`,
        ),
      );
    }
    expect(kinds).toEqual(
      expect.arrayContaining([
        'ClusterRole/airunway-core',
        'Deployment/airunway-core',
        'Service/airunway-core-webhook',
        'ValidatingWebhookConfiguration/airunway-core-validating',
        'MutatingWebhookConfiguration/airunway-core-mutating',
        'ValidatingAdmissionPolicy/airunway-core-writes',
        'ValidatingAdmissionPolicyBinding/airunway-core-writes',
      ]),
    );
  });

  it('registered both webhook configurations with its CA', async () => {
    for (const [rt, name] of [
      [ValidatingWebhookConfigurations, VALIDATING_CONFIG],
      [MutatingWebhookConfigurations, MUTATING_CONFIG],
    ] as const) {
      const config = (await env.client.get(rt, { name })) as {
        webhooks: Array<{ clientConfig: { url: string; caBundle?: string } }>;
      };
      expect(config.webhooks[0].clientConfig.url).toMatch(
        /^https:\/\/127\.0\.0\.1:\d+\//,
      );
      expect(config.webhooks[0].clientConfig.caBundle).toBeTruthy();
    }
  });

  it('denies what the validator rejects and the CRD schema cannot express, naming the field', async () => {
    const err = await eventually('a denial from the webhook', async () => {
      try {
        await env.client.create(
          ModelDeployments,
          deployment('apps', 'blocked', {
            ...GPU,
            provider: { name: 'dynamo', overrides: { hostNetwork: true } },
          }),
        );
        return undefined;
      } catch (e) {
        return e instanceof KubeApiError &&
          e.message.includes('admission webhook')
          ? e
          : undefined;
      }
    });
    expect(err.message).toContain('vmodeldeployment.airunway.ai');
    expect(err.message).toContain('spec.provider.overrides');
    await expect(getDeployment(env.client, 'apps', 'blocked')).rejects.toThrow(
      /not found/i,
    );
  });

  it("denies an explicit provider registered without its upstream CRD with seed 000 §8's message", async () => {
    await registerProvider(env.client, 'kuberay', true, {
      crdInstalled: false,
    });
    const err = await eventually(
      'a denial naming the missing CRD',
      async () => {
        try {
          await env.client.create(
            ModelDeployments,
            deployment('apps', 'no-crd', {
              ...GPU,
              provider: { name: 'kuberay' },
            }),
            { dryRun: true },
          );
          return undefined; // the core's cache has not seen the registration yet
        } catch (e) {
          return e instanceof KubeApiError &&
            e.message.includes('CRD not installed')
            ? e
            : undefined;
        }
      },
    );
    expect(err.message).toContain(
      "spec.provider.name: Provider 'kuberay' CRD not installed in cluster",
    );
    await expect(getDeployment(env.client, 'apps', 'no-crd')).rejects.toThrow(
      /not found/i,
    );
  });

  /** Calls of the mutating webhook so far, from the core's own metrics. */
  const mutateCalls = async () =>
    (await env.core.manager.metrics.webhookRequests.get()).values
      .filter(v => v.labels.webhook === MUTATE_PATH)
      .reduce((sum, v) => sum + v.value, 0);

  it('defaults what the user left out (the CRD, no mutating webhook call) and the controller selects', async () => {
    const before = await mutateCalls();
    await env.client.create(
      ModelDeployments,
      deployment('apps', 'defaulted', GPU),
    );
    const md = await getDeployment(env.client, 'apps', 'defaulted');
    // The API server's own defaults (serving: {} and scaling: {} with upstream's nested ones).
    expect(md.spec.serving?.mode).toBe('aggregated');
    expect(md.spec.scaling?.replicas).toBe(1);
    expect(md.spec.resources?.gpu?.type).toBe('nvidia.com/gpu');
    expect(await mutateCalls()).toBe(before);
    await eventually(
      'provider selected',
      async () =>
        (
          await getDeployment(env.client, 'apps', 'defaulted')
        ).status?.provider?.name === 'dynamo',
    );
  });

  it('calls the mutating webhook only for what the CRD cannot default: not for a stored spec sent back, but for a number as memory', async () => {
    const before = await mutateCalls();
    const stored = await getDeployment(env.client, 'apps', 'defaulted');
    const storedSpec = { ...stored.spec } as Record<string, unknown>;
    await env.client.create(
      ModelDeployments,
      deployment('apps', 'complete', storedSpec),
    );
    expect((await getDeployment(env.client, 'apps', 'complete')).spec).toEqual(
      stored.spec,
    );
    expect(await mutateCalls()).toBe(before);

    // A number for memory is the webhook's (upstream's Go types read quantities as strings).
    await env.client.create(
      ModelDeployments,
      deployment('apps', 'numeric-memory', {
        ...storedSpec,
        resources: { gpu: { count: 1 }, memory: 17179869184 },
      }),
    );
    expect(
      (await getDeployment(env.client, 'apps', 'numeric-memory')).spec.resources
        ?.memory,
    ).toBe('17179869184');
    expect(await mutateCalls()).toBe(before + 1);
  });

  it('lets the controller label an object whose spec it does not change', async () => {
    const md = await eventually(
      'label written through the webhooks',
      async () => {
        const live = await getDeployment(env.client, 'apps', 'defaulted');
        return (
          live.metadata?.labels?.['airunway.ai/provider'] === 'dynamo' && live
        );
      },
    );
    expect(
      md.metadata?.annotations?.['airunway.ai/observed-identity'],
    ).toBeDefined();
  });

  // Last: it stops the core and starts a new one (seed 000 §8: accepted without the webhook, validated at reconcile time).
  it('never blocks the cluster while the core is down: creates accepted and validated once it is back, finalizers removed, deletions finish', async () => {
    await env.core.manager.stop();
    const blocked = {
      ...GPU,
      provider: { name: 'dynamo', overrides: { hostNetwork: true } },
    };
    await env.client.create(ModelDeployments, {
      ...deployment('apps', 'while-down', blocked),
      metadata: {
        name: 'while-down',
        namespace: 'apps',
        finalizers: ['example.com/hold'],
      },
    });
    await env.client.create(ModelDeployments, {
      ...deployment('apps', 'held', GPU),
      metadata: {
        name: 'held',
        namespace: 'apps',
        finalizers: ['example.com/hold'],
      },
    });
    // The seed's manual escape: delete, then take the finalizer off by patch (an update the webhooks must not see).
    await env.client.delete(ModelDeployments, {
      namespace: 'apps',
      name: 'held',
    });
    await env.client.patch(
      ModelDeployments,
      { namespace: 'apps', name: 'held' },
      [{ op: 'remove', path: '/metadata/finalizers' }],
      'json',
    );
    const gone = (name: string) =>
      getDeployment(env.client, 'apps', name).then(() => false, isNotFound);
    await eventually('the held deployment gone', () => gone('held'));

    ({ core: env.core } = await startCore(env.cluster, flags));
    const md = await eventually(
      'the deployment created while down validated at reconcile time',
      async () => {
        const live = await getDeployment(env.client, 'apps', 'while-down');
        return conditionOf(live, 'Validated')?.status === 'False' && live;
      },
    );
    expect(conditionOf(md, 'Validated')?.message).toContain(
      'spec.provider.overrides',
    );
    expect(md.status?.phase).toBe('Pending');
    expect(md.status?.provider).toBeUndefined();
    // With the core back, a finalizer-only update of the invalid object still goes through, and it is deleted.
    await env.client.delete(ModelDeployments, {
      namespace: 'apps',
      name: 'while-down',
    });
    await env.client.patch(
      ModelDeployments,
      { namespace: 'apps', name: 'while-down' },
      [{ op: 'remove', path: '/metadata/finalizers' }],
      'json',
    );
    await eventually('the invalid deployment gone', () => gone('while-down'));
  });
});

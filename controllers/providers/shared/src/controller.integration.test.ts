/**
 * The shared loop itself against a real control plane, with a test
 * definition (no provider package: those depend on this one) writing
 * Dynamo's real DynamoGraphDeployment CRD of the v1.3.0 era: it stores
 * v1alpha1 and serves v1beta1 through the Dynamo operator's conversion
 * webhook, which is not running here.
 *
 * - the loop writes the storage version, so no conversion is needed;
 * - `mapStatus` gets the live helper objects (`extras`);
 * - an apply the API server rejects (422) is reported in the status, retried,
 *   and deletes nothing; fixing the spec recovers;
 * - a server error (the conversion webhook a v1beta1-only provider needs
 *   here) is reported as retrying, not as a failed deployment;
 * - a new upstream resource is reported (ResourceCreated) before its helpers
 *   are applied, and a helper rejected after that keeps what is true of it.
 */
import path from 'node:path';
import {
  ConfigMaps,
  KubeClient,
  type KubeObject,
  Namespaces,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  waitFor,
} from '@runway-portal/e2e-cluster';
import {
  DYNAMO_PROVIDER,
  type ModelDeployment,
  RECONCILE_PAUSED_ANNOTATION,
} from '@runway-portal/plugin-runway-common';
import { installForTest } from '@runway-portal/e2e-testing';
import type { ProviderDefinition } from './definition';
import { ModelDeployments } from './resources';
import {
  conditionOf,
  createModelDeploymentAsCore,
  getProviderConfig,
  isGone,
  modelDeploymentTestHelpers,
  type RunningProvider,
  startProviderForTest,
} from './testing';

jest.setTimeout(120_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
const DGD_CRD_V130 = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds/dynamo-nvidia.com_dynamographdeployments.v1.3.0-era.yaml',
);
const NS = 'loop';
const PROVIDER = 'looptest';

const DGDs = (version: string) => ({
  group: 'nvidia.com',
  version,
  kind: 'DynamoGraphDeployment',
  plural: 'dynamographdeployments',
  namespaced: true,
});
type Obj = KubeObject & { spec?: any; data?: Record<string, string> };

/**
 * A minimal v1alpha1 DynamoGraphDeployment and a ConfigMap. The overrides
 * pass the loop's checks but not DGD's schema: `frontendReplicas: -1` breaks
 * its `minimum: 0` (422 Invalid); `frontendReplicasText` is a string where
 * DGD wants an integer (server-side apply answers 500 "failed to create
 * typed patch object").
 */
const definition: ProviderDefinition = {
  name: PROVIDER,
  registration: {
    ...DYNAMO_PROVIDER,
    metadata: { ...DYNAMO_PROVIDER.metadata, name: PROVIDER },
  },
  version: `${PROVIDER}:v0`,
  upstream: {
    group: 'nvidia.com',
    kind: 'DynamoGraphDeployment',
    plural: 'dynamographdeployments',
    versions: ['v1beta1', 'v1alpha1'],
  },
  extraKinds: [ConfigMaps],
  overrides: {
    frontendReplicas: 'integer',
    frontendReplicasText: 'string',
    configKey: 'string',
  },
  transform(md, { apiVersion }) {
    if (apiVersion !== 'nvidia.com/v1alpha1')
      throw new Error(
        `test definition writes only v1alpha1, asked for ${apiVersion}`,
      );
    const overrides = md.spec.provider?.overrides as
      | {
          frontendReplicas?: number;
          frontendReplicasText?: string;
          configKey?: string;
        }
      | undefined;
    const replicas =
      overrides?.frontendReplicasText ?? overrides?.frontendReplicas ?? 1;
    const name = md.metadata!.name!;
    return {
      objects: [
        {
          apiVersion,
          kind: 'DynamoGraphDeployment',
          metadata: { name },
          spec: {
            services: { Frontend: { componentType: 'frontend', replicas } },
          },
        },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `${name}-config` },
          data: { [overrides?.configKey ?? 'model']: md.spec.model.id },
        },
      ],
    };
  },
  // Says what it was given, so the test sees whether the helpers are the live ones.
  mapStatus: (md, upstream, extras = []) => ({
    phase: 'Running',
    ready: true,
    reason: 'TestReady',
    endpoint: { service: md.metadata!.name!, port: 8000 },
    message: [upstream, ...extras]
      .map(
        o =>
          `${o.kind}/${o.metadata?.name} ${
            o.metadata?.resourceVersion ? 'live' : 'desired'
          }`,
      )
      .join(', '),
  }),
};

/** A provider that can write only v1beta1: here every write needs the absent webhook (a 500). */
const BETA_ONLY = 'loopbeta';
const betaOnly: ProviderDefinition = {
  ...definition,
  name: BETA_ONLY,
  registration: {
    ...DYNAMO_PROVIDER,
    metadata: { ...DYNAMO_PROVIDER.metadata, name: BETA_ONLY },
  },
  upstream: { ...definition.upstream, versions: ['v1beta1'] },
  transform: (md, { apiVersion }) => ({
    objects: [
      {
        apiVersion,
        kind: 'DynamoGraphDeployment',
        metadata: { name: md.metadata!.name! },
        spec: { components: [{ name: 'frontend', type: 'frontend' }] },
      },
    ],
  }),
};

const spec = (
  overrides?: Record<string, unknown>,
): ModelDeployment['spec'] => ({
  model: { id: 'Qwen/Qwen3-0.6B' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
  ...(overrides ? { provider: { overrides } } : {}),
});

describe('the shared provider loop against a real cluster', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let running: RunningProvider;
  let runningBeta: RunningProvider;
  const { getMd, createMd, patchSpec, events, eventRecorded } =
    modelDeploymentTestHelpers(() => client, PROVIDER, NS);
  const getDgd = (name: string) =>
    client.get<Obj>(DGDs('v1alpha1'), { namespace: NS, name });
  const getConfigMap = (name: string) =>
    client.get<Obj>(ConfigMaps, { namespace: NS, name });
  /** Waits for a deployment's condition; on timeout shows its status and events. */
  const until = (
    what: string,
    name: string,
    check: (md: Awaited<ReturnType<typeof getMd>>) => boolean,
  ) =>
    waitFor(what, async () => check(await getMd(name)), {
      timeoutMs: 60_000,
      intervalMs: 250,
      explain: async () =>
        `status: ${JSON.stringify((await getMd(name)).status)}\nevents: ${(
          await events(name)
        ).join('\n')}`,
    });

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'provider-shared-loop',
      crds: [RUNWAY_CRDS, DGD_CRD_V130],
    });
    client = new KubeClient(cluster.kubeConfig());
    await client.create(Namespaces, { metadata: { name: NS } });
    running = await startProviderForTest(client, definition, {
      heartbeatIntervalMs: 1000,
    });
    runningBeta = await startProviderForTest(client, betaOnly, {
      heartbeatIntervalMs: 1000,
    });
  });

  afterAll(async () => {
    await runningBeta?.stop();
    await running?.stop();
    client?.close();
    await cluster?.stop();
  });

  it('writes the CRD storage version (v1alpha1) although it prefers v1beta1, which needs the absent conversion webhook', async () => {
    await waitFor(
      'registration reports the storage version',
      async () => {
        const ipc = await getProviderConfig(client, PROVIDER);
        return ipc.status?.upstreamCRDVersion === 'nvidia.com/v1alpha1';
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    // The other served version really needs Dynamo's webhook here.
    await expect(
      client.create(DGDs('v1beta1'), {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'direct', namespace: NS },
        spec: {},
      }),
    ).rejects.toThrow(/conversion webhook/);

    await createMd('llama', spec());
    await until('Running', 'llama', md => md.status?.phase === 'Running');
    const dgd = await getDgd('llama');
    expect(dgd.spec.services.Frontend).toEqual({
      componentType: 'frontend',
      replicas: 1,
    });
    const writes = (dgd.metadata!.managedFields ?? []) as Array<{
      manager?: string;
      apiVersion?: string;
    }>;
    expect(
      writes
        .filter(w => w.manager === `airunway-provider-${PROVIDER}`)
        .map(w => w.apiVersion),
    ).toEqual(['nvidia.com/v1alpha1']);
  });

  it('hands mapStatus the live helper objects', async () => {
    const md = await getMd('llama');
    expect(md.status?.message).toBe(
      'DynamoGraphDeployment/llama live, ConfigMap/llama-config live',
    );
    expect(conditionOf(md, 'ResourceCreated')).toMatchObject({
      status: 'True',
      reason: 'ResourceCreated',
    });
  });

  it('reports an apply the API server rejects (422) in the status, keeps what exists, and recovers once the spec is fixed', async () => {
    const before = {
      dgd: (await getDgd('llama')).metadata!.uid,
      configMap: (await getConfigMap('llama-config')).metadata!.uid,
    };
    await patchSpec('llama', {
      provider: { overrides: { frontendReplicas: -1 } },
    });
    await until(
      'Failed with ApplyFailed',
      'llama',
      md => md.status?.phase === 'Failed',
    );
    const md = await getMd('llama');
    expect(md.status!.message).toMatch(
      /^Applying DynamoGraphDeployment 'llama' failed: 422 Invalid: .*spec\.services\.Frontend\.replicas.*greater than or equal to 0/,
    );
    for (const type of ['ResourceCreated', 'Ready']) {
      expect(conditionOf(md, type)).toMatchObject({
        status: 'False',
        reason: 'ApplyFailed',
        message: md.status!.message,
      });
    }
    await eventRecorded(
      'llama',
      `Warning/ProviderError: ${md.status!.message}`,
    );
    // What is true of the DGD that still runs stays in the status (the core's gateway routing reads the endpoint).
    expect(md.status).toMatchObject({
      endpoint: { service: 'llama', port: 8000 },
      provider: {
        resourceName: 'llama',
        resourceKind: 'DynamoGraphDeployment',
      },
    });
    // Nothing existing was deleted or replaced.
    expect((await getDgd('llama')).metadata!.uid).toBe(before.dgd);
    expect((await getDgd('llama')).spec.services.Frontend.replicas).toBe(1);
    expect((await getConfigMap('llama-config')).metadata!.uid).toBe(
      before.configMap,
    );

    const applyErrors = async () =>
      (
        await running.manager.metrics.registry.getSingleMetricAsString(
          'airunway_reconciliation_errors_total',
        )
      )
        .split('\n')
        .find(line =>
          line.startsWith(
            `airunway_reconciliation_errors_total{provider="${PROVIDER}",error_type="ApplyFailed"}`,
          ),
        );
    expect(await applyErrors()).toMatch(/ [1-9]\d*$/);

    await patchSpec('llama', { provider: null });
    await until('Running again', 'llama', d => d.status?.phase === 'Running');
    expect(conditionOf(await getMd('llama'), 'ResourceCreated')).toMatchObject({
      status: 'True',
    });
  });

  it('reports ResourceCreated as soon as the upstream resource exists, then again with its helpers', async () => {
    const messages: string[] = [];
    const stop = new AbortController();
    const watching = client
      .watch<ModelDeployment & KubeObject>(
        ModelDeployments,
        {
          namespace: NS,
          fieldSelector: 'metadata.name=early',
          signal: stop.signal,
        },
        ({ object }) => {
          const created = conditionOf(object, 'ResourceCreated');
          if (created?.status === 'True')
            messages.push(object.status!.message!);
        },
      )
      .catch(() => undefined);
    try {
      await createMd('early', spec());
      await until('the helpers in the status', 'early', md =>
        (md.status?.message ?? '').includes('ConfigMap'),
      );
      await waitFor('the watch to see it', async () => messages.length >= 2, {
        timeoutMs: 10_000,
        intervalMs: 100,
      });
    } finally {
      stop.abort();
      await watching;
    }
    // The first status with ResourceCreated came before the ConfigMap was applied.
    expect(messages[0]).toBe('DynamoGraphDeployment/early live');
    expect(messages.at(-1)).toBe(
      'DynamoGraphDeployment/early live, ConfigMap/early-config live',
    );
  });

  it('keeps what is true of a new upstream resource when a helper applied after it is rejected', async () => {
    await createMd('badhelper', spec({ configKey: 'not a key!' }));
    await until('Failed', 'badhelper', md => md.status?.phase === 'Failed');
    const md = await getMd('badhelper');
    expect(md.status!.message).toMatch(
      /^Applying ConfigMap 'badhelper-config' failed: 422 Invalid: .*not a key!/,
    );
    expect(conditionOf(md, 'ResourceCreated')).toMatchObject({
      status: 'False',
      reason: 'ApplyFailed',
    });
    // Announced before the ConfigMap failed, and still true: the DGD exists.
    expect(md.status).toMatchObject({
      endpoint: { service: 'badhelper', port: 8000 },
      provider: {
        resourceName: 'badhelper',
        resourceKind: 'DynamoGraphDeployment',
      },
    });
    expect(await isGone(() => getDgd('badhelper'))).toBe(false);
  });

  it('reports a first create rejected for a mistyped field as Failed with nothing created, and deletes nothing', async () => {
    await createMd('broken', spec({ frontendReplicasText: 'many' }));
    await until('Failed', 'broken', md => md.status?.phase === 'Failed');
    expect((await getMd('broken')).status!.message).toContain(
      "Applying DynamoGraphDeployment 'broken' failed: 500: failed to create typed patch object (loop/broken; nvidia.com/v1alpha1, Kind=DynamoGraphDeployment): .spec.services.Frontend.replicas: expected numeric (int or float), got string",
    );
    expect(await isGone(() => getDgd('broken'))).toBe(true);
    expect((await getMd('broken')).status).not.toHaveProperty('endpoint');
    expect(await isGone(() => getDgd('llama'))).toBe(false);
  });

  it('reports a server error (500 from the missing conversion webhook) as retrying, not as a failed deployment', async () => {
    await createModelDeploymentAsCore(
      client,
      { namespace: NS, name: 'beta' },
      spec(),
      BETA_ONLY,
    );
    await until(
      'Pending with the server error',
      'beta',
      md =>
        md.status?.phase === 'Pending' &&
        md.status.message !== undefined &&
        md.status.message !== '',
    );
    const md = await getMd('beta');
    expect(md.status!.message).toMatch(
      /^Applying DynamoGraphDeployment 'beta' failed, retrying: 500: conversion webhook for nvidia.com\/v1beta1, Kind=DynamoGraphDeployment failed: .*not found$/,
    );
    expect(conditionOf(md, 'ResourceCreated')).toMatchObject({
      status: 'False',
      reason: 'ApplyFailed',
    });
    expect(await isGone(() => getDgd('beta'))).toBe(true);
  });

  it('cleans up a paused deployment that is deleted: deletion wins over the pause', async () => {
    await createMd('paused', spec());
    await until('Running', 'paused', md => md.status?.phase === 'Running');
    await client.patch(
      ModelDeployments,
      { namespace: NS, name: 'paused' },
      { metadata: { annotations: { [RECONCILE_PAUSED_ANNOTATION]: 'true' } } },
      'merge',
    );
    await client.delete(ModelDeployments, { namespace: NS, name: 'paused' });
    await waitFor(
      'the paused deployment and its DynamoGraphDeployment gone',
      async () =>
        (await isGone(() => getMd('paused'))) && isGone(() => getDgd('paused')),
      {
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    );
  });

  it('registers as not ready, saying why, while its upstream CRD is not installed at a supported version', async () => {
    const missing: ProviderDefinition = {
      ...definition,
      name: 'nocrd',
      registration: {
        ...DYNAMO_PROVIDER,
        metadata: { ...DYNAMO_PROVIDER.metadata, name: 'nocrd' },
      },
      // The cluster serves DGD v1alpha1 only; this provider supports only a version that does not exist.
      upstream: { ...definition.upstream, versions: ['v9'] },
    };
    const noCrd = await startProviderForTest(client, missing, {
      heartbeatIntervalMs: 1000,
    });
    try {
      await waitFor(
        'a registration with a heartbeat',
        async () =>
          Boolean(
            (
              await getProviderConfig(client, 'nocrd')
            ).status?.lastHeartbeat,
          ),
        {
          timeoutMs: 30_000,
          intervalMs: 250,
        },
      );
      const ipc = await getProviderConfig(client, 'nocrd');
      expect(ipc.status.ready).toBe(false);
      expect(ipc.status.upstreamCRDVersion).toBeUndefined();
      expect(ipc.status.conditions).toEqual([
        expect.objectContaining({
          type: 'Ready',
          status: 'False',
          reason: 'CRDNotInstalled',
          message:
            'Upstream CRD dynamographdeployments.nvidia.com is not installed at a supported version (nvidia.com/v9): install its operator',
        }),
      ]);
      // The provider with a supported version is ready.
      expect((await getProviderConfig(client, PROVIDER)).status).toMatchObject({
        ready: true,
        conditions: [
          expect.objectContaining({ type: 'Ready', status: 'True' }),
        ],
      });
    } finally {
      await noCrd.stop();
    }
  });

  it("lets llm-d's ServiceAccount write Deployments, ServiceAccounts, Roles and RoleBindings only as Runway's own objects, never in kube-system (its admission policy)", async () => {
    const asLlmd = new KubeClient(
      (await installForTest(cluster, 'llmd', client)).kubeConfig,
    );
    const ServiceAccounts = {
      group: '',
      version: 'v1',
      plural: 'serviceaccounts',
      kind: 'ServiceAccount',
      namespaced: true,
    };
    try {
      await createMd('owner', spec());
      const owner = await getMd('owner');
      const labels = { 'airunway.ai/managed-by': 'airunway' };
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
        asLlmd.create(ServiceAccounts, {
          metadata: { name, namespace, ...metadata },
        });
      // The API server reads a new policy a moment after it is stored.
      await waitFor(
        'the policy in force',
        () =>
          sa('kube-system', 'escalate', { labels }).then(
            () => false,
            err =>
              /may not write .* in kube-system/.test((err as Error).message),
          ),
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      await expect(sa(NS, 'unlabelled', { ownerReferences })).rejects.toThrow(
        /may write only objects labelled airunway\.ai\/managed-by=airunway/,
      );
      await expect(sa(NS, 'orphan', { labels })).rejects.toThrow(
        /may write only objects controlled by a ModelDeployment/,
      );
      await expect(
        sa(NS, 'owner-epp', { labels, ownerReferences }),
      ).resolves.toBeDefined();
    } finally {
      asLlmd.close();
    }
  });
});

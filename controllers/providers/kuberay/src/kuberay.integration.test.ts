/**
 * The KubeRay provider against a real API server with KubeRay's real
 * RayService CRD. The test moves the RayService status the way KubeRay's
 * operator does (the Ready condition and the active cluster's worker
 * counts) and plays the core's part (status.provider.name). The cluster
 * starts without the RayService CRD so the provider's report of its absence
 * is tested before the CRD is installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  Applier,
  Events,
  KubeClient,
  type KubeObject,
  Namespaces,
  PersistentVolumeClaims,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  waitFor,
} from '@runway-portal/e2e-cluster';
import {
  engineCapabilities,
  KUBERAY_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  desiredObjects,
  ModelDeployments,
  resolveDeployment,
} from '@runway-portal/provider-shared';
import { eventsAbout } from '@runway-portal/e2e-testing';
import {
  type RunningProvider,
  conditionOf as condition,
  getProviderConfig,
  isGone as gone,
  modelDeploymentTestHelpers,
  startProviderAsServiceAccount,
  startProviderForTest,
  statusOwners,
} from '@runway-portal/provider-shared/testing';
import { parse } from 'yaml';
import { kuberayProvider } from './definition';
import { transformKubeRay } from './transform';

jest.setTimeout(180_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
/** `../shared` next to the repository root (see the project README). */
const UPSTREAM_CRDS = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds',
);
const RAYSERVICE_CRD = path.join(
  UPSTREAM_CRDS,
  'kuberay-ray.io_rayservices.yaml',
);
const NS = 'kuberay-test';
const FINALIZER_TIMEOUT_MS = 3000;
const RayServices = {
  group: 'ray.io',
  version: 'v1',
  plural: 'rayservices',
  kind: 'RayService',
  namespaced: true,
};

describe('KubeRay provider against a real cluster', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let running: RunningProvider;
  let providerClient: KubeClient;

  const { getMd, createMd, patchSpec } = modelDeploymentTestHelpers(
    () => client,
    'kuberay',
    NS,
  );
  const getRs = (name: string) =>
    client.get<KubeObject & { spec: any; status?: any }>(RayServices, {
      namespace: NS,
      name,
    });
  const until = (
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = 30_000,
  ) => waitFor(what, check, { timeoutMs, intervalMs: 200 });
  const workerReplicas = async (name: string) =>
    (await getRs(name)).spec.rayClusterConfig.workerGroupSpecs[0].replicas;

  /** What KubeRay's operator writes: the Ready condition and the active cluster's worker counts. */
  async function setReady(
    name: string,
    status: 'True' | 'False',
    reason: string,
    message = '',
  ): Promise<void> {
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    await client.patch(
      RayServices,
      { namespace: NS, name },
      {
        status: {
          conditions: [
            { type: 'Ready', status, reason, message, lastTransitionTime: now },
          ],
          activeServiceStatus: {
            rayClusterName: `${name}-abc12`,
            rayClusterStatus: {
              readyWorkerReplicas: status === 'True' ? 2 : 0,
              availableWorkerReplicas: status === 'True' ? 2 : 0,
            },
          },
          numServeEndpoints: status === 'True' ? 1 : 0,
        },
      },
      'merge',
      { subresource: 'status' },
    );
  }

  beforeAll(async () => {
    // The RayService CRD comes later: the provider must report its absence first.
    cluster = await startCluster({
      name: 'provider-kuberay',
      crds: [RUNWAY_CRDS],
    });
    client = new KubeClient(cluster.kubeConfig());
    await client.create(Namespaces, { metadata: { name: NS } });
    // The provider runs as its ServiceAccount, installed by the runway CLI, not as admin.
    ({ providerClient, running } = await startProviderAsServiceAccount(
      cluster,
      client,
      kuberayProvider,
      {
        finalizerTimeoutMs: FINALIZER_TIMEOUT_MS,
        heartbeatIntervalMs: 1000,
      },
    ));
  });

  afterAll(async () => {
    await running?.stop();
    providerClient?.close();
    client?.close();
    await cluster?.stop();
  });

  it('registers as never auto-selected (registration and heartbeat: the conformance suite)', async () => {
    // KubeRay is never auto-selected (seed 000 section 2.4).
    await until(
      'registration',
      async () =>
        !!(await getProviderConfig(client, 'kuberay').catch(() => undefined)),
    );
    const ipc = await getProviderConfig(client, 'kuberay');
    expect(ipc.spec.selectionRules ?? []).toEqual([]);
  });

  it('reports the missing CRD, then creates the RayService once KubeRay is installed', async () => {
    const spec = parse(
      fs.readFileSync(
        path.join(__dirname, 'testdata/llama-modeldeployment.yaml'),
        'utf8',
      ),
    ).spec;
    await createMd('qwen-ray', spec);
    await until('CRD not installed status', async () => {
      const md = await getMd('qwen-ray');
      return (
        md.status?.phase === 'Pending' &&
        md.status.message === "Provider 'kuberay' CRD not installed in cluster"
      );
    });
    expect(await gone(() => getRs('qwen-ray'))).toBe(true);
    await cluster.installCrds([RAYSERVICE_CRD]);
    await until(
      'RayService created',
      async () => !(await gone(() => getRs('qwen-ray'))),
    );
    await until(
      'detected RayService version',
      async () =>
        (
          await getProviderConfig(client, 'kuberay')
        ).status?.upstreamCRDVersion === 'ray.io/v1',
    );
  });

  it('creates a RayService the API server accepts under the real schema', async () => {
    const rs = await getRs('qwen-ray');
    const expected = parse(
      fs.readFileSync(
        path.join(__dirname, 'testdata/llama-rayservice.yaml'),
        'utf8',
      ),
    );
    // The real schema adds its defaults (e.g. ports' protocol: TCP); everything we wrote is there unchanged.
    expect(rs.spec.rayClusterConfig).toMatchObject(
      expected.spec.rayClusterConfig,
    );
    expect(
      rs.spec.rayClusterConfig.headGroupSpec.template.spec.containers[0]
        .ports[0],
    ).toEqual({ containerPort: 6379, name: 'gcs', protocol: 'TCP' });
    expect(parse(rs.spec.serveConfigV2)).toEqual(
      parse(expected.spec.serveConfigV2),
    );
    await until('Deploying with ResourceCreated', async () => {
      const md = await getMd('qwen-ray');
      return (
        md.status?.phase === 'Deploying' &&
        condition(md, 'ResourceCreated')?.status === 'True'
      );
    });
  });

  it('creates a disaggregated RayService the API server accepts under the real schema, no field dropped', async () => {
    const spec = {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      engine: { type: 'vllm' as const },
      serving: { mode: 'disaggregated' as const },
      scaling: {
        prefill: { replicas: 2, gpu: { count: 4 }, memory: '128Gi' },
        decode: { replicas: 3, gpu: { count: 2 }, memory: '64Gi' },
      },
      secrets: { huggingFaceToken: 'hf-token' },
    };
    await createMd('llama-pd', spec);
    await until(
      'disaggregated RayService',
      async () => !(await gone(() => getRs('llama-pd'))),
    );
    const live = await getRs('llama-pd');
    const built = transformKubeRay(
      resolveDeployment({
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: 'llama-pd', namespace: NS },
        spec,
      }),
      { apiVersion: 'ray.io/v1' },
    ).objects[0] as any;
    // The real schema adds defaults (ports' protocol); everything the provider wrote is kept.
    expect(live.spec.rayClusterConfig).toMatchObject(
      built.spec.rayClusterConfig,
    );
    expect(parse(live.spec.serveConfigV2)).toEqual(
      parse(built.spec.serveConfigV2),
    );
    const groups = live.spec.rayClusterConfig.workerGroupSpecs;
    expect(
      groups.map((g: any) => [
        g.groupName,
        g.replicas,
        String(
          g.template.spec.containers[0].resources.limits['nvidia.com/gpu'],
        ),
      ]),
    ).toEqual([
      ['prefill-workers', 2, '4'],
      ['decode-workers', 3, '2'],
    ]);
    const args = parse(live.spec.serveConfigV2).applications[0].args;
    expect(Object.keys(args).sort()).toEqual([
      'decode_config',
      'prefill_config',
    ]);
    expect(args.prefill_config.engine_kwargs.kv_transfer_config).toEqual({
      kv_connector: 'NixlConnector',
      kv_role: 'kv_both',
    });
    expect(args.decode_config.engine_kwargs.kv_transfer_config).toEqual({
      kv_connector: 'NixlConnector',
      kv_role: 'kv_both',
    });
    await client.delete(ModelDeployments, { namespace: NS, name: 'llama-pd' });
    await until(
      'disaggregated RayService and deployment gone',
      async () =>
        (await gone(() => getRs('llama-pd'))) &&
        (await gone(() => getMd('llama-pd'))),
    );
  });

  it('writes every engine and serving mode as the real schema accepts, no field dropped (server-side dry run)', async () => {
    const matrix = engineCapabilities(KUBERAY_PROVIDER).flatMap(e =>
      (e.servingModes ?? ['aggregated']).flatMap(mode =>
        [undefined, 'my-llm'].map(servedName => ({
          engine: e.name,
          mode,
          servedName,
        })),
      ),
    );
    expect(matrix).toHaveLength(4);
    const applier = new Applier(client, 'dry-run-test');
    for (const entry of matrix) {
      const md: ModelDeployment = {
        metadata: {
          name: `dry-${entry.mode}`,
          namespace: NS,
          uid: '00000000-0000-0000-0000-00000000d1a0',
        },
        spec: {
          model: {
            id: 'Qwen/Qwen2.5-7B-Instruct',
            ...(entry.servedName ? { servedName: entry.servedName } : {}),
          },
          engine: { type: entry.engine as 'vllm' },
          serving: { mode: entry.mode },
          ...(entry.mode === 'disaggregated'
            ? {
                scaling: {
                  prefill: { replicas: 1, gpu: { count: 1 } },
                  decode: { replicas: 2, gpu: { count: 2 } },
                },
              }
            : { resources: { gpu: { count: 1 }, memory: '32Gi' } }),
        },
        status: { provider: { name: 'kuberay' } },
      };
      for (const obj of desiredObjects(kuberayProvider, md, {
        apiVersion: 'ray.io/v1',
      }).objects) {
        const stored = await applier.apply<KubeObject>(obj, {
          dryRun: true,
          force: true,
        });
        const { metadata, ...body } = obj;
        expect({ case: entry, stored }).toMatchObject({
          case: entry,
          stored: body,
        });
      }
    }
  });

  it('mounts storage volumes in a RayService the API server accepts, no field dropped, and manages the sized claim', async () => {
    const md = parse(
      fs.readFileSync(
        path.join(__dirname, 'testdata/storage-modeldeployment.yaml'),
        'utf8',
      ),
    );
    await createMd('qwen-ray-storage', md.spec);
    await until(
      'storage RayService',
      async () => !(await gone(() => getRs('qwen-ray-storage'))),
    );
    const built = transformKubeRay(
      resolveDeployment({
        ...md,
        metadata: { name: 'qwen-ray-storage', namespace: NS },
      }),
      { apiVersion: 'ray.io/v1' },
    ).objects[0] as any;
    const podSpecs = (rs: any) =>
      [
        rs.spec.rayClusterConfig.headGroupSpec,
        ...rs.spec.rayClusterConfig.workerGroupSpecs,
      ].map((g: any) => g.template.spec);
    const live = podSpecs(await getRs('qwen-ray-storage'));
    const wanted = podSpecs(built);
    expect(live).toHaveLength(2);
    for (const [i, pod] of live.entries()) {
      expect(pod.volumes).toEqual(wanted[i].volumes);
      expect(pod.containers[0].volumeMounts).toEqual(
        wanted[i].containers[0].volumeMounts,
      );
      expect(pod.containers[0].env).toEqual(wanted[i].containers[0].env);
    }
    expect(live[1].volumes[2]).toEqual({
      name: 'datasets',
      persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
    });
    expect(live[1].containers[0].env).toContainEqual({
      name: 'HF_HOME',
      value: '/model-cache',
    });

    // The compilation cache has a size: the provider creates its claim, owned by the deployment; the others name existing claims.
    const getClaim = (name: string) =>
      client.get<KubeObject & { spec: any }>(PersistentVolumeClaims, {
        namespace: NS,
        name,
      });
    const claim = await getClaim('qwen-ray-storage-compile');
    const owner = await getMd('qwen-ray-storage');
    expect(claim.spec).toMatchObject({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '50Gi' } },
    });
    expect(claim.metadata!.ownerReferences).toEqual([
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'qwen-ray-storage',
        uid: owner.metadata!.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(await gone(() => getClaim('pvc-claim'))).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'qwen-ray-storage',
    });
    await until(
      'storage RayService, claim and deployment gone',
      async () =>
        (await gone(() => getRs('qwen-ray-storage'))) &&
        (await gone(() => getClaim('qwen-ray-storage-compile'))) &&
        (await gone(() => getMd('qwen-ray-storage'))),
    );
  });

  it('becomes Running from the Ready condition, with status owned per seed 001', async () => {
    await setReady(
      'qwen-ray',
      'False',
      'Initializing',
      'waiting for the Ray cluster',
    );
    await until(
      'Deploying with the message',
      async () =>
        (await getMd('qwen-ray')).status?.message ===
        'waiting for the Ray cluster',
    );
    await setReady('qwen-ray', 'True', 'NonZeroServeEndpoints');
    await until(
      'Running',
      async () => (await getMd('qwen-ray')).status?.phase === 'Running',
    );
    const md = await getMd('qwen-ray');
    expect(md.status).toMatchObject({
      provider: {
        name: 'kuberay',
        resourceName: 'qwen-ray',
        resourceKind: 'RayService',
      },
      endpoint: { service: 'qwen-ray-serve-svc', port: 8000 },
      replicas: { desired: 2, ready: 2, available: 2 },
    });
    const owners = statusOwners(md);
    for (const field of [
      'phase',
      'replicas',
      'endpoint',
      'provider.resourceName',
      'conditions[ProviderCompatible]',
      'conditions[ResourceCreated]',
      'conditions[Ready]',
    ]) {
      expect([field, owners[field]]).toEqual([
        field,
        ['airunway-provider-kuberay'],
      ]);
    }
    expect(owners['provider.name']).toEqual(['airunway-core']);
  });

  it('maps a timed-out RayService to Failed with the Serve application message', async () => {
    await setReady(
      'qwen-ray',
      'False',
      'InitializingTimeout',
      'RayService did not become ready in time',
    );
    await client.patch(
      RayServices,
      { namespace: NS, name: 'qwen-ray' },
      {
        status: {
          activeServiceStatus: {
            applicationStatuses: {
              llm: { status: 'DEPLOY_FAILED', message: 'CUDA out of memory' },
            },
          },
        },
      },
      'merge',
      { subresource: 'status' },
    );
    await until(
      'Failed',
      async () =>
        (await getMd('qwen-ray')).status?.message ===
        'RayService did not become ready in time; llm: CUDA out of memory',
    );
    expect((await getMd('qwen-ray')).status?.phase).toBe('Failed');
    await until('ProviderError event', async () =>
      (
        await eventsAbout(client, NS, 'qwen-ray')
      ).some(e =>
        e.startsWith(
          'Warning/ProviderError: Provider resource in error state: RayService did not become ready',
        ),
      ),
    );
    await client.patch(
      RayServices,
      { namespace: NS, name: 'qwen-ray' },
      { status: { activeServiceStatus: { applicationStatuses: null } } },
      'merge',
      { subresource: 'status' },
    );
    await setReady('qwen-ray', 'True', 'NonZeroServeEndpoints');
    await until(
      'Running again',
      async () => (await getMd('qwen-ray')).status?.phase === 'Running',
    );
  });

  it('scales in place and corrects drift', async () => {
    const uid = (await getRs('qwen-ray')).metadata!.uid;
    await patchSpec('qwen-ray', { scaling: { replicas: 3 } });
    await until(
      '3 workers',
      async () => (await workerReplicas('qwen-ray')) === 3,
    );
    expect((await getRs('qwen-ray')).metadata!.uid).toBe(uid);
    const groups = (await getRs('qwen-ray')).spec.rayClusterConfig
      .workerGroupSpecs;
    groups[0].replicas = 9;
    await client.patch(
      RayServices,
      { namespace: NS, name: 'qwen-ray' },
      { spec: { rayClusterConfig: { workerGroupSpecs: groups } } },
      'merge',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'drift corrected',
      async () => (await workerReplicas('qwen-ray')) === 3,
    );
    await until('DriftDetected', async () =>
      (
        await eventsAbout(client, NS, 'qwen-ray')
      ).some(e => e.startsWith('Warning/DriftDetected')),
    );
    expect(await workerReplicas('qwen-ray')).toBe(3);
  });

  it('restarts without recreating, drift warnings or write storms', async () => {
    /** How many times each reason was recorded (aggregated events carry a count). */
    const reasonCounts = async () => {
      const list = await client.list<
        KubeObject & { reason?: string; count?: number }
      >(Events, {
        namespace: NS,
        fieldSelector: 'involvedObject.name=qwen-ray',
      });
      const counts: Record<string, number> = {};
      for (const e of list.items)
        counts[e.reason!] = (counts[e.reason!] ?? 0) + (e.count ?? 1);
      return counts;
    };
    const before = await reasonCounts();
    const rs = await getRs('qwen-ray');
    await running.stop();
    running = await startProviderForTest(providerClient, kuberayProvider, {
      finalizerTimeoutMs: FINALIZER_TIMEOUT_MS,
      heartbeatIntervalMs: 1000,
    });
    await new Promise(r => setTimeout(r, 2000));
    const after = await getRs('qwen-ray');
    expect(after.metadata!.uid).toBe(rs.metadata!.uid);
    expect(after.metadata!.resourceVersion).toBe(rs.metadata!.resourceVersion);
    const counts = await reasonCounts();
    expect([counts.ResourceCreated, counts.DriftDetected]).toEqual([
      before.ResourceCreated,
      before.DriftDetected,
    ]);
  });

  it('fails a wrongly typed override and warns about unknown ones, keeping the RayService', async () => {
    await patchSpec('qwen-ray', {
      provider: { overrides: { head: { resources: { cpu: 4 } }, tail: 'x' } },
    });
    await until('Failed on the override', async () => {
      const md = await getMd('qwen-ray');
      return (
        md.status?.phase === 'Failed' &&
        md.status.message ===
          'spec.provider.overrides.head.resources.cpu must be a string, got a number: fix the value in spec.provider.overrides'
      );
    });
    expect(
      (await eventsAbout(client, NS, 'qwen-ray')).some(e =>
        e.includes('Unknown override key spec.provider.overrides.tail'),
      ),
    ).toBe(true);
    expect(await gone(() => getRs('qwen-ray'))).toBe(false);
    await patchSpec('qwen-ray', {
      provider: {
        overrides: { head: { resources: { cpu: '3' } }, tail: null },
      },
    });
    await until(
      'head cpu 3',
      async () =>
        (
          await getRs('qwen-ray')
        ).spec.rayClusterConfig.headGroupSpec.template.spec.containers[0]
          .resources.requests.cpu === '3',
    );
  });

  it('recreates the RayService when the model changes', async () => {
    const uid = (await getRs('qwen-ray')).metadata!.uid;
    await patchSpec('qwen-ray', {
      model: { id: 'Qwen/Qwen2.5-14B-Instruct', servedName: null },
    });
    await until('new RayService', async () => {
      const rs = await getRs('qwen-ray').catch(() => undefined);
      return !!rs && rs.metadata!.uid !== uid;
    });
    expect(
      parse((await getRs('qwen-ray')).spec.serveConfigV2).applications[0].args
        .llm_configs[0].model_loading_config,
    ).toEqual({
      model_id: 'Qwen2.5-14B-Instruct',
      model_source: 'Qwen/Qwen2.5-14B-Instruct',
    });
    expect(
      (await eventsAbout(client, NS, 'qwen-ray')).some(e =>
        e.startsWith('Warning/IdentityChanged'),
      ),
    ).toBe(true);
  });

  it('reports incompatible configurations with the seed messages', async () => {
    await createMd('llamacpp-on-ray', {
      model: { id: 'org/m' },
      engine: { type: 'llamacpp' },
      resources: { gpu: { count: 1 } },
    });
    // No engine and no GPU (the CRD itself rejects vLLM without GPUs): the provider's own GPU rule applies.
    await createMd('cpu-on-ray', { model: { id: 'org/m' } });
    await until(
      'llamacpp rejected',
      async () =>
        condition(await getMd('llamacpp-on-ray'), 'ProviderCompatible')
          ?.message === 'KubeRay does not support llamacpp engine',
    );
    await until('CPU rejected', async () => {
      const md = await getMd('cpu-on-ray');
      return (
        md.status?.phase === 'Failed' &&
        (condition(md, 'ProviderCompatible')?.message ?? '').startsWith(
          'KubeRay requires GPU',
        )
      );
    });
    expect(await gone(() => getRs('llamacpp-on-ray'))).toBe(true);
    expect(await gone(() => getRs('cpu-on-ray'))).toBe(true);
  });
});

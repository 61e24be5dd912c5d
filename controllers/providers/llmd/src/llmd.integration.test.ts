/**
 * The llm-d provider against a real cluster with the real Gateway API
 * Inference Extension InferencePool CRD. Nothing is faked: Kubernetes'
 * Deployment controller and kwok's simulated GPU nodes move the model-server
 * Deployments to Available, or to ReplicaFailure under a quota.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  Applier,
  Deployments,
  KubeClient,
  type KubeObject,
  Namespaces,
  type ResourceType,
  Services,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  waitFor,
} from '@runway-portal/e2e-cluster';
import {
  engineCapabilities,
  LLMD_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  desiredObjects,
  ModelDeployments,
  resolveDeployment,
} from '@runway-portal/provider-shared';
import {
  type RunningProvider,
  conditionOf as condition,
  getProviderConfig,
  isGone as gone,
  modelDeploymentTestHelpers,
  startProviderAsServiceAccount,
  statusOwners,
} from '@runway-portal/provider-shared/testing';
import YAML from 'yaml';
import { llmdProvider } from './definition';
import { LLMD_EXTRA_KINDS, buildLlmdObjects } from './transform';

jest.setTimeout(180_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
const POOL_CRD = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
);
const NS = 'llmd-test';
const QUOTA_NS = 'llmd-quota';
const FINALIZER_TIMEOUT_MS = 3000;

const InferencePools = {
  group: 'inference.networking.k8s.io',
  version: 'v1',
  plural: 'inferencepools',
  kind: 'InferencePool',
  namespaced: true,
};
const ResourceQuotas = {
  group: '',
  version: 'v1',
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
};

type Obj = KubeObject & {
  spec?: any;
  status?: any;
  rules?: any;
  roleRef?: any;
  subjects?: any;
  data?: any;
};

const kindOf = (kind: string): ResourceType =>
  LLMD_EXTRA_KINDS.find(k => k.kind === kind)!;
/** Everything but metadata and status: what the provider wrote. */
const body = ({ metadata: _m, status: _s, ...rest }: Obj) => rest;

const sample = (mode: string): ModelDeployment['spec'] =>
  YAML.parse(
    fs.readFileSync(
      path.join(__dirname, 'testdata', `${mode}.modeldeployment.yaml`),
      'utf8',
    ),
  ).spec;
const sampleDeployment = (mode: string): ModelDeployment =>
  YAML.parse(
    fs.readFileSync(
      path.join(__dirname, 'testdata', `${mode}.modeldeployment.yaml`),
      'utf8',
    ),
  );
const golden = (mode: string): Obj[] =>
  YAML.parseAllDocuments(
    fs.readFileSync(
      path.join(__dirname, 'testdata', `${mode}.objects.yaml`),
      'utf8',
    ),
  ).map(d => d.toJSON());

describe('llm-d provider against a real cluster', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let running: RunningProvider;
  let providerClient: KubeClient;

  const { getMd, createMd, patchSpec, events, eventRecorded } =
    modelDeploymentTestHelpers(() => client, 'llmd', NS);
  const getDeployment = (name: string, ns = NS) =>
    client.get<Obj>(Deployments, { namespace: ns, name });
  const getPool = (name: string) =>
    client.get<Obj>(InferencePools, { namespace: NS, name });
  const getOfKind = (kind: string, name: string) =>
    client.get<Obj>(kindOf(kind), { namespace: NS, name });
  const goneOfKind = (kind: string, name: string) =>
    gone(() => getOfKind(kind, name));
  const EPP_KINDS = [
    'Deployment',
    'Service',
    'ConfigMap',
    'ServiceAccount',
    'Role',
    'RoleBinding',
  ];
  const until = (
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = 60_000,
  ) => waitFor(what, check, { timeoutMs, intervalMs: 250 });

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'provider-llmd',
      nodes: [
        { name: 'gpu-0', gpus: 16, cpu: '128', memory: '1Ti' },
        { name: 'cpu-0' },
      ],
      crds: [RUNWAY_CRDS],
    });
    client = new KubeClient(cluster.kubeConfig());
    for (const name of [NS, QUOTA_NS])
      await client.create(Namespaces, { metadata: { name } });
    // The provider runs as its ServiceAccount (installed by the runway CLI), with only the rules of its install manifests.
    ({ providerClient, running } = await startProviderAsServiceAccount(
      cluster,
      client,
      llmdProvider,
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

  it('reports the missing InferencePool CRD, then deploys once it is installed', async () => {
    await createMd('llama-8b-llmd', sample('aggregated'), {
      'airunway.ai/team': 'ml',
    });
    await until('CRD not installed status', async () => {
      const md = await getMd('llama-8b-llmd');
      return (
        md.status?.phase === 'Pending' &&
        md.status.message === "Provider 'llmd' CRD not installed in cluster"
      );
    });
    await cluster.installCrds([POOL_CRD]);
    await until(
      'InferencePool created',
      async () => !(await gone(() => getPool('llama-8b-llmd'))),
    );
    const ipc = await getProviderConfig(client, 'llmd');
    expect(ipc.status.upstreamCRDVersion).toBe(
      'inference.networking.k8s.io/v1',
    );
  });

  it('creates what the API server accepts: InferencePool, Deployment and Service, owned and labelled', async () => {
    await until(
      'Deployment and Service',
      async () =>
        !(await gone(() => getDeployment('llama-8b-llmd-decode'))) &&
        !(await gone(() =>
          client.get(Services, { namespace: NS, name: 'llama-8b-llmd' }),
        )),
    );
    const md = await getMd('llama-8b-llmd');
    const [pool, deployment, service] = golden('aggregated');
    const live: Obj[] = [
      await getPool('llama-8b-llmd'),
      await getDeployment('llama-8b-llmd-decode'),
      await client.get<Obj>(Services, { namespace: NS, name: 'llama-8b-llmd' }),
    ];
    expect(live[0].spec).toMatchObject(pool.spec);
    expect(live[1].spec).toMatchObject(deployment.spec);
    expect(live[2].spec).toMatchObject(service.spec);
    for (const obj of live) {
      expect(obj.metadata!.labels).toEqual({
        'airunway.ai/team': 'ml',
        'airunway.ai/managed-by': 'airunway',
      });
      expect(obj.metadata!.ownerReferences).toEqual([
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          name: 'llama-8b-llmd',
          uid: md.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(md.metadata!.finalizers).toContain('airunway.ai/provider-llmd');
    await eventRecorded(
      'llama-8b-llmd',
      "Normal/ResourceCreated: Created InferencePool 'llama-8b-llmd'",
    );
  });

  it("runs the pool's endpoint picker: its objects accepted by the API server as built, owned by the deployment", async () => {
    const md = await getMd('llama-8b-llmd');
    const built = (buildLlmdObjects(resolveDeployment(md)) as Obj[]).filter(
      o => o.metadata!.name === 'llama-8b-llmd-epp',
    );
    expect(built.map(o => o.kind)).toEqual([
      'ServiceAccount',
      'Role',
      'RoleBinding',
      'ConfigMap',
      'Deployment',
      'Service',
    ]);
    await until('endpoint picker objects', async () => {
      for (const o of built)
        if (await goneOfKind(o.kind!, 'llama-8b-llmd-epp')) return false;
      return true;
    });
    for (const o of built) {
      const live = await getOfKind(o.kind!, 'llama-8b-llmd-epp');
      // The API server keeps every field written (its defaults come on top).
      expect([o.kind, body(live)]).toMatchObject([o.kind, body(o)]);
      expect(live.metadata!.ownerReferences).toEqual([
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          name: 'llama-8b-llmd',
          uid: md.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(live.metadata!.labels).toMatchObject({
        'airunway.ai/managed-by': 'airunway',
        'app.kubernetes.io/managed-by': 'airunway-provider-llmd',
      });
    }
    expect(
      (await getPool('llama-8b-llmd')).spec.endpointPickerRef,
    ).toMatchObject({ name: 'llama-8b-llmd-epp', port: { number: 9002 } });
    const epp = await getDeployment('llama-8b-llmd-epp');
    expect(epp.spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining([
        '--pool-name',
        'llama-8b-llmd',
        '--pool-namespace',
        NS,
      ]),
    );
    // The Deployment controller, scheduler and kwok run the picker's pod as its ServiceAccount.
    await until(
      'endpoint picker available',
      async () =>
        (await getDeployment('llama-8b-llmd-epp')).status?.availableReplicas ===
        1,
    );
  });

  it('becomes Running when the Deployment controller and kwok make the model servers Available', async () => {
    await until(
      'Running',
      async () => (await getMd('llama-8b-llmd')).status?.phase === 'Running',
    );
    const md = await getMd('llama-8b-llmd');
    expect(md.status).toMatchObject({
      phase: 'Running',
      message: 'All replicas are ready',
      provider: {
        name: 'llmd',
        resourceName: 'llama-8b-llmd',
        resourceKind: 'InferencePool',
      },
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'llama-8b-llmd', port: 8000 },
    });
    expect(condition(md, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'DeploymentReady',
    });
    expect(condition(md, 'ResourceCreated')?.status).toBe('True');
    const owners = statusOwners(md);
    for (const field of [
      'phase',
      'message',
      'replicas',
      'endpoint',
      'provider.resourceName',
      'provider.resourceKind',
      'conditions[ProviderCompatible]',
      'conditions[ResourceCreated]',
      'conditions[Ready]',
    ]) {
      expect([field, owners[field]]).toEqual([
        field,
        ['airunway-provider-llmd'],
      ]);
    }
    expect(owners['provider.name']).toEqual(['airunway-core']);
  });

  it('runs disaggregated prefill and decode model servers to Running', async () => {
    const spec = sample('disaggregated');
    // The upstream sample asks for 8 GPUs of 24-96Gi; smaller here so both fit next to the other tests.
    spec.scaling = {
      prefill: { replicas: 2, gpu: { count: 1 }, memory: '16Gi' },
      decode: { replicas: 1, gpu: { count: 2 }, memory: '32Gi' },
    };
    await createMd('llama-70b-llmd-pd', spec);
    await until(
      'Running',
      async () =>
        (await getMd('llama-70b-llmd-pd')).status?.phase === 'Running',
      90_000,
    );
    expect((await getMd('llama-70b-llmd-pd')).status?.replicas).toEqual({
      desired: 3,
      ready: 3,
      available: 3,
    });
    const decode = await getDeployment('llama-70b-llmd-pd-decode');
    expect(decode.spec.template.spec.initContainers[0]).toMatchObject({
      name: 'routing-proxy',
      restartPolicy: 'Always',
    });
    const prefill = await getDeployment('llama-70b-llmd-pd-prefill');
    expect(prefill.spec.template.metadata.labels['llm-d.ai/role']).toBe(
      'prefill',
    );
  });

  it('writes every engine and serving mode as the real schemas accept, no field dropped (server-side dry run)', async () => {
    const matrix = engineCapabilities(LLMD_PROVIDER).flatMap(e =>
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
        status: { provider: { name: 'llmd' } },
      };
      const { objects } = desiredObjects(llmdProvider, md, {
        apiVersion: 'inference.networking.k8s.io/v1',
      });
      for (const obj of objects) {
        const stored = await applier.apply<Obj>(obj, {
          dryRun: true,
          force: true,
        });
        expect({ case: entry, kind: obj.kind, stored }).toMatchObject({
          case: entry,
          kind: obj.kind,
          stored: body(obj),
        });
      }
    }
  });

  it('mounts storage volumes in a Deployment the API server accepts without dropping a field', async () => {
    const md = sampleDeployment('storage');
    await createMd('qwen-storage', md.spec);
    await until(
      'decode Deployment',
      async () => !(await gone(() => getDeployment('qwen-storage-decode'))),
    );
    const built = buildLlmdObjects(resolveDeployment(md)).find(
      o => o.kind === 'Deployment',
    ) as Obj;
    const live = (await getDeployment('qwen-storage-decode')).spec.template
      .spec;
    expect(live.volumes).toEqual(built.spec.template.spec.volumes);
    expect(live.containers[0].volumeMounts).toEqual(
      built.spec.template.spec.containers[0].volumeMounts,
    );
    expect(live.containers[0].env).toEqual(
      built.spec.template.spec.containers[0].env,
    );
    expect(live.volumes).toEqual([
      {
        name: 'model-cache',
        persistentVolumeClaim: { claimName: 'pvc-claim' },
      },
      {
        name: 'compile',
        persistentVolumeClaim: { claimName: 'qwen-storage-compile' },
      },
      {
        name: 'datasets',
        persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
      },
    ]);
    // The compilation cache has a size: the provider creates its claim, owned by the deployment.
    const claim = await getOfKind(
      'PersistentVolumeClaim',
      'qwen-storage-compile',
    );
    expect(claim.spec).toMatchObject({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '50Gi' } },
    });
    expect(claim.metadata!.ownerReferences?.[0]).toMatchObject({
      kind: 'ModelDeployment',
      name: 'qwen-storage',
      controller: true,
    });
    expect(await goneOfKind('PersistentVolumeClaim', 'pvc-claim')).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'qwen-storage',
    });
  });

  it('scales in place (config field), keeping the same Deployment, and is Running with the new replica count', async () => {
    const before = await getDeployment('llama-8b-llmd-decode');
    await patchSpec('llama-8b-llmd', { scaling: { replicas: 3 } });
    await until(
      '3 replicas',
      async () =>
        (await getDeployment('llama-8b-llmd-decode')).spec.replicas === 3,
    );
    expect((await getDeployment('llama-8b-llmd-decode')).metadata!.uid).toBe(
      before.metadata!.uid,
    );
    await until('Running with 3', async () => {
      const md = await getMd('llama-8b-llmd');
      return (
        md.status?.phase === 'Running' && md.status.replicas?.available === 3
      );
    });
  });

  it('overwrites a direct edit of a model-server Deployment and says so', async () => {
    await client.patch(
      Deployments,
      { namespace: NS, name: 'llama-8b-llmd-decode' },
      { spec: { replicas: 1 } },
      'merge',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'replicas restored',
      async () =>
        (await getDeployment('llama-8b-llmd-decode')).spec.replicas === 3,
    );
    await until('DriftDetected event', async () =>
      (
        await events('llama-8b-llmd')
      ).some(e =>
        e.startsWith(
          "Warning/DriftDetected: Provider resource was modified directly, reconciling Deployment 'llama-8b-llmd-decode'",
        ),
      ),
    );
  });

  it('overwrites a direct edit of the endpoint picker and says so', async () => {
    await client.patch(
      Deployments,
      { namespace: NS, name: 'llama-8b-llmd-epp' },
      {
        spec: {
          template: {
            spec: {
              containers: [{ name: 'epp', image: 'example.com/other-epp:1' }],
            },
          },
        },
      },
      'strategic',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'image restored',
      async () =>
        (
          await getDeployment('llama-8b-llmd-epp')
        ).spec.template.spec.containers[0].image ===
        'ghcr.io/llm-d/llm-d-inference-scheduler:v0.4.0',
    );
    await until('DriftDetected event', async () =>
      (
        await events('llama-8b-llmd')
      ).some(e =>
        e.startsWith(
          "Warning/DriftDetected: Provider resource was modified directly, reconciling Deployment 'llama-8b-llmd-epp'",
        ),
      ),
    );
    await client.patch(
      kindOf('Role'),
      { namespace: NS, name: 'llama-8b-llmd-epp' },
      { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
      'merge',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'Role rules restored',
      async () =>
        (await getOfKind('Role', 'llama-8b-llmd-epp')).rules.length === 3,
    );
  });

  it('removes its own picker when the user names one, and runs it again when the name goes', async () => {
    const pickerGone = async () => {
      for (const kind of EPP_KINDS)
        if (!(await goneOfKind(kind, 'llama-8b-llmd-epp'))) return false;
      return true;
    };
    await patchSpec('llama-8b-llmd', {
      provider: { overrides: { endpointPicker: { name: 'shared-epp' } } },
    });
    await until(
      'pool points at the named picker',
      async () =>
        (await getPool('llama-8b-llmd')).spec.endpointPickerRef.name ===
        'shared-epp',
    );
    await until('own picker removed', pickerGone);
    await patchSpec('llama-8b-llmd', { provider: { overrides: null } });
    await until(
      'own picker back',
      async () =>
        !(await goneOfKind('Deployment', 'llama-8b-llmd-epp')) &&
        !(await goneOfKind('RoleBinding', 'llama-8b-llmd-epp')),
    );
    expect((await getPool('llama-8b-llmd')).spec.endpointPickerRef.name).toBe(
      'llama-8b-llmd-epp',
    );
  });

  it('deletes and recreates its objects when an identity field changes', async () => {
    const before = await getPool('llama-8b-llmd');
    await patchSpec('llama-8b-llmd', {
      model: { id: 'meta-llama/Llama-3.2-3B-Instruct' },
    });
    await until('new InferencePool and Deployment', async () => {
      const pool = await getPool('llama-8b-llmd').catch(() => undefined);
      const deployment = await getDeployment('llama-8b-llmd-decode').catch(
        () => undefined,
      );
      return (
        !!pool &&
        pool.metadata!.uid !== before.metadata!.uid &&
        deployment?.spec.template.spec.containers[0].args[0] ===
          'meta-llama/Llama-3.2-3B-Instruct'
      );
    });
    expect(
      (await events('llama-8b-llmd')).some(e =>
        e.startsWith(
          'Warning/IdentityChanged: Identity fields changed: deleting and recreating',
        ),
      ),
    ).toBe(true);
    await until(
      'Running again',
      async () => (await getMd('llama-8b-llmd')).status?.phase === 'Running',
      90_000,
    );
  });

  it('reports Failed with the Deployment controller message when pods cannot be created', async () => {
    await client.create(ResourceQuotas, {
      metadata: { name: 'no-pods', namespace: QUOTA_NS },
      spec: { hard: { pods: '0' } },
    });
    await createMd(
      'quota',
      {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'llmd' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 } },
      },
      undefined,
      QUOTA_NS,
    );
    await until('Failed', async () => {
      const md = await getMd('quota', QUOTA_NS);
      return (
        md.status?.phase === 'Failed' &&
        /^Deployment quota-decode: pods "quota-decode-.*" is forbidden: exceeded quota: no-pods/.test(
          md.status.message ?? '',
        )
      );
    });
    await until('ProviderError event', async () =>
      (
        await events('quota', QUOTA_NS)
      ).some(e =>
        e.startsWith(
          'Warning/ProviderError: Provider resource in error state: Deployment quota-decode',
        ),
      ),
    );
  });

  it.each([
    [
      'sglang',
      {
        model: { id: 'org/m' },
        engine: { type: 'sglang' },
        resources: { gpu: { count: 1 } },
      },
      undefined,
      'llm-d only supports vllm engine',
    ],
    // The API server refuses vLLM without a GPU in the spec; an engine resolved in status reaches the provider.
    ['no-gpu', { model: { id: 'org/m' } }, 'vllm', 'llm-d requires GPU'],
  ] as const)(
    'rejects an incompatible deployment (%s) with the seed message and creates nothing',
    async (name, spec, engine, message) => {
      await createMd(name, spec as ModelDeployment['spec']);
      if (engine) {
        await client.apply(
          ModelDeployments,
          {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { namespace: NS, name },
            status: {
              engine: { type: engine, selectedReason: 'test' },
              provider: {
                name: 'llmd',
                selectedReason: 'explicit provider selection',
              },
            },
          },
          { fieldManager: 'airunway-core', subresource: 'status', force: true },
        );
      }
      await until('ProviderCompatible False', async () => {
        const md = await getMd(name);
        return (
          md.status?.phase === 'Failed' &&
          condition(md, 'ProviderCompatible')?.message === message
        );
      });
      expect(await gone(() => getPool(name))).toBe(true);
      expect(await gone(() => getDeployment(`${name}-decode`))).toBe(true);
    },
  );

  it('warns about unknown override keys and points the pool at the named endpoint picker', async () => {
    await createMd('epp', {
      model: { id: 'org/m' },
      provider: {
        name: 'llmd',
        overrides: { endpointPicker: { name: 'shared-epp' }, routerMode: 'kv' },
      },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
    });
    await until(
      'pool with the named EPP',
      async () =>
        (
          await getPool('epp').catch(() => undefined)
        )?.spec.endpointPickerRef.name === 'shared-epp',
    );
    // The user runs that picker: the provider deploys none.
    for (const kind of EPP_KINDS)
      expect([kind, await goneOfKind(kind, 'epp-epp')]).toEqual([kind, true]);
    await until('UnknownOverride event', async () =>
      (
        await events('epp')
      ).includes(
        "Warning/UnknownOverride: Unknown override key spec.provider.overrides.routerMode is ignored by provider 'llmd'",
      ),
    );
  });

  it('deletes its objects and then the deployment', async () => {
    await client.delete(ModelDeployments, { namespace: NS, name: 'epp' });
    await until('deployment gone', async () => gone(() => getMd('epp')));
    expect(await gone(() => getPool('epp'))).toBe(true);
    await until(
      'Deployment and Service gone',
      async () =>
        (await gone(() => getDeployment('epp-decode'))) &&
        (await gone(() =>
          client.get(Services, { namespace: NS, name: 'epp' }),
        )),
    );
  });

  it('deleting the deployment removes its endpoint picker', async () => {
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'llama-8b-llmd',
    });
    await until('deployment gone', async () =>
      gone(() => getMd('llama-8b-llmd')),
    );
    await until('endpoint picker gone', async () => {
      for (const kind of EPP_KINDS)
        if (!(await goneOfKind(kind, 'llama-8b-llmd-epp'))) return false;
      return true;
    });
  });
});

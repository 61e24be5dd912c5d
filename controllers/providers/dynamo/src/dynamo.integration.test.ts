/**
 * The Dynamo provider against a real API server with Dynamo's real
 * DynamoGraphDeployment CRDs (current: stores v1beta1; v1.3.0-era: stores
 * v1alpha1). The test moves the DGD status as Dynamo's operator does and
 * plays the core's part (status.provider.name).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Applier,
  CustomResourceDefinitions,
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
  DYNAMO_PROVIDER,
  engineCapabilities,
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
  createModelDeploymentAsCore,
  getProviderConfig,
  isGone as gone,
  modelDeploymentTestHelpers,
  startProviderAsServiceAccount,
  statusOwners,
} from '@runway-portal/provider-shared/testing';
import YAML from 'yaml';
import { dynamoProvider } from './definition';
import { buildDynamoGraphDeployment } from './transform';

jest.setTimeout(180_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
const UPSTREAM_CRDS = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds',
);
const DGD_CRD = path.join(
  UPSTREAM_CRDS,
  'dynamo-nvidia.com_dynamographdeployments.yaml',
);
const DGD_CRD_V130 = path.join(
  UPSTREAM_CRDS,
  'dynamo-nvidia.com_dynamographdeployments.v1.3.0-era.yaml',
);
const NS = 'dynamo-test';
const FINALIZER_TIMEOUT_MS = 3000;

const DGDs = (version: string) => ({
  group: 'nvidia.com',
  version,
  plural: 'dynamographdeployments',
  kind: 'DynamoGraphDeployment',
  namespaced: true,
});

type DGD = KubeObject & { spec: any; status?: any };

const testdata = (file: string) =>
  YAML.parse(fs.readFileSync(path.join(__dirname, 'testdata', file), 'utf8'));
/** The storage sample as this provider builds it: what the API server must keep, field for field. */
const storageDgdSpec = (version: 'v1alpha1' | 'v1beta1') =>
  (
    buildDynamoGraphDeployment(
      resolveDeployment(testdata('storage.modeldeployment.yaml')),
      version,
    ).object as DGD
  ).spec;
const gpuSpec = (
  spec: Partial<ModelDeployment['spec']> = {},
): ModelDeployment['spec'] => ({
  model: { id: 'Qwen/Qwen3-0.6B' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 }, memory: '16Gi' },
  ...spec,
});

/** Every engine and serving mode Dynamo registers, with and without a served name. */
const matrix = engineCapabilities(DYNAMO_PROVIDER).flatMap(e =>
  (e.servingModes ?? ['aggregated']).flatMap(mode =>
    [undefined, 'my-llm'].map(servedName => ({
      engine: e.name,
      mode,
      servedName,
    })),
  ),
);
const matrixDeployment = ({
  engine,
  mode,
  servedName,
}: (typeof matrix)[number]): ModelDeployment => ({
  metadata: {
    name: `dry-${engine}-${mode}${servedName ? '-named' : ''}`,
    namespace: NS,
    uid: '00000000-0000-0000-0000-00000000d1a0',
  },
  spec: gpuSpec({
    model: { id: 'Qwen/Qwen3-0.6B', ...(servedName ? { servedName } : {}) },
    engine: { type: engine as 'vllm' },
    serving: { mode },
    ...(mode === 'disaggregated'
      ? {
          resources: undefined,
          scaling: {
            prefill: { replicas: 1, gpu: { count: 1 } },
            decode: { replicas: 2, gpu: { count: 2 } },
          },
        }
      : {}),
  }),
  status: { provider: { name: 'dynamo' } },
});

describe('Dynamo provider against a real cluster', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let running: RunningProvider;
  let providerClient: KubeClient;

  const { getMd, createMd, patchSpec, events, eventRecorded } =
    modelDeploymentTestHelpers(() => client, 'dynamo', NS);
  const getDgd = (name: string, version = 'v1beta1') =>
    client.get<DGD>(DGDs(version), { namespace: NS, name });
  const getClaim = (name: string) =>
    client.get<KubeObject & { spec: any }>(PersistentVolumeClaims, {
      namespace: NS,
      name,
    });
  const until = (
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = 30_000,
  ) => waitFor(what, check, { timeoutMs, intervalMs: 200 });
  const worker = (dgd: DGD, name: string) =>
    dgd.spec.components.find((c: any) => c.name === name);

  /**
   * Server-side dry-run apply of everything the provider writes for each
   * engine and mode: the real CRD accepts it and keeps every field.
   */
  const dryRunMatrix = async (version: 'v1alpha1' | 'v1beta1') => {
    const applier = new Applier(client, 'dry-run-test');
    for (const entry of matrix) {
      const { objects } = desiredObjects(
        dynamoProvider,
        matrixDeployment(entry),
        { apiVersion: `nvidia.com/${version}` },
      );
      for (const obj of objects) {
        const stored = await applier.apply<DGD>(obj, {
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
  };

  /** What Dynamo's operator writes on the DGD's status subresource. */
  const setDgdStatus = (name: string, status: object, version = 'v1beta1') =>
    client.patch(DGDs(version), { namespace: NS, name }, { status }, 'merge', {
      subresource: 'status',
    });

  beforeAll(async () => {
    // Dynamo's CRD comes later: the provider must report its absence first.
    cluster = await startCluster({
      name: 'provider-dynamo',
      nodes: [
        { name: 'gpu-0', gpus: 8, cpu: '64', memory: '512Gi' },
        { name: 'cpu-0' },
      ],
      crds: [RUNWAY_CRDS],
    });
    client = new KubeClient(cluster.kubeConfig());
    await client.create(Namespaces, { metadata: { name: NS } });
    // The provider runs as its ServiceAccount (installed by the runway CLI), with only the rules of its install manifests.
    ({ providerClient, running } = await startProviderAsServiceAccount(
      cluster,
      client,
      dynamoProvider,
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

  it('reports the missing CRD, then creates seed example 1 once Dynamo is installed', async () => {
    await createMd(
      'llama-8b',
      testdata('seed-example-1.modeldeployment.yaml').spec,
      { 'airunway.ai/team': 'ml', other: 'x' },
    );
    await until('CRD not installed status', async () => {
      const md = await getMd('llama-8b');
      return (
        md.status?.phase === 'Pending' &&
        md.status.message === "Provider 'dynamo' CRD not installed in cluster"
      );
    });
    await cluster.installCrds([DGD_CRD]);
    await until(
      'DGD created',
      async () => !(await gone(() => getDgd('llama-8b'))),
    );
    const ipc = await getProviderConfig(client, 'dynamo');
    expect(ipc.status.upstreamCRDVersion).toBe('nvidia.com/v1beta1');
  });

  it('writes seed examples 1 and 3 as the API server accepts them under the real v1beta1 schema', async () => {
    await createMd(
      'llama-70b-pd',
      testdata('seed-example-3.modeldeployment.yaml').spec,
    );
    await until(
      'DGD of example 3',
      async () => !(await gone(() => getDgd('llama-70b-pd'))),
    );
    for (const name of ['llama-8b', 'llama-70b-pd']) {
      const [dgd, md] = await Promise.all([getDgd(name), getMd(name)]);
      const golden = testdata(
        `seed-example-${name === 'llama-8b' ? 1 : 3}.dgd.v1beta1.yaml`,
      );
      expect(dgd.spec).toEqual(golden.spec);
      expect(dgd.metadata!.ownerReferences).toEqual([
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          name,
          uid: md.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(md.metadata!.finalizers).toContain('airunway.ai/provider-dynamo');
    }
    expect((await getDgd('llama-8b')).metadata!.labels).toEqual({
      'airunway.ai/team': 'ml',
      'airunway.ai/managed-by': 'airunway',
    });
    await until('ResourceCreated, Deploying', async () => {
      const md = await getMd('llama-70b-pd');
      return (
        condition(md, 'ResourceCreated')?.status === 'True' &&
        md.status?.phase === 'Deploying'
      );
    });
    expect((await getMd('llama-70b-pd')).status).toMatchObject({
      provider: {
        name: 'dynamo',
        resourceName: 'llama-70b-pd',
        resourceKind: 'DynamoGraphDeployment',
      },
      replicas: { desired: 6, ready: 0 },
      endpoint: { service: 'llama-70b-pd-frontend', port: 8000 },
    });
    await eventRecorded(
      'llama-70b-pd',
      "Normal/ResourceCreated: Created DynamoGraphDeployment 'llama-70b-pd'",
    );
  });

  it('writes every engine and serving mode as the real v1beta1 schema accepts, no field dropped (server-side dry run)', async () => {
    expect(matrix.length).toBeGreaterThanOrEqual(10);
    await dryRunMatrix('v1beta1');
  });

  it('mounts storage volumes in a DGD the API server accepts under the real v1beta1 schema, no field dropped', async () => {
    await createMd(
      'llama-8b-storage',
      testdata('storage.modeldeployment.yaml').spec,
    );
    await until(
      'storage DGD',
      async () => !(await gone(() => getDgd('llama-8b-storage'))),
    );
    const dgd = await getDgd('llama-8b-storage');
    expect(dgd.spec).toEqual(storageDgdSpec('v1beta1'));
    expect(worker(dgd, 'VllmWorker').compilationCache).toEqual({
      pvcName: 'llama-8b-storage-compile',
      mountPath: '/compilation-cache',
    });
    expect(worker(dgd, 'VllmWorker').podTemplate.spec.volumes[1]).toEqual({
      name: 'datasets',
      persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
    });
    // The compilation cache has a size: the provider creates its claim, owned by the deployment; the others name existing claims.
    const claim = await getClaim('llama-8b-storage-compile');
    const md = await getMd('llama-8b-storage');
    expect(claim.spec).toMatchObject({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '50Gi' } },
    });
    expect(claim.metadata!.ownerReferences).toEqual([
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'llama-8b-storage',
        uid: md.metadata!.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(await gone(() => getClaim('pvc-claim'))).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'llama-8b-storage',
    });
    await until('storage DGD gone', async () =>
      gone(() => getDgd('llama-8b-storage')),
    );
    await until('storage claim gone', async () =>
      gone(() => getClaim('llama-8b-storage-compile')),
    );
    await until('storage deployment gone', async () =>
      gone(() => getMd('llama-8b-storage')),
    );
  });

  it('becomes Running when Dynamo reports success, with the status fields owned per seed 001', async () => {
    const component = (replicas: number) => ({
      componentKind: 'Deployment',
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
    });
    await setDgdStatus('llama-70b-pd', {
      state: 'successful',
      components: {
        Frontend: component(2),
        VllmPrefillWorker: component(2),
        VllmDecodeWorker: component(4),
      },
    });
    await until(
      'Running',
      async () => (await getMd('llama-70b-pd')).status?.phase === 'Running',
    );
    const md = await getMd('llama-70b-pd');
    expect(md.status).toMatchObject({
      phase: 'Running',
      provider: {
        name: 'dynamo',
        selectedReason: 'explicit provider selection',
        resourceName: 'llama-70b-pd',
        resourceKind: 'DynamoGraphDeployment',
      },
      replicas: { desired: 6, ready: 6, available: 6 },
      endpoint: { service: 'llama-70b-pd-frontend', port: 8000 },
    });
    expect(condition(md, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'DeploymentReady',
      message: 'All replicas are ready',
    });
    expect(condition(md, 'ProviderCompatible')?.status).toBe('True');
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
        ['airunway-provider-dynamo'],
      ]);
    }
    expect(owners['provider.name']).toEqual(['airunway-core']);
  });

  it('reports a failed DGD with the message Dynamo gives', async () => {
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    await setDgdStatus('llama-8b', {
      state: 'failed',
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ComponentsFailing',
          message: 'insufficient GPUs for VllmWorker',
          lastTransitionTime: now,
        },
      ],
    });
    await until('Failed', async () => {
      const md = await getMd('llama-8b');
      return (
        md.status?.phase === 'Failed' &&
        md.status.message ===
          'DynamoGraphDeployment failed: insufficient GPUs for VllmWorker'
      );
    });
    await until('ProviderError event', async () =>
      (
        await events('llama-8b')
      ).includes(
        'Warning/ProviderError: Provider resource in error state: DynamoGraphDeployment failed: insufficient GPUs for VllmWorker',
      ),
    );
  });

  it('scales in place (config field), keeping the same DGD', async () => {
    const before = await getDgd('llama-70b-pd');
    await patchSpec('llama-70b-pd', { scaling: { decode: { replicas: 5 } } });
    await until(
      'decode replicas 5',
      async () =>
        worker(await getDgd('llama-70b-pd'), 'VllmDecodeWorker').replicas === 5,
    );
    const after = await getDgd('llama-70b-pd');
    expect(after.metadata!.uid).toBe(before.metadata!.uid);
    await until(
      'desired 7',
      async () => (await getMd('llama-70b-pd')).status?.replicas?.desired === 7,
    );
  });

  it('overwrites a direct edit of the DGD and says so', async () => {
    const dgd = await getDgd('llama-70b-pd');
    const components = dgd.spec.components.map((c: any) =>
      c.name === 'Frontend' ? { ...c, replicas: 9 } : c,
    );
    await client.patch(
      DGDs('v1beta1'),
      { namespace: NS, name: 'llama-70b-pd' },
      { spec: { components } },
      'merge',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'frontend replicas restored',
      async () =>
        worker(await getDgd('llama-70b-pd'), 'Frontend').replicas === 2,
    );
    await until('DriftDetected event', async () =>
      (
        await events('llama-70b-pd')
      ).some(e =>
        e.startsWith(
          'Warning/DriftDetected: Provider resource was modified directly',
        ),
      ),
    );
  });

  it('deletes and recreates the DGD when an identity field changes', async () => {
    const before = await getDgd('llama-8b');
    await patchSpec('llama-8b', {
      model: { id: 'meta-llama/Llama-3.2-3B-Instruct' },
    });
    await until('new DGD', async () => {
      const dgd = await getDgd('llama-8b').catch(() => undefined);
      return !!dgd && dgd.metadata!.uid !== before.metadata!.uid;
    });
    expect(
      worker(
        await getDgd('llama-8b'),
        'VllmWorker',
      ).podTemplate.spec.containers[0].args.slice(0, 2),
    ).toEqual(['--model', 'meta-llama/Llama-3.2-3B-Instruct']);
    expect(
      (await events('llama-8b')).some(e =>
        e.startsWith(
          "Warning/IdentityChanged: Identity fields changed: deleting and recreating DynamoGraphDeployment 'llama-8b'",
        ),
      ),
    ).toBe(true);
    await until(
      'Deploying again',
      async () => (await getMd('llama-8b')).status?.phase === 'Deploying',
    );
  });

  it.each([
    [
      'llamacpp',
      gpuSpec({ engine: { type: 'llamacpp' } }),
      undefined,
      'Dynamo does not support llamacpp engine',
    ],
    // The API server refuses vLLM without a GPU in the spec; an engine resolved in status reaches the provider.
    [
      'no-gpu',
      { model: { id: 'Qwen/Qwen3-0.6B' } },
      'vllm',
      'Dynamo requires GPU',
    ],
  ] as const)(
    'rejects an incompatible deployment (%s) with the seed message and creates nothing',
    async (name, spec, engine, message) => {
      await createMd(name, spec as ModelDeployment['spec']);
      if (engine) {
        // The core's writes: engine and provider together, as its field manager.
        await client.apply(
          ModelDeployments,
          {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { namespace: NS, name },
            status: {
              engine: { type: engine, selectedReason: 'test' },
              provider: {
                name: 'dynamo',
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
      expect(await gone(() => getDgd(name))).toBe(true);
    },
  );

  it('warns about unknown override keys and fails on a wrong type, naming the field', async () => {
    await createMd(
      'typo',
      gpuSpec({ provider: { overrides: { frontend: { replicsa: 2 } } } }),
    );
    await until('UnknownOverride event', async () =>
      (
        await events('typo')
      ).includes(
        "Warning/UnknownOverride: Unknown override key spec.provider.overrides.frontend.replicsa is ignored by provider 'dynamo'",
      ),
    );
    await until(
      'DGD despite the typo',
      async () => !(await gone(() => getDgd('typo'))),
    );
    await patchSpec('typo', {
      provider: { overrides: { frontend: { replicas: 'two' } } },
    });
    await until('Failed naming the field', async () => {
      const md = await getMd('typo');
      return (
        md.status?.phase === 'Failed' &&
        (md.status.message ?? '').startsWith(
          'spec.provider.overrides.frontend.replicas must be a whole number',
        )
      );
    });
  });

  it('deletes the DGD and then the deployment', async () => {
    await client.delete(ModelDeployments, { namespace: NS, name: 'typo' });
    await until('deployment gone', async () => gone(() => getMd('typo')));
    expect(await gone(() => getDgd('typo'))).toBe(true);
  });

  it('writes v1alpha1 with the seed values on a Dynamo release that serves only v1alpha1', async () => {
    for (const name of ['llama-8b', 'llama-70b-pd', 'llamacpp', 'no-gpu'])
      await client.delete(ModelDeployments, { namespace: NS, name });
    await until(
      'v1beta1 objects gone',
      async () =>
        (await client.list(DGDs('v1beta1'), { namespace: NS })).items.length ===
        0,
      60_000,
    );
    await client.delete(CustomResourceDefinitions, {
      name: 'dynamographdeployments.nvidia.com',
    });
    await until('CRD gone', async () =>
      gone(() =>
        client.get(CustomResourceDefinitions, {
          name: 'dynamographdeployments.nvidia.com',
        }),
      ),
    );
    // v1.3.0-era Dynamo stores v1alpha1; without its operator's conversion webhook only v1alpha1 can be served.
    const crd = YAML.parseAllDocuments(
      fs.readFileSync(DGD_CRD_V130, 'utf8'),
    )[0].toJSON();
    for (const v of crd.spec.versions) v.served = v.name === 'v1alpha1';
    const file = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'dgd-crd-')),
      'dgd-v1alpha1-only.yaml',
    );
    fs.writeFileSync(file, YAML.stringify(crd));
    await cluster.installCrds([file]);
    await until('registration reports v1alpha1', async () => {
      const ipc = await getProviderConfig(client, 'dynamo');
      return ipc.status?.upstreamCRDVersion === 'nvidia.com/v1alpha1';
    });

    await createMd(
      'llama-70b-pd',
      testdata('seed-example-3.modeldeployment.yaml').spec,
    );
    await until(
      'v1alpha1 DGD',
      async () => !(await gone(() => getDgd('llama-70b-pd', 'v1alpha1'))),
    );
    const dgd = await getDgd('llama-70b-pd', 'v1alpha1');
    expect(dgd.spec).toEqual(testdata('seed-example-3.dgd.v1alpha1.yaml').spec);
    expect(dgd.spec.services.VllmPrefillWorker).toMatchObject({
      componentType: 'worker',
      subComponentType: 'prefill',
      replicas: 2,
      envFromSecret: 'hf-token',
    });

    const service = (replicas: number, ready: number) => ({
      componentKind: 'Deployment',
      componentName: 'x',
      replicas,
      updatedReplicas: replicas,
      readyReplicas: ready,
    });
    await setDgdStatus(
      'llama-70b-pd',
      {
        state: 'pending',
        services: {
          VllmPrefillWorker: service(2, 2),
          VllmDecodeWorker: service(4, 1),
        },
      },
      'v1alpha1',
    );
    await until('Deploying 3/6', async () => {
      const md = await getMd('llama-70b-pd');
      return (
        md.status?.phase === 'Deploying' &&
        md.status.replicas?.ready === 3 &&
        md.status.replicas.desired === 6
      );
    });
    await setDgdStatus(
      'llama-70b-pd',
      {
        state: 'successful',
        services: {
          VllmPrefillWorker: service(2, 2),
          VllmDecodeWorker: service(4, 4),
        },
      },
      'v1alpha1',
    );
    await until(
      'Running on v1alpha1',
      async () => (await getMd('llama-70b-pd')).status?.phase === 'Running',
    );
  });

  it('writes every engine and serving mode as the real v1alpha1 schema accepts, no field dropped (server-side dry run)', async () => {
    await expect(dryRunMatrix('v1alpha1')).resolves.toBeUndefined();
  });

  it('mounts storage volumes in a v1alpha1 DGD the API server accepts, no field dropped', async () => {
    await createMd(
      'llama-8b-storage',
      testdata('storage.modeldeployment.yaml').spec,
    );
    await until(
      'v1alpha1 storage DGD',
      async () => !(await gone(() => getDgd('llama-8b-storage', 'v1alpha1'))),
    );
    const dgd = await getDgd('llama-8b-storage', 'v1alpha1');
    expect(dgd.spec).toEqual(storageDgdSpec('v1alpha1'));
    expect(dgd.spec.pvcs).toEqual([
      { name: 'llama-8b-storage-compile', create: false },
    ]);
    expect(
      dgd.spec.services.VllmWorker.extraPodSpec.mainContainer.volumeMounts,
    ).toEqual([
      { name: 'model-cache', mountPath: '/model-cache' },
      { name: 'datasets', mountPath: '/data', readOnly: true },
    ]);
  });

  it('leaves a deployment of another provider alone', async () => {
    await createModelDeploymentAsCore(
      client,
      { namespace: NS, name: 'other' },
      gpuSpec(),
      'kaito',
    );
    await new Promise(r => setTimeout(r, 1500));
    const md = await getMd('other');
    expect(md.metadata!.finalizers ?? []).toEqual([]);
    expect(md.status?.phase).toBeUndefined();
    expect(await gone(() => getDgd('other', 'v1alpha1'))).toBe(true);
  });
});

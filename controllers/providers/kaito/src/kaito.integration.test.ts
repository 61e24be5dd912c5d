/**
 * The KAITO provider against a real API server with KAITO's real Workspace
 * CRD. The test moves the Workspace status the way KAITO's operator does
 * and plays the core's part (status.provider.name).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  Applier,
  ConfigMaps,
  CustomResourceDefinitions,
  Deployments,
  KubeApiError,
  KubeClient,
  type KubeObject,
  Namespaces,
  PersistentVolumeClaims,
  Secrets,
  isNotFound,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  waitFor,
  freePort,
} from '@runway-portal/e2e-cluster';
import {
  startHubStandIn,
  type HubStandIn,
} from '@runway-portal/e2e-simulators';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  InferenceProviderConfigs,
  ModelDeployments,
  desiredObjects,
  resolveDeployment,
} from '@runway-portal/provider-shared';
import { eventsAbout } from '@runway-portal/e2e-testing';
import {
  type RunningProvider,
  conditionOf as condition,
  createModelDeploymentAsCore,
  getProviderConfig,
  isGone as gone,
  modelDeploymentTestHelpers,
  selectProviderAsCore,
  startProviderAsServiceAccount,
  statusOwners,
} from '@runway-portal/provider-shared/testing';
import { parse } from 'yaml';
import { kaitoProvider } from './definition';
import { transformKaito } from './transform';

jest.setTimeout(180_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
/** `../shared` next to the repository root (see the project README). */
const UPSTREAM_CRDS = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds',
);
const KAITO_CRD = path.join(UPSTREAM_CRDS, 'kaito-kaito.sh_workspaces.yaml');
const NS = 'kaito-test';
const FINALIZER_TIMEOUT_MS = 3000;

const Workspaces = (version: string) => ({
  group: 'kaito.sh',
  version,
  plural: 'workspaces',
  kind: 'Workspace',
  namespaced: true,
});

describe('KAITO provider against a real cluster', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let running: RunningProvider;
  let providerClient: KubeClient;

  const { getMd, createMd, patchSpec } = modelDeploymentTestHelpers(
    () => client,
    'kaito',
    NS,
  );
  const getWs = (name: string, version = 'v1beta1') =>
    client.get<KubeObject>(Workspaces(version), { namespace: NS, name });
  const until = (
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = 30_000,
  ) => waitFor(what, check, { timeoutMs, intervalMs: 200 });

  /**
   * Server-side dry-run apply of everything the provider writes for every
   * engine and Workspace form (preset with the Hugging Face id or a
   * built-in name, vLLM and llama.cpp pod templates), GPU and CPU, with and
   * without a served name: the real CRD accepts it and keeps every field.
   */
  async function dryRunMatrix(apiVersion: string): Promise<void> {
    const forms = [
      { engine: 'vllm', image: undefined, gpus: 1, release: undefined },
      { engine: 'vllm', image: undefined, gpus: 1, release: '0.4.5' },
      {
        engine: 'vllm',
        image: 'vllm/vllm-openai:v0.11.0',
        gpus: 1,
        release: undefined,
      },
      {
        engine: 'llamacpp',
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
        gpus: 0,
        release: undefined,
      },
      {
        engine: 'llamacpp',
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
        gpus: 1,
        release: undefined,
      },
    ] as const;
    const applier = new Applier(client, 'dry-run-test');
    for (const form of forms) {
      for (const servedName of [undefined, 'my-llm']) {
        const md: ModelDeployment = {
          metadata: {
            name: 'dry-run',
            namespace: NS,
            uid: '00000000-0000-0000-0000-00000000d1a0',
          },
          spec: {
            model: {
              id: 'microsoft/Phi-3-mini-4k-instruct',
              ...(servedName ? { servedName } : {}),
            },
            engine: { type: form.engine, contextLength: 4096 },
            resources: { gpu: { count: form.gpus }, memory: '16Gi' },
            ...(form.image ? { image: form.image } : {}),
          },
          status: { provider: { name: 'kaito' } },
        };
        for (const obj of desiredObjects(kaitoProvider, md, {
          apiVersion,
          upstreamRelease: form.release,
        }).objects) {
          const stored = await applier.apply<KubeObject>(obj, {
            dryRun: true,
            force: true,
          });
          const { metadata, ...written } = obj;
          expect({ form, servedName, stored }).toMatchObject({
            form,
            servedName,
            stored: written,
          });
        }
      }
    }
  }

  /** What KAITO's operator writes when the workspace is up. */
  async function markWorkspaceSucceeded(
    name: string,
    version = 'v1beta1',
  ): Promise<void> {
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    const cond = (type: string) => ({
      type,
      status: 'True',
      reason: `${type}`,
      message: '',
      lastTransitionTime: now,
    });
    await client.patch(
      Workspaces(version),
      { namespace: NS, name },
      {
        status: {
          conditions: [
            cond('ResourceReady'),
            cond('InferenceReady'),
            cond('WorkspaceSucceeded'),
          ],
          workerNodes: ['cpu-0'],
        },
      },
      'merge',
      { subresource: 'status' },
    );
  }

  let hub: HubStandIn;
  const savedHfEndpoint = process.env.HF_ENDPOINT;

  beforeAll(async () => {
    // The provider lists llama.cpp repositories' files on the hub (HF_ENDPOINT): a stand-in with the tests' repositories.
    hub = await startHubStandIn({
      repos: {
        'google/gemma-3-1b-it-qat-q8_0-gguf': {
          files: { 'README.md': '#', 'gemma-3-1b-it-q8_0.gguf': 'x' },
        },
        'google/gemma-3-4b-it-qat-q4_0-gguf': {
          files: {
            'gemma-3-4b-it-q4_0.gguf': 'x',
            'mmproj-model-f16-4B.gguf': 'x',
          },
        },
        'org/tiny-gguf': { files: { 'tiny-q4_0.gguf': 'x' } },
        'bartowski/Llama-3.2-1B-Instruct-GGUF': {
          files: {
            'Llama-3.2-1B-Instruct-Q4_K_M.gguf': 'x',
            'Llama-3.2-1B-Instruct-Q8_0.gguf': 'x',
            'README.md': '#',
          },
        },
      },
    });
    process.env.HF_ENDPOINT = hub.url;
    // The KAITO CRD is installed later: the provider must report its absence first.
    cluster = await startCluster({
      name: 'provider-kaito',
      crds: [RUNWAY_CRDS],
    });
    client = new KubeClient(cluster.kubeConfig());
    await client.create(Namespaces, { metadata: { name: NS } });
    // The provider runs as its ServiceAccount, installed by the runway CLI, not as admin.
    ({ providerClient, running } = await startProviderAsServiceAccount(
      cluster,
      client,
      kaitoProvider,
      {
        finalizerTimeoutMs: FINALIZER_TIMEOUT_MS,
        heartbeatIntervalMs: 1000,
      },
    ));
  });

  afterAll(async () => {
    await running?.stop();
    client?.close();
    await cluster?.stop();
    await hub?.close();
    if (savedHfEndpoint === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = savedHfEndpoint;
  });

  it('registers its compatibility rules (registration and heartbeat: the conformance suite)', async () => {
    await until(
      'registration',
      async () =>
        !!(await getProviderConfig(client, 'kaito').catch(() => undefined)),
    );
    const ipc = await getProviderConfig(client, 'kaito');
    expect(
      ipc.spec.compatibilityRules.map((r: { message: string }) => r.message),
    ).toContain('KAITO does not support sglang engine');
  });

  it('reports a missing CRD, then creates the Workspace once KAITO is installed', async () => {
    await createMd(
      'gemma-cpu',
      parse(
        fs.readFileSync(
          path.join(__dirname, 'testdata/example2-modeldeployment.yaml'),
          'utf8',
        ),
      ).spec,
    );
    await until('CRD not installed status', async () => {
      const md = await getMd('gemma-cpu');
      return (
        md.status?.phase === 'Pending' &&
        md.status.message === "Provider 'kaito' CRD not installed in cluster"
      );
    });
    await cluster.installCrds([KAITO_CRD]);
    await until('Workspace created', async () => !!(await getWs('gemma-cpu')));
    const ipc = await getProviderConfig(client, 'kaito');
    expect(ipc.status.upstreamCRDVersion).toBe('kaito.sh/v1beta1');
    expect(ipc.status.upstreamSchemaHash).toMatch(/^[0-9a-f]{12}$/);
  });

  it('creates seed example 2 as the API server accepts it, with owner and labels', async () => {
    const ws = await getWs('gemma-cpu');
    const md = await getMd('gemma-cpu');
    const expected = parse(
      fs.readFileSync(
        path.join(__dirname, 'testdata/example2-workspace.yaml'),
        'utf8',
      ),
    );
    expect(ws.resource).toEqual(expected.resource);
    expect(ws.inference).toEqual(expected.inference);
    expect(ws.metadata!.labels).toEqual(expected.metadata.labels);
    expect(ws.metadata!.ownerReferences).toEqual([
      { ...expected.metadata.ownerReferences[0], uid: md.metadata!.uid },
    ]);
    expect(md.metadata!.finalizers).toContain('airunway.ai/provider-kaito');
    await until('ResourceCreated and Deploying', async () => {
      const m = await getMd('gemma-cpu');
      return (
        condition(m, 'ResourceCreated')?.status === 'True' &&
        m.status?.phase === 'Deploying' &&
        m.status.provider?.resourceKind === 'Workspace'
      );
    });
    expect(await eventsAbout(client, NS, 'gemma-cpu')).toContain(
      "Normal/ResourceCreated: Created Workspace 'gemma-cpu'",
    );
  });

  it('becomes Running when KAITO reports WorkspaceSucceeded, with status owned per seed 001', async () => {
    await markWorkspaceSucceeded('gemma-cpu');
    await until(
      'Running',
      async () => (await getMd('gemma-cpu')).status?.phase === 'Running',
    );
    const md = await getMd('gemma-cpu');
    expect(md.status).toMatchObject({
      phase: 'Running',
      provider: {
        name: 'kaito',
        resourceName: 'gemma-cpu',
        resourceKind: 'Workspace',
      },
      endpoint: { service: 'gemma-cpu', port: 80 },
      replicas: { desired: 1, ready: 1, available: 1 },
    });
    expect(condition(md, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'WorkspaceSucceeded',
    });
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
        ['airunway-provider-kaito'],
      ]);
    }
    expect(owners['provider.name']).toEqual(['airunway-core']);
  });

  it('scales in place (config field), keeping the same Workspace', async () => {
    const before = await getWs('gemma-cpu');
    await patchSpec('gemma-cpu', { scaling: { replicas: 2 } });
    await until(
      'count 2',
      async () => ((await getWs('gemma-cpu')).resource as any).count === 2,
    );
    expect((await getWs('gemma-cpu')).metadata!.uid).toBe(before.metadata!.uid);
  });

  it('overwrites a direct edit of the Workspace and says so', async () => {
    await client.patch(
      Workspaces('v1beta1'),
      { namespace: NS, name: 'gemma-cpu' },
      { resource: { count: 7 } },
      'merge',
      { fieldManager: 'kubectl-edit' },
    );
    await until(
      'count restored',
      async () => ((await getWs('gemma-cpu')).resource as any).count === 2,
    );
    await until('DriftDetected event', async () =>
      (
        await eventsAbout(client, NS, 'gemma-cpu')
      ).some(e =>
        e.startsWith(
          'Warning/DriftDetected: Provider resource was modified directly',
        ),
      ),
    );
    expect(((await getWs('gemma-cpu')).resource as any).count).toBe(2);
  });

  it('deletes and recreates the Workspace when an identity field changes', async () => {
    const before = await getWs('gemma-cpu');
    await patchSpec('gemma-cpu', {
      model: { id: 'google/gemma-3-4b-it-qat-q4_0-gguf' },
    });
    await until('new Workspace', async () => {
      const ws = await getWs('gemma-cpu').catch(() => undefined);
      return !!ws && ws.metadata!.uid !== before.metadata!.uid;
    });
    const ws = await getWs('gemma-cpu');
    expect((ws.inference as any).template.spec.containers[0].args[0]).toBe(
      'huggingface://google/gemma-3-4b-it-qat-q4_0-gguf/gemma-3-4b-it-q4_0.gguf',
    );
    expect(
      (await eventsAbout(client, NS, 'gemma-cpu')).some(e =>
        e.startsWith('Warning/IdentityChanged'),
      ),
    ).toBe(true);
    await until(
      'Deploying again',
      async () => (await getMd('gemma-cpu')).status?.phase === 'Deploying',
    );
  });

  it('rejects an incompatible engine with the seed message and creates nothing', async () => {
    await createMd('sglang-on-kaito', {
      model: { id: 'org/m' },
      engine: { type: 'sglang' },
      resources: { gpu: { count: 1 } },
    });
    await until('ProviderCompatible False', async () => {
      const md = await getMd('sglang-on-kaito');
      return (
        md.status?.phase === 'Failed' &&
        condition(md, 'ProviderCompatible')?.message ===
          'KAITO does not support sglang engine'
      );
    });
    expect(await gone(() => getWs('sglang-on-kaito'))).toBe(true);
  });

  it('fails llama.cpp without an image naming the field, and warns about unknown overrides', async () => {
    await createMd('no-image', {
      model: { id: 'org/x-gguf' },
      engine: { type: 'llamacpp' },
      provider: { overrides: { replicsa: 2 } },
    });
    await until('Failed on spec.image', async () => {
      const md = await getMd('no-image');
      return (
        md.status?.phase === 'Failed' &&
        (md.status.message ?? '').startsWith(
          'spec.image: KAITO has no default llama.cpp image',
        )
      );
    });
    await until('UnknownOverride event', async () =>
      (
        await eventsAbout(client, NS, 'no-image')
      ).includes(
        "Warning/UnknownOverride: Unknown override key spec.provider.overrides.replicsa is ignored by provider 'kaito'",
      ),
    );
    expect(await gone(() => getWs('no-image'))).toBe(true);
  });

  it("runs the GGUF file chosen from the hub's file list: an ambiguous repository fails listing its files, the quantisation picks one", async () => {
    const image = 'ghcr.io/sozercan/llama-cpp-runner:latest';
    await createMd('llama-gguf', {
      model: { id: 'bartowski/Llama-3.2-1B-Instruct-GGUF' },
      engine: { type: 'llamacpp' },
      image,
    });
    await until(
      'Failed listing the files',
      async () => (await getMd('llama-gguf')).status?.phase === 'Failed',
    );
    expect((await getMd('llama-gguf')).status?.message).toBe(
      "spec.model.id: 'bartowski/Llama-3.2-1B-Instruct-GGUF' has 2 GGUF files (Llama-3.2-1B-Instruct-Q4_K_M.gguf, Llama-3.2-1B-Instruct-Q8_0.gguf): " +
        "set spec.engine.args.quantization (e.g. Q4_K_M) or name the file in spec.model.id ('bartowski/Llama-3.2-1B-Instruct-GGUF/<file>.gguf')",
    );
    expect(await gone(() => getWs('llama-gguf'))).toBe(true);

    await patchSpec('llama-gguf', {
      engine: {
        type: 'llamacpp',
        args: { quantization: 'Q8_0', threads: '4' },
      },
    });
    await until(
      'Workspace with the Q8_0 file',
      async () => !(await gone(() => getWs('llama-gguf'))),
    );
    const args = ((await getWs('llama-gguf')).inference as any).template.spec
      .containers[0].args;
    // The quantisation chose the file; llama.cpp has no such flag. Other engine args pass through.
    expect(args).toEqual([
      'huggingface://bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q8_0.gguf',
      '--address=:5000',
      '--threads=4',
    ]);
    expect(
      hub.requests.some(r =>
        r.path.startsWith(
          '/api/models/bartowski/Llama-3.2-1B-Instruct-GGUF/tree/main',
        ),
      ),
    ).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'llama-gguf',
    });
    await until('llama-gguf gone', async () => gone(() => getMd('llama-gguf')));
  });

  it('creates the preset (the Hugging Face id: the real CRD is KAITO v0.9.0 or later) and its inference ConfigMap with the served name, and removes the ConfigMap once no preset needs it', async () => {
    await createMd('phi', {
      model: { id: 'microsoft/Phi-4-mini-instruct' },
      engine: { type: 'vllm', contextLength: 8192 },
      resources: { gpu: { count: 1 } },
      secrets: { huggingFaceToken: 'hf-token' },
    });
    await until(
      'preset Workspace',
      async () => !!(await getWs('phi').catch(() => undefined)),
    );
    const ws = await getWs('phi');
    expect(ws.inference).toEqual({
      preset: {
        name: 'microsoft/Phi-4-mini-instruct',
        presetOptions: { modelAccessSecret: 'hf-token' },
        accessMode: 'public',
      },
      config: 'phi-inference-config',
    });
    expect((ws.resource as any).labelSelector).toEqual({
      matchLabels: {
        'kubernetes.io/os': 'linux',
        'nvidia.com/gpu.present': 'true',
      },
    });
    const config = async () =>
      parse(
        (
          await client.get<KubeObject & { data?: Record<string, string> }>(
            ConfigMaps,
            { namespace: NS, name: 'phi-inference-config' },
          )
        ).data!['inference_config.yaml'],
      );
    expect(await config()).toEqual({
      vllm: {
        'max-model-len': 8192,
        'served-model-name': 'Phi-4-mini-instruct',
      },
    });
    await client.patch(
      ModelDeployments,
      { namespace: NS, name: 'phi' },
      [{ op: 'remove', path: '/spec/engine/contextLength' }],
      'json',
    );
    // The served name stays: without it KAITO would serve the preset's own name, not the one the gateway advertises.
    await until(
      'flags gone, served name kept',
      async () =>
        JSON.stringify(await config()) ===
        JSON.stringify({
          vllm: { 'served-model-name': 'Phi-4-mini-instruct' },
        }),
    );
    await patchSpec('phi', { image: 'vllm/vllm-openai:v0.11.0' });
    await until('ConfigMap removed', async () => {
      try {
        await client.get(ConfigMaps, {
          namespace: NS,
          name: 'phi-inference-config',
        });
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    });
    await until(
      'pod template Workspace',
      async () =>
        !!((await getWs('phi').catch(() => undefined))?.inference as any)
          ?.template,
    );
  });

  it('names the built-in preset on a KAITO older than v0.9.0 (its CRD without status.state), and fails a model without one naming spec.model.id', async () => {
    const original = await client.get<KubeObject & { spec: any }>(
      CustomResourceDefinitions,
      { name: 'workspaces.kaito.sh' },
    );
    const older = structuredClone(original);
    delete older.spec.versions.find((v: any) => v.name === 'v1beta1').schema
      .openAPIV3Schema.properties.status.properties.state;
    // Read before the change: the provider may report the new schema before a later read.
    const hashBefore = (await getProviderConfig(client, 'kaito')).status
      .upstreamSchemaHash;
    await client.replace(CustomResourceDefinitions, older);
    await until(
      'provider saw the older schema',
      async () =>
        (await getProviderConfig(client, 'kaito')).status.upstreamSchemaHash !==
        hashBefore,
    );

    await createMd('mistral', {
      model: { id: 'mistralai/Mistral-7B-Instruct-v0.3' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
    });
    await until(
      'built-in preset Workspace',
      async () => !!(await getWs('mistral').catch(() => undefined)),
    );
    expect(((await getWs('mistral')).inference as any).preset.name).toBe(
      'mistral-7b-instruct',
    );

    await createMd('qwen3', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
    });
    await until(
      'qwen3 Failed',
      async () => (await getMd('qwen3')).status?.phase === 'Failed',
    );
    const md = await getMd('qwen3');
    expect(md.status?.message).toMatch(
      /^spec\.model\.id: 'Qwen\/Qwen3-0\.6B' has no KAITO preset .*set spec\.image .*upgrade KAITO to v0\.9\.0 or later/,
    );
    expect(condition(md, 'ResourceCreated')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
    });
    expect(await gone(() => getWs('qwen3'))).toBe(true);

    for (const name of ['mistral', 'qwen3'])
      await client.delete(ModelDeployments, { namespace: NS, name });
    await until(
      'deployments gone',
      async () =>
        (await gone(() => getMd('mistral'))) &&
        (await gone(() => getMd('qwen3'))),
    );
    const current = await client.get<KubeObject & { spec: any }>(
      CustomResourceDefinitions,
      { name: 'workspaces.kaito.sh' },
    );
    await client.replace(CustomResourceDefinitions, {
      ...original,
      metadata: {
        ...original.metadata,
        resourceVersion: current.metadata!.resourceVersion,
      },
    });
  });

  it('writes every engine, Workspace form and GPU choice as the real v1beta1 schema accepts, no field dropped (server-side dry run)', async () => {
    await expect(dryRunMatrix('kaito.sh/v1beta1')).resolves.toBeUndefined();
  });

  it('mounts storage volumes in a template Workspace the API server keeps unchanged, and manages the sized claim', async () => {
    const spec = {
      model: {
        id: 'microsoft/Phi-4-mini-instruct',
        storage: {
          volumes: [
            {
              name: 'model-cache',
              purpose: 'modelCache' as const,
              claimName: 'pvc-claim',
            },
            {
              name: 'compile',
              purpose: 'compilationCache' as const,
              size: '50Gi',
            },
            {
              name: 'datasets',
              claimName: 'team-datasets',
              mountPath: '/data',
              readOnly: true,
            },
          ],
        },
      },
      engine: { type: 'vllm' as const },
      image: 'vllm/vllm-openai:v0.11.0',
      resources: { gpu: { count: 1 } },
    };
    await createMd('phi-storage', spec);
    await until(
      'storage Workspace',
      async () => !(await gone(() => getWs('phi-storage'))),
    );
    const built = transformKaito(
      resolveDeployment({
        metadata: { name: 'phi-storage', namespace: NS },
        spec,
      }),
      { apiVersion: 'kaito.sh/v1beta1' },
    ).objects[0];
    const live = await getWs('phi-storage');
    expect(live.inference).toEqual(built.inference);
    expect((live.inference as any).template.spec.volumes[2]).toEqual({
      name: 'datasets',
      persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
    });

    // The compilation cache has a size: the provider creates its claim, owned by the deployment; the others name existing claims.
    const getClaim = (name: string) =>
      client.get<KubeObject & { spec: any }>(PersistentVolumeClaims, {
        namespace: NS,
        name,
      });
    const claim = await getClaim('phi-storage-compile');
    const owner = await getMd('phi-storage');
    expect(claim.spec).toMatchObject({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '50Gi' } },
    });
    expect(claim.metadata!.ownerReferences).toEqual([
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'phi-storage',
        uid: owner.metadata!.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(await gone(() => getClaim('pvc-claim'))).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'phi-storage',
    });
    await until(
      'storage Workspace, claim and deployment gone',
      async () =>
        (await gone(() => getWs('phi-storage'))) &&
        (await gone(() => getClaim('phi-storage-compile'))) &&
        (await gone(() => getMd('phi-storage'))),
    );
  });

  it('fails a preset with storage volumes naming the field, and creates nothing', async () => {
    await createMd('phi-preset-storage', {
      model: {
        id: 'microsoft/Phi-4-mini-instruct',
        storage: {
          volumes: [
            { name: 'model-cache', purpose: 'modelCache', size: '100Gi' },
          ],
        },
      },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
    });
    await until('Failed on spec.model.storage.volumes', async () => {
      const md = await getMd('phi-preset-storage');
      return (
        md.status?.phase === 'Failed' &&
        (md.status.message ?? '').startsWith(
          'spec.model.storage.volumes: KAITO presets build their own pods and cannot mount volumes',
        )
      );
    });
    expect(await gone(() => getWs('phi-preset-storage'))).toBe(true);
    expect(
      await gone(() =>
        client.get(PersistentVolumeClaims, {
          namespace: NS,
          name: 'phi-preset-storage-model-cache',
        }),
      ),
    ).toBe(true);
    await client.delete(ModelDeployments, {
      namespace: NS,
      name: 'phi-preset-storage',
    });
    await until('deployment gone', async () =>
      gone(() => getMd('phi-preset-storage')),
    );
  });

  it('maps a KAITO failure to Failed with its message and a ProviderError event', async () => {
    await createMd('failing', {
      model: { id: 'org/tiny-gguf' },
      engine: { type: 'llamacpp' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
    });
    await until('Workspace', async () => !(await gone(() => getWs('failing'))));
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    await client.patch(
      Workspaces('v1beta1'),
      { namespace: NS, name: 'failing' },
      {
        status: {
          conditions: [
            {
              type: 'WorkspaceSucceeded',
              status: 'False',
              reason: 'workspaceFailed',
              message: 'insufficient GPUs',
              lastTransitionTime: now,
            },
          ],
        },
      },
      'merge',
      { subresource: 'status' },
    );
    await until(
      'Failed',
      async () => (await getMd('failing')).status?.phase === 'Failed',
    );
    const md = await getMd('failing');
    expect(md.status?.message).toBe('insufficient GPUs');
    expect(condition(md, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'workspaceFailed',
    });
    await until('ProviderError event', async () =>
      (
        await eventsAbout(client, NS, 'failing')
      ).includes(
        'Warning/ProviderError: Provider resource in error state: insufficient GPUs',
      ),
    );
  });

  it('deletes the Workspaces and then the deployments', async () => {
    // The finalizer timeout with a Workspace that stays: the conformance suite.
    for (const name of ['phi', 'gemma-cpu']) {
      await client.delete(ModelDeployments, { namespace: NS, name });
      await until(`${name} gone`, () => gone(() => getMd(name)));
      expect(await gone(() => getWs(name))).toBe(true);
    }
  });

  it('switches to v1alpha1 when that is the only version KAITO serves', async () => {
    // Read before the change: the provider may report the new schema before a later read.
    const before = (await getProviderConfig(client, 'kaito')).status
      .upstreamSchemaHash;
    const crd = await client.get<KubeObject & { spec: any }>(
      CustomResourceDefinitions,
      { name: 'workspaces.kaito.sh' },
    );
    for (const v of crd.spec.versions) {
      v.served = v.name === 'v1alpha1';
      v.storage = v.name === 'v1alpha1';
    }
    await client.replace(CustomResourceDefinitions, crd);
    await until('registration reports v1alpha1', async () => {
      const ipc = await getProviderConfig(client, 'kaito');
      return ipc.status?.upstreamCRDVersion === 'kaito.sh/v1alpha1';
    });
    const after = (await getProviderConfig(client, 'kaito')).status
      .upstreamSchemaHash;
    expect(after).toMatch(/^[0-9a-f]{12}$/);
    expect(after).not.toBe(before);
    await createMd('old-kaito', {
      model: { id: 'org/tiny-gguf' },
      engine: { type: 'llamacpp' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
    });
    await until(
      'v1alpha1 Workspace',
      async () =>
        !!(await getWs('old-kaito', 'v1alpha1').catch(() => undefined)),
    );
    await markWorkspaceSucceeded('old-kaito', 'v1alpha1');
    await until(
      'Running on v1alpha1',
      async () => (await getMd('old-kaito')).status?.phase === 'Running',
    );
    expect((await getWs('old-kaito', 'v1alpha1')).apiVersion).toBe(
      'kaito.sh/v1alpha1',
    );
  });

  it('writes every engine, Workspace form and GPU choice as the real v1alpha1 schema accepts, no field dropped (server-side dry run)', async () => {
    await expect(dryRunMatrix('kaito.sh/v1alpha1')).resolves.toBeUndefined();
  });

  it('deletes its Workspace and lets go when the deployment moves to another provider', async () => {
    await createMd('moving', {
      model: { id: 'org/tiny-gguf' },
      engine: { type: 'llamacpp' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
    });
    await until(
      'Workspace',
      async () => !(await gone(() => getWs('moving', 'v1alpha1'))),
    );
    await selectProviderAsCore(
      client,
      { namespace: NS, name: 'moving' },
      'dynamo',
    );
    await until('Workspace deleted and finalizer removed', async () => {
      const md = await getMd('moving');
      return (
        (await gone(() => getWs('moving', 'v1alpha1'))) &&
        !(md.metadata!.finalizers ?? []).includes('airunway.ai/provider-kaito')
      );
    });
    expect((await getMd('moving')).metadata!.deletionTimestamp).toBeUndefined();
  });

  it('runs with credentials that cannot read Secrets or touch other kinds', async () => {
    await client.create(Secrets, {
      metadata: { name: 'hf-token', namespace: NS },
      stringData: { HF_TOKEN: 'x' },
    });
    const denied = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return false;
      } catch (err) {
        return err instanceof KubeApiError && err.code === 403;
      }
    };
    expect(
      await denied(() =>
        providerClient.get(Secrets, { namespace: NS, name: 'hf-token' }),
      ),
    ).toBe(true);
    expect(
      await denied(() => providerClient.list(Secrets, { namespace: NS })),
    ).toBe(true);
    expect(
      await denied(() => providerClient.list(Deployments, { namespace: NS })),
    ).toBe(true);
    expect(
      await denied(() =>
        providerClient.get(InferenceProviderConfigs, { name: 'dynamo' }),
      ),
    ).toBe(true);
  });

  it('leaves an unrelated deployment alone', async () => {
    await createModelDeploymentAsCore(
      client,
      { namespace: NS, name: 'other' },
      { model: { id: 'org/m' } },
      'dynamo',
    );
    await new Promise(r => setTimeout(r, 1500));
    const md = await getMd('other');
    expect(md.metadata!.finalizers ?? []).toEqual([]);
    expect(md.status?.phase).toBeUndefined();
  });

  it('runs as its own process from main.ts: registers, answers probes, stops on SIGTERM', async () => {
    await running.stop();
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        '--require',
        require.resolve('@backstage/cli/config/nodeTransform.cjs'),
        path.join(__dirname, 'main.ts'),
        '--metrics-port',
        '0',
        '--health-port',
        String(port),
        '--heartbeat-interval',
        '1s',
      ],
      {
        env: {
          ...process.env,
          KUBECONFIG: cluster.kubeconfigPath,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', d => (stderr += String(d)));
    const exited = new Promise<number | null>(resolve =>
      child.once('exit', code => resolve(code)),
    );
    try {
      const since = new Date().toISOString().slice(0, 19);
      await until(
        'heartbeat from the process',
        async () => {
          const ipc = await getProviderConfig(client, 'kaito');
          return ipc.status?.lastHeartbeat > since;
        },
        60_000,
      );
      await until(
        '/readyz ok',
        async () =>
          (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
        60_000,
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });
});

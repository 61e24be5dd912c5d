/**
 * The runway REST API in a real Backstage backend (startRunwayBackend) against
 * three real Kubernetes control planes with Runway's CRDs installed.
 * Clusters are configured as an administrator would: two through
 * kubernetes.clusterLocatorMethods with a service-account token, one through
 * a kubeconfig context; plus one unreachable entry, one that accepts
 * connections and never answers, and one misconfigured entry.
 */
import {
  coreServices,
  createServiceFactory,
  type AuditorService,
} from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import type { KubeClient, KubeObject } from '@runway-portal/controller-runtime';
import { startClusters, type TestCluster } from '@runway-portal/e2e-cluster';
import {
  buildEndpointPicker,
  type InferenceProviderConfig,
  KAITO_PROVIDER,
  type RunwayKind,
  runwayOpenApiDocument,
} from '@runway-portal/plugin-runway-common';
import { KIND_INFO } from '@runway-portal/plugin-runway-node';
import type { Server } from 'node:http';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { dynamoProvider } from '@runway-portal/provider-dynamo';
import { kaitoProvider } from '@runway-portal/provider-kaito';
import { kuberayProvider } from '@runway-portal/provider-kuberay';
import {
  type RunningProvider,
  startProviderForTest,
} from '@runway-portal/provider-shared/testing';
import { startRunwayBackend } from '../__testUtils__/backend';
import {
  adminClient,
  clusterConfigEntry,
  createNamespaces,
  DEPLOYMENTS,
  DGDS,
  EVENTS,
  eventually,
  JOBS,
  MODELS,
  PODS,
  portalServiceAccountToken,
  PROVIDER_CONFIGS,
  RAYSERVICES,
  registerProvider,
  RUNWAY_CRDS,
  STACKS,
  WORKSPACES,
} from '../__testUtils__/clusters';
import { contractChecked } from '../__testUtils__/contract';
import { ADMIN, TEAM_A, VIEWER } from '../__testUtils__/permissions';
import { subscribeSignals } from '../__testUtils__/signals';

jest.setTimeout(60_000);

const START_TIMEOUT_MS = 30 * 60_000;
const BOUND_MS = 2_000;
const UPSTREAM_SAMPLES = path.resolve(
  __dirname,
  '../../../../../shared/upstream/airunway',
);
const UPSTREAM_CRDS = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds',
);
const KAITO_CRD = path.join(UPSTREAM_CRDS, 'kaito-kaito.sh_workspaces.yaml');
const DYNAMO_CRD = path.join(
  UPSTREAM_CRDS,
  'dynamo-nvidia.com_dynamographdeployments.yaml',
);
const RAYSERVICE_CRD = path.join(
  UPSTREAM_CRDS,
  'kuberay-ray.io_rayservices.yaml',
);

const auth = (user: string) => ({
  Authorization: mockCredentials.user.header(user),
});

interface AuditRecord {
  eventId: string;
  meta: Record<string, unknown>;
  outcome?: 'success' | 'fail';
}
const audits: AuditRecord[] = [];
const recordingAuditor = createServiceFactory({
  service: coreServices.auditor,
  deps: {},
  factory: (): AuditorService => ({
    async createEvent(options) {
      const record: AuditRecord = {
        eventId: options.eventId,
        meta: { ...(options.meta ?? {}) },
      };
      audits.push(record);
      return {
        success: async () => {
          record.outcome = 'success';
        },
        fail: async () => {
          record.outcome = 'fail';
        },
      };
    },
  }),
});

const bodies: Record<
  RunwayKind,
  (name: string, namespace?: string) => KubeObject
> = {
  deployments: (name, namespace = 'team-a') => ({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
    },
  }),
  models: (name, namespace = 'team-a') => ({
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      source: { huggingFace: { repoId: 'meta-llama/Llama-3.1-8B-Instruct' } },
      storage: { size: '20Gi', storageClass: 'standard' },
    },
  }),
  stacks: (name, namespace = 'team-a') => ({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name, namespace, labels: { app: name } },
    spec: { distribution: { name: 'starter' } },
  }),
};
const resourceTypes = {
  deployments: DEPLOYMENTS,
  models: MODELS,
  stacks: STACKS,
} as const;

async function readDirect(
  client: KubeClient,
  kind: RunwayKind,
  namespace: string,
  name: string,
) {
  try {
    return await client.get<KubeObject>(resourceTypes[kind], {
      namespace,
      name,
    });
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

/** A "cluster" that accepts TCP connections and never answers (not even the TLS handshake). */
async function startSilentServer(): Promise<{
  url: string;
  stop: () => Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer(socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise(resolve => server.close(resolve));
    },
  };
}

describe('runway REST API against real clusters', () => {
  let east: TestCluster;
  let west: TestCluster;
  let north: TestCluster;
  let eastAdmin: KubeClient;
  let westAdmin: KubeClient;
  let server: Server;
  let stopBackend: () => Promise<void>;
  let kaitoRunning: RunningProvider | undefined;
  let westProviders: RunningProvider[] = [];
  let silent: { url: string; stop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    // East also has KAITO's Workspace CRD: its registered KAITO provider reports kaito.sh/v1beta1.
    // West has Dynamo's and KubeRay's CRDs, with their real providers (east's provider list stays as tested).
    const crds: Record<string, string[]> = {
      east: [RUNWAY_CRDS, KAITO_CRD],
      west: [RUNWAY_CRDS, DYNAMO_CRD, RAYSERVICE_CRD],
      north: [RUNWAY_CRDS],
    };
    [east, west, north] = await startClusters(
      ['east', 'west', 'north'].map(n => ({
        name: `runway-api-${n}`,
        crds: crds[n],
      })),
    );
    eastAdmin = adminClient(east);
    westAdmin = adminClient(west);
    silent = await startSilentServer();
    const northAdmin = adminClient(north);
    for (const client of [eastAdmin, westAdmin, northAdmin])
      await createNamespaces(client, ['team-a', 'team-b', 'other']);
    const [eastToken, northToken] = await Promise.all([
      portalServiceAccountToken(eastAdmin),
      portalServiceAccountToken(northAdmin),
    ]);

    // Providers in east: the real KAITO provider, which registers itself with the Workspace
    // apiVersion it detects there, and an unready Dynamo registration.
    kaitoRunning = await startProviderForTest(eastAdmin, kaitoProvider);
    westProviders = await Promise.all(
      [dynamoProvider, kuberayProvider].map(p =>
        startProviderForTest(westAdmin, p),
      ),
    );
    const dynamo = parseAllDocuments(
      fs.readFileSync(
        path.join(
          UPSTREAM_SAMPLES,
          'airunway_v1alpha1_inferenceproviderconfig.yaml',
        ),
        'utf8',
      ),
    ).map(d => d.toJS() as KubeObject)[1];
    await registerProvider(eastAdmin, dynamo, false);
    await eventually(
      async () =>
        (
          await eastAdmin.get<InferenceProviderConfig & KubeObject>(
            PROVIDER_CONFIGS,
            { name: 'kaito' },
          )
        ).status?.upstreamCRDVersion,
      20_000,
      'the KAITO provider to report its Workspace apiVersion',
    );
    await Promise.all(
      ['dynamo', 'kuberay'].map(name =>
        eventually(
          async () =>
            (
              await westAdmin.get<InferenceProviderConfig & KubeObject>(
                PROVIDER_CONFIGS,
                { name },
              )
            ).status?.upstreamCRDVersion,
          20_000,
          `the ${name} provider to report its upstream apiVersion`,
        ),
      ),
    );
    // Objects written by someone else than the portal.
    await westAdmin.apply(
      DEPLOYMENTS,
      bodies.deployments('from-kubectl', 'team-b'),
      { fieldManager: 'kubectl' },
    );
    await northAdmin.apply(
      DEPLOYMENTS,
      bodies.deployments('north-one', 'team-a'),
      { fieldManager: 'kubectl' },
    );
    await eastAdmin.apply(DEPLOYMENTS, bodies.deployments('outside', 'other'), {
      fieldManager: 'kubectl',
    });

    ({ server, stop: stopBackend } = await startRunwayBackend({
      clusters: [
        clusterConfigEntry('east', east, eastToken),
        clusterConfigEntry('north', north, northToken),
        // A real API server, with a token it does not accept.
        {
          ...clusterConfigEntry('wrong-token', east, eastToken),
          serviceAccountToken: 'not-a-valid-token',
        },
        // A cluster that never answers: a port nothing listens on.
        {
          name: 'ghost',
          url: 'https://127.0.0.1:1',
          authProvider: 'serviceAccount',
          serviceAccountToken: 'x',
        },
        // A cluster that accepts connections and never answers.
        {
          name: 'slow',
          url: silent.url,
          authProvider: 'serviceAccount',
          serviceAccountToken: 'x',
        },
        // A cluster the portal cannot use (it would need the browser user's Google token).
        {
          name: 'gke',
          url: 'https://gke.example.com',
          authProvider: 'google',
        },
      ],
      runway: {
        requestTimeout: { milliseconds: BOUND_MS },
        kubeconfig: [
          { context: west.name, name: 'west', path: west.kubeconfigPath },
        ],
        clusters: [{ name: 'east', namespaces: ['team-a', 'team-b'] }],
      },
      signals: true,
      features: [recordingAuditor],
    }));
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await kaitoRunning?.stop();
    await Promise.all(westProviders.map(p => p.stop()));
    await stopBackend?.();
    await silent?.stop();
    await Promise.all([east, west, north].map(c => c?.stop()));
  });

  // Every answer in this file, success or error, is held to the REST contract the document is derived from.
  const api = () => contractChecked(request(server));

  it('lists the clusters with health, providers and GPU capacity', async () => {
    // One pod holds 2 of the 4 GPUs of gpu-0; another wants 16 and cannot be scheduled.
    const gpuPod = (name: string, gpus: number) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'team-a' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'x',
            resources: { limits: { 'nvidia.com/gpu': String(gpus) } },
          },
        ],
      },
    });
    await eastAdmin.create(PODS, gpuPod('holds-two', 2));
    await eastAdmin.create(PODS, gpuPod('wants-sixteen', 16));
    await eventually(
      async () =>
        (
          (
            await eastAdmin.get<KubeObject>(PODS, {
              namespace: 'team-a',
              name: 'holds-two',
            })
          ).spec as any
        )?.nodeName || undefined,
      20_000,
      'the pod to be scheduled',
    );

    const res = await api().get('/api/runway/clusters').set(auth(VIEWER));
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      res.body.items.map((c: any) => [c.name, c]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'east',
      'ghost',
      'north',
      'slow',
      'west',
      'wrong-token',
    ]);
    // The distributions the stack operator embeds, for the stack form.
    expect(res.body.stackDistributions).toEqual(
      expect.arrayContaining([
        {
          name: 'starter',
          image: 'docker.io/llamastack/distribution-starter:latest',
        },
      ]),
    );
    expect(byName.east).toMatchObject({
      title: 'east (test)',
      reachable: true,
      namespaces: ['team-a', 'team-b'],
    });
    expect(byName.east.version).toMatch(/^v1\.\d+\.\d+$/); // the stamped gitVersion, never v0.0.0-master
    expect(byName.east.providers.map((p: any) => [p.name, p.ready])).toEqual([
      ['dynamo', false],
      ['kaito', true],
    ]);
    // Each provider's registration as the cluster holds it: the wizard selects against these rules.
    const kaito = byName.east.providers.find((p: any) => p.name === 'kaito');
    expect(kaito.spec.selectionRules).toEqual(
      KAITO_PROVIDER.spec?.selectionRules,
    );
    // (the API server adds the CRD's defaults, e.g. severity: error)
    expect(kaito.spec.compatibilityRules).toMatchObject(
      KAITO_PROVIDER.spec?.compatibilityRules ?? [],
    );
    expect(byName.east.gpus).toEqual([
      {
        resource: 'nvidia.com/gpu',
        allocatable: 4,
        requested: 2,
        pending: 16,
        nodes: 1,
      },
    ]);
    expect(byName.ghost.reachable).toBe(false);
    const errorOf = (cluster: string) =>
      res.body.errors.find((e: any) => e.cluster === cluster);
    expect(errorOf('ghost').reason).toBe('Unreachable');
    expect(byName.slow.reachable).toBe(false);
    expect(
      res.body.errors
        .filter((e: any) => e.cluster === 'slow')
        .map((e: any) => e.reason),
    ).toContain('Timeout');
    expect(errorOf('gke')).toMatchObject({ reason: 'Misconfigured' });
    expect(errorOf('gke').message).toMatch(/authProvider "google"/);
  });

  it("lists a cluster's storage classes and a namespace's Secret names (never their values) for the forms", async () => {
    await eastAdmin.create(
      {
        group: 'storage.k8s.io',
        version: 'v1',
        plural: 'storageclasses',
        kind: 'StorageClass',
        namespaced: false,
      },
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: {
          name: 'picker-default',
          annotations: {
            'storageclass.kubernetes.io/is-default-class': 'true',
          },
        },
        provisioner: 'example.com/local',
      } as KubeObject,
    );
    const classes = await api()
      .get('/api/runway/clusters/east/storageclasses')
      .set(auth(VIEWER));
    expect(classes.status).toBe(200);
    expect(classes.body.items[0]).toEqual({
      name: 'picker-default',
      provisioner: 'example.com/local',
      isDefault: true,
    });

    await eastAdmin.create(
      {
        group: '',
        version: 'v1',
        plural: 'secrets',
        kind: 'Secret',
        namespaced: true,
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'hf-token', namespace: 'team-a' },
        stringData: { HF_TOKEN: 'do-not-show' },
      } as KubeObject,
    );
    const secrets = await api()
      .get('/api/runway/clusters/east/namespaces/team-a/secrets')
      .set(auth(TEAM_A));
    expect(secrets.status).toBe(200);
    expect(secrets.body.items).toContainEqual({ name: 'hf-token' });
    expect(JSON.stringify(secrets.body)).not.toContain('do-not-show');
    expect(JSON.stringify(secrets.body)).not.toContain(
      Buffer.from('do-not-show').toString('base64'),
    );

    // Only who may create a model or a stack there; only namespaces open to the portal.
    const viewer = await api()
      .get('/api/runway/clusters/east/namespaces/team-a/secrets')
      .set(auth(VIEWER));
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.message).toMatch(
      /runway\.models\.create or runway\.stacks\.create/,
    );
    const closed = await api()
      .get('/api/runway/clusters/east/namespaces/other/secrets')
      .set(auth(ADMIN));
    expect(closed.status).toBe(403);
    expect(closed.body.error.message).toMatch(/not open to the portal/);
    const ghost = await api()
      .get('/api/runway/clusters/ghost/storageclasses')
      .set(auth(VIEWER));
    expect(ghost.status).toBe(503);

    // The hub search answers 503 naming the hub when HF_ENDPOINT does not answer (its results: packages/hub's tests against the stand-in).
    const saved = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = 'http://127.0.0.1:1';
    try {
      const hub = await api()
        .get('/api/runway/hub/models?search=llama')
        .set(auth(VIEWER));
      expect(hub.status).toBe(503);
      expect(hub.body.error.message).toMatch(
        /searching the hub at http:\/\/127\.0\.0\.1:1 failed: Could not reach the hub/,
      );
    } finally {
      if (saved === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = saved;
    }
  });

  it('lists deployments across clusters, with filters', async () => {
    const res = await api().get('/api/runway/deployments').set(auth(VIEWER));
    expect(res.status).toBe(200);
    const names = res.body.items.map(
      (i: any) =>
        `${i.cluster}/${i.object.metadata.namespace}/${i.object.metadata.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'north/team-a/north-one',
        'west/team-b/from-kubectl',
      ]),
    );
    // Outside east's namespace allow-list: never shown.
    expect(names).not.toContain('east/other/outside');
    expect(res.body.items[0].object.metadata.managedFields).toBeUndefined();
    expect(
      res.body.clusters.find((c: any) => c.cluster === 'west'),
    ).toMatchObject({
      cluster: 'west',
      synced: true,
      dataAgeMs: 0,
      stale: false,
    });

    const filtered = await api()
      .get('/api/runway/deployments')
      .query({
        cluster: ['west', 'east'],
        labelSelector: 'app in (from-kubectl)',
        namespace: 'team-b',
      })
      .set(auth(VIEWER));
    expect(filtered.body.items.map((i: any) => i.object.metadata.name)).toEqual(
      ['from-kubectl'],
    );
    expect(filtered.body.clusters.map((c: any) => c.cluster)).toEqual([
      'east',
      'west',
    ]);

    const bad = await api()
      .get('/api/runway/deployments')
      .query({ labelSelector: 'a b c' })
      .set(auth(VIEWER));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^labelSelector: /);
    const unknown = await api()
      .get('/api/runway/deployments')
      .query({ cluster: 'nowhere' })
      .set(auth(VIEWER));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(
      /cluster "nowhere" is not configured/,
    );
  });

  describe.each(['deployments', 'models', 'stacks'] as const)('%s', kind => {
    const name = `crud-${kind}`;

    it('previews, creates, reads, updates and deletes through the real API server', async () => {
      const body = bodies[kind](name);
      const preview = await api()
        .post(`/api/runway/${kind}/east/preview`)
        .send(body)
        .set(auth(ADMIN));
      expect(preview.status).toBe(200);
      expect(preview.body.objects).toHaveLength(1);
      expect(preview.body.objects[0].action).toBe('create');
      expect(preview.body.objects[0].object.metadata).toMatchObject({
        name,
        namespace: 'team-a',
      });
      expect(preview.body.objects[0].object.metadata.uid).toBeTruthy(); // the API server filled it in
      // A GPU vLLM deployment in east: only KAITO is ready there, and its rules do not take GPU vLLM.
      // A stack: what the stack operator's own code would write (its config.yaml ConfigMap first).
      expect(preview.body.providerObjects.status).toBe(
        {
          deployments: 'no-provider',
          models: 'not-applicable',
          stacks: 'available',
        }[kind],
      );
      const configYaml = preview.body.providerObjects.objects.find(
        (o: any) => o.kind === 'ConfigMap',
      )?.data?.['config.yaml'];
      expect(configYaml ? /^version: 2/m.test(configYaml) : undefined).toBe(
        kind === 'stacks' ? true : undefined,
      );
      expect(await readDirect(eastAdmin, kind, 'team-a', name)).toBeUndefined();
      const dry = await api()
        .post(`/api/runway/${kind}/east`)
        .query({ dryRun: true })
        .send(body)
        .set(auth(ADMIN));
      expect(dry.status).toBe(201);
      expect(dry.body).toMatchObject({
        cluster: 'east',
        dryRun: true,
        object: { metadata: { name } },
      });
      expect(await readDirect(eastAdmin, kind, 'team-a', name)).toBeUndefined();

      const created = await api()
        .post(`/api/runway/${kind}/east`)
        .send(body)
        .set(auth(ADMIN));
      expect(created.status).toBe(201);
      const stored = await readDirect(eastAdmin, kind, 'team-a', name);
      expect(stored?.metadata?.uid).toBe(created.body.object.metadata.uid);
      expect(
        created.body.object.metadata.managedFields ??
          stored?.metadata?.managedFields,
      ).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            manager: 'runway-portal',
            operation: 'Apply',
          }),
        ]),
      );
      const again = await api()
        .post(`/api/runway/${kind}/east`)
        .send(body)
        .set(auth(ADMIN));
      expect(again.status).toBe(409);

      const detail = await eventually(async () => {
        const r = await api()
          .get(`/api/runway/${kind}/east/team-a/${name}`)
          .set(auth(VIEWER));
        return r.status === 200 ? r : undefined;
      });
      expect(detail.body).toMatchObject({
        cluster: 'east',
        conditions: [],
        owned: [],
        errors: [],
      });
      expect(detail.body.object.metadata.uid).toBe(stored?.metadata?.uid);

      const changed = {
        ...body,
        metadata: { ...body.metadata, labels: { app: name, tier: 'gold' } },
      };
      const updated = await api()
        .put(`/api/runway/${kind}/east/team-a/${name}`)
        .send(changed)
        .set(auth(ADMIN));
      expect(updated.status).toBe(200);
      expect(
        (await readDirect(eastAdmin, kind, 'team-a', name))?.metadata?.labels,
      ).toEqual({ app: name, tier: 'gold' });

      const deleted = await api()
        .delete(`/api/runway/${kind}/east/team-a/${name}`)
        .set(auth(ADMIN));
      expect(deleted.status).toBe(204);
      await eventually(async () =>
        (await readDirect(eastAdmin, kind, 'team-a', name)) ? undefined : true,
      );

      const recorded = audits
        .filter(a => a.meta.name === name)
        .map(a => [a.eventId, a.outcome, a.meta.kind, a.meta.dryRun]);
      expect(recorded).toEqual([
        ['runway-resource-create', 'success', kind, true],
        ['runway-resource-create', 'success', kind, false],
        ['runway-resource-create', 'fail', kind, false],
        ['runway-resource-update', 'success', kind, false],
        ['runway-resource-delete', 'success', kind, undefined],
      ]);
    });

    it('answers an invalid body with field errors and writes nothing', async () => {
      const body = bodies[kind](`invalid-${kind}`);
      const invalid = {
        ...body,
        metadata: { ...body.metadata, name: 'Not_Valid' },
        spec: { ...(body.spec as object), bogus: true },
      };
      const res = await api()
        .post(`/api/runway/${kind}/east`)
        .send(invalid)
        .set(auth(ADMIN));
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('InputError');
      const paths = res.body.issues
        .filter((i: any) => i.severity === 'error')
        .map((i: any) => i.path);
      expect(paths).toEqual(expect.arrayContaining(['metadata.name']));
      const list = await eastAdmin.list(resourceTypes[kind], {
        namespace: 'team-a',
      });
      expect(list.items.map(o => o.metadata?.name)).not.toContain('Not_Valid');
    });

    it('refuses a user without permission (403) and writes nothing', async () => {
      const body = bodies[kind](`denied-${kind}`);
      const viewer = await api()
        .post(`/api/runway/${kind}/east`)
        .send(body)
        .set(auth(VIEWER));
      expect(viewer.status).toBe(403);
      expect(viewer.body.error.message).toMatch(
        new RegExp(`runway\\.${kind}\\.create`),
      );
      // team-a may write only in namespace team-a.
      const elsewhere = await api()
        .post(`/api/runway/${kind}/east`)
        .send(bodies[kind](`denied-${kind}`, 'team-b'))
        .set(auth(TEAM_A));
      expect(elsewhere.status).toBe(403);
      expect(
        await readDirect(eastAdmin, kind, 'team-a', `denied-${kind}`),
      ).toBeUndefined();
      expect(
        await readDirect(eastAdmin, kind, 'team-b', `denied-${kind}`),
      ).toBeUndefined();
      const deleteDenied = await api()
        .delete(`/api/runway/${kind}/west/team-b/anything`)
        .set(auth(TEAM_A));
      expect(deleteDenied.status).toBe(403);
    });

    it('refuses an update without permission (403) and writes nothing', async () => {
      const target = `guarded-${kind}`;
      for (const namespace of ['team-a', 'team-b']) {
        await eastAdmin.apply(
          resourceTypes[kind],
          bodies[kind](target, namespace),
          { fieldManager: 'kubectl' },
        );
      }
      const before = await readDirect(eastAdmin, kind, 'team-a', target);
      const changed = (namespace: string) => {
        const body = bodies[kind](target, namespace);
        return {
          ...body,
          metadata: { ...body.metadata, labels: { app: target, tier: 'gold' } },
        };
      };
      const viewer = await api()
        .put(`/api/runway/${kind}/east/team-a/${target}`)
        .send(changed('team-a'))
        .set(auth(VIEWER));
      expect(viewer.status).toBe(403);
      expect(viewer.body.error.message).toMatch(
        new RegExp(`runway\\.${kind}\\.update`),
      );
      // team-a may update only in namespace team-a.
      const elsewhere = await api()
        .put(`/api/runway/${kind}/east/team-b/${target}`)
        .send(changed('team-b'))
        .set(auth(TEAM_A));
      expect(elsewhere.status).toBe(403);
      const after = await readDirect(eastAdmin, kind, 'team-a', target);
      expect(after?.metadata?.resourceVersion).toBe(
        before?.metadata?.resourceVersion,
      );
      expect(
        (await readDirect(eastAdmin, kind, 'team-b', target))?.metadata?.labels,
      ).toEqual({ app: target });
      expect(audits.filter(a => a.meta.name === target)).toEqual([]);
    });

    it('answers an invalid update with field errors and writes nothing', async () => {
      const target = `invalid-update-${kind}`;
      const body = bodies[kind](target);
      await eastAdmin.apply(resourceTypes[kind], body, {
        fieldManager: 'kubectl',
      });
      const before = await readDirect(eastAdmin, kind, 'team-a', target);
      // One field error per kind, together with an otherwise harmless label change.
      const badSpec: Record<RunwayKind, [string, Record<string, unknown>]> = {
        deployments: [
          'spec.resources.gpu.count',
          { ...(body.spec as object), resources: { gpu: { count: -1 } } },
        ],
        models: [
          'spec.storage.size',
          {
            ...(body.spec as object),
            storage: { size: 'lots', storageClass: 'standard' },
          },
        ],
        stacks: [
          'spec.distribution.name',
          { ...(body.spec as object), distribution: { name: 42 } },
        ],
      };
      const [field, spec] = badSpec[kind];
      const invalid = {
        ...body,
        metadata: { ...body.metadata, labels: { app: target, tier: 'gold' } },
        spec,
      };
      const res = await api()
        .put(`/api/runway/${kind}/east/team-a/${target}`)
        .send(invalid)
        .set(auth(ADMIN));
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('InputError');
      const errors = res.body.issues.filter((i: any) => i.severity === 'error');
      expect(errors.map((i: any) => i.path)).toContain(field);
      expect(errors.find((i: any) => i.path === field).message).toMatch(
        new RegExp(field.replace(/\./g, '\\.')),
      );
      const after = await readDirect(eastAdmin, kind, 'team-a', target);
      expect(after?.metadata?.resourceVersion).toBe(
        before?.metadata?.resourceVersion,
      );
      expect(after?.metadata?.labels).toEqual({ app: target });
    });

    it('refuses a namespace outside the allow-list', async () => {
      const body = bodies[kind](`outside-${kind}`, 'other');
      const res = await api()
        .post(`/api/runway/${kind}/east`)
        .send(body)
        .set(auth(ADMIN));
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(
        /namespace "other" of cluster "east" is not open to the portal .* runway\.clusters/,
      );
      expect(
        await readDirect(eastAdmin, kind, 'other', `outside-${kind}`),
      ).toBeUndefined();
    });
  });

  it('shows only what a conditionally allowed user may read', async () => {
    const res = await api().get('/api/runway/deployments').set(auth(TEAM_A));
    expect(res.status).toBe(200);
    const namespaces = new Set(
      res.body.items.map((i: any) => i.object.metadata.namespace),
    );
    expect([...namespaces]).toEqual(['team-a']);
    const created = await api()
      .post('/api/runway/models/west')
      .send(bodies.models('team-a-model'))
      .set(auth(TEAM_A));
    expect(created.status).toBe(201);
  });

  it('reports apply conflicts with other writers, and takes fields over only with force', async () => {
    const name = 'conflicted';
    await api()
      .post('/api/runway/deployments/west')
      .send(bodies.deployments(name))
      .set(auth(ADMIN))
      .expect(201);
    const kubectlChange = bodies.deployments(name);
    (kubectlChange.spec as any).engine.contextLength = 8192;
    await westAdmin.apply(DEPLOYMENTS, kubectlChange, {
      fieldManager: 'kubectl',
    });

    const mine = bodies.deployments(name);
    (mine.spec as any).engine.contextLength = 4096;
    const conflict = await api()
      .put(`/api/runway/deployments/west/team-a/${name}`)
      .send(mine)
      .set(auth(ADMIN));
    expect(conflict.status).toBe(409);
    expect(conflict.body.conflicts).toEqual([
      expect.objectContaining({
        manager: 'kubectl',
        field: '.spec.engine.contextLength',
      }),
    ]);
    const forced = await api()
      .put(`/api/runway/deployments/west/team-a/${name}`)
      .query({ force: true })
      .send(mine)
      .set(auth(ADMIN));
    expect(forced.status).toBe(200);
    expect((forced.body.object.spec as any).engine.contextLength).toBe(4096);
  });

  it('previews the engine and provider a deployment would get', async () => {
    const body = bodies.deployments('auto-engine');
    (body.spec as any).engine = {};
    delete (body.spec as any).resources;
    const res = await api()
      .post('/api/runway/deployments/east/preview')
      .send(body)
      .set(auth(ADMIN));
    expect(res.status).toBe(200);
    // Only kaito is ready; CPU-only: llama.cpp via KAITO.
    expect(res.body.selection.engine).toMatchObject({
      ok: true,
      engine: 'llamacpp',
      auto: true,
    });
    expect(res.body.selection.provider).toMatchObject({
      ok: true,
      provider: 'kaito',
      auto: true,
    });
  });

  it("previews the KAITO Workspace the provider would write for seed 000's example 2, and writes nothing", async () => {
    // Seed 000 section 4.2, example 2 (CPU-only llama.cpp), in a namespace open to the portal,
    // previewed against the registration the real KAITO provider wrote.
    const body = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'gemma-cpu', namespace: 'team-a' },
      spec: {
        model: {
          id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
          source: 'huggingface',
        },
        engine: { type: 'llamacpp' },
        serving: { mode: 'aggregated' },
        scaling: { replicas: 1 },
        resources: { gpu: { count: 0 }, memory: '16Gi', cpu: '8' },
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
      },
    };
    // The backend's cache of east's registrations follows the provider's status write.
    const res = await eventually(
      async () => {
        const r = await api()
          .post('/api/runway/deployments/east/preview')
          .send(body)
          .set(auth(ADMIN));
        return r.body.providerObjects?.status === 'available' ? r : undefined;
      },
      10_000,
      'the preview to have the provider objects',
    );
    expect(res.body.selection.provider).toMatchObject({
      ok: true,
      provider: 'kaito',
    });
    const uid = res.body.objects[0].object.metadata.uid;
    expect(res.body.providerObjects).toMatchObject({
      status: 'available',
      provider: 'kaito',
      apiVersion: 'kaito.sh/v1beta1',
      warnings: [],
    });
    expect(res.body.providerObjects.objects).toHaveLength(1);
    // The seed's Workspace, plus what every provider resource carries.
    expect(res.body.providerObjects.objects[0]).toMatchObject({
      apiVersion: 'kaito.sh/v1beta1',
      kind: 'Workspace',
      metadata: {
        name: 'gemma-cpu',
        namespace: 'team-a',
        labels: {
          'airunway.ai/model-source': 'huggingface',
          'airunway.ai/managed-by': 'airunway',
        },
        ownerReferences: [
          {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            name: 'gemma-cpu',
            uid,
            controller: true,
          },
        ],
      },
      resource: {
        count: 1,
        labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux' } },
      },
      inference: {
        template: {
          spec: {
            containers: [
              {
                name: 'model',
                image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
                args: [
                  'huggingface://google/gemma-3-1b-it-qat-q8_0-gguf/gemma-3-1b-it-q8_0.gguf',
                  '--address=:5000',
                ],
                ports: [{ containerPort: 5000 }],
                resources: { requests: { memory: '16Gi', cpu: '8' } },
              },
            ],
          },
        },
      },
    });
    // The real KAITO CRD accepts the Workspace as previewed (its own server-side dry run).
    const accepted = await eastAdmin.create<KubeObject>(
      WORKSPACES,
      res.body.providerObjects.objects[0],
      { fieldManager: 'test', dryRun: true },
    );
    expect(accepted.metadata?.name).toBe('gemma-cpu');
    // A preview writes nothing: neither the deployment nor the provider's object.
    expect(
      await readDirect(eastAdmin, 'deployments', 'team-a', 'gemma-cpu'),
    ).toBeUndefined();
    expect(
      (await eastAdmin.list(WORKSPACES, { namespace: 'team-a' })).items,
    ).toEqual([]);
    expect(audits.filter(a => a.meta.name === 'gemma-cpu')).toEqual([]);

    // A provider that is not registered in that cluster: said so, nothing shown.
    const elsewhere = await api()
      .post('/api/runway/deployments/east/preview')
      .send({ ...body, spec: { ...body.spec, provider: { name: 'kuberay' } } })
      .set(auth(ADMIN));
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.providerObjects).toMatchObject({
      status: 'provider-unavailable',
      provider: 'kuberay',
      objects: [],
    });
    expect(elsewhere.body.providerObjects.message).toMatch(
      /Provider 'kuberay' is not registered/,
    );
  });

  it.each([
    ['dynamo', 'nvidia.com/v1beta1', 'DynamoGraphDeployment', DGDS],
    ['kuberay', 'ray.io/v1', 'RayService', RAYSERVICES],
  ] as const)(
    'previews the %s object the real provider would write, accepted by its real CRD, and writes nothing',
    async (provider, apiVersion, kind, type) => {
      const name = `preview-${provider}`;
      // Seed 000 section 4.2, example 1 (GPU vLLM), with the provider named explicitly.
      const body = {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name, namespace: 'team-a' },
        spec: {
          model: {
            id: 'meta-llama/Llama-3.1-8B-Instruct',
            source: 'huggingface',
          },
          provider: { name: provider },
          engine: { type: 'vllm', contextLength: 8192 },
          serving: { mode: 'aggregated' },
          scaling: { replicas: 1 },
          resources: { gpu: { count: 1 }, memory: '32Gi' },
          secrets: { huggingFaceToken: 'hf-token' },
        },
      };
      // The backend's cache of west's registrations follows the providers' status writes.
      const res = await eventually(
        async () => {
          const r = await api()
            .post('/api/runway/deployments/west/preview')
            .send(body)
            .set(auth(ADMIN));
          return r.body.providerObjects?.status === 'available' ? r : undefined;
        },
        10_000,
        `the preview to have the ${provider} objects`,
      );
      expect(res.body.selection.provider).toMatchObject({ ok: true, provider });
      expect(res.body.providerObjects).toMatchObject({
        status: 'available',
        provider,
        apiVersion,
        warnings: [],
      });
      const uid = res.body.objects[0].object.metadata.uid;
      const previewed = res.body.providerObjects.objects.filter(
        (o: KubeObject) => o.kind === kind,
      );
      expect(previewed).toHaveLength(1);
      expect(previewed[0]).toMatchObject({
        apiVersion,
        kind,
        metadata: {
          name,
          namespace: 'team-a',
          labels: { 'airunway.ai/managed-by': 'airunway' },
          ownerReferences: [
            {
              apiVersion: 'airunway.ai/v1alpha1',
              kind: 'ModelDeployment',
              name,
              uid,
              controller: true,
            },
          ],
        },
      });
      // The provider's transformation, not an empty shell: the model is in what it would run.
      expect(JSON.stringify(previewed[0].spec)).toContain(
        'Llama-3.1-8B-Instruct',
      );
      // The real CRD accepts the object as previewed (its own server-side dry run), and prunes nothing of it.
      const accepted = await westAdmin.create<KubeObject>(type, previewed[0], {
        fieldManager: 'test',
        dryRun: true,
      });
      expect(accepted).toMatchObject(previewed[0]);
      // A preview writes nothing: neither the deployment nor the provider's object.
      expect(
        await readDirect(westAdmin, 'deployments', 'team-a', name),
      ).toBeUndefined();
      expect(
        (await westAdmin.list(type, { namespace: 'team-a' })).items,
      ).toEqual([]);
      expect(audits.filter(a => a.meta.name === name)).toEqual([]);
    },
  );

  it('shows the upstream objects a resource owns and their events', async () => {
    const created = await api()
      .post('/api/runway/models/east')
      .send(bodies.models('owner'))
      .set(auth(ADMIN))
      .expect(201);
    const uid = created.body.object.metadata.uid;
    const ownerRef = {
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      name: 'owner',
      uid,
      controller: true,
    };
    const job = await eastAdmin.create<KubeObject>(JOBS, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'model-download-owner',
        namespace: 'team-a',
        ownerReferences: [ownerRef],
      },
      spec: {
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'download', image: 'busybox' }],
          },
        },
      },
    });
    const event = (n: string, involved: KubeObject, reason: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: n, namespace: 'team-a' },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata!.name,
        namespace: 'team-a',
        uid: involved.metadata!.uid,
      },
      reason,
      message: `${reason} happened`,
      type: 'Normal',
      source: { component: 'test' },
      firstTimestamp: new Date().toISOString(),
      lastTimestamp: new Date().toISOString(),
    });
    await eastAdmin.create(
      EVENTS,
      event('owner.1', created.body.object, 'DownloadStarted'),
    );
    await eastAdmin.create(EVENTS, event('job.1', job, 'SuccessfulCreate'));

    const detail = await eventually(async () => {
      const r = await api()
        .get('/api/runway/models/east/team-a/owner')
        .set(auth(VIEWER));
      const reasons = (r.body.events ?? []).map((e: any) => e.reason);
      return r.body.owned?.length === 1 &&
        reasons.includes('DownloadStarted') &&
        reasons.includes('SuccessfulCreate')
        ? r
        : undefined;
    });
    expect(detail.body.owned[0]).toMatchObject({
      kind: 'Job',
      metadata: { name: 'model-download-owner' },
    });
    expect(detail.body.errors).toEqual([]);
  });

  it("shows a stack's generated config.yaml ConfigMap among the objects it owns (only the operator's, by its label)", async () => {
    const created = await api()
      .post('/api/runway/stacks/east')
      .send(bodies.stacks('configured'))
      .set(auth(ADMIN))
      .expect(201);
    const ownerReferences = [
      {
        apiVersion: 'llamastack.io/v1alpha2',
        kind: 'LlamaStackDistribution',
        name: 'configured',
        uid: created.body.object.metadata.uid,
        controller: true,
      },
    ];
    const configMap = (name: string, labels: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'team-a', labels, ownerReferences },
      data: { 'config.yaml': 'version: 2\n' },
    });
    const CONFIGMAPS = {
      group: '',
      version: 'v1',
      plural: 'configmaps',
      kind: 'ConfigMap',
      namespaced: true,
    };
    await eastAdmin.create(
      CONFIGMAPS,
      configMap('configured-config-0123abcd', {
        'app.kubernetes.io/managed-by': 'runway-stacks',
        'llamastack.io/generated-config': 'true',
      }),
    );
    // Not the operator's generated config: the cache never watches every ConfigMap.
    await eastAdmin.create(CONFIGMAPS, configMap('configured-other', {}));
    const detail = await eventually(async () => {
      const r = await api()
        .get('/api/runway/stacks/east/team-a/configured')
        .set(auth(VIEWER));
      return r.body.owned?.length ? r : undefined;
    });
    expect(detail.body.owned.map((o: any) => o.metadata.name)).toEqual([
      'configured-config-0123abcd',
    ]);
    expect(detail.body.owned[0].data['config.yaml']).toBe('version: 2\n');
  });

  it("shows every object a deployment owns: storage, configuration and the endpoint picker's objects", async () => {
    const name = 'with-storage';
    const created = await api()
      .post('/api/runway/deployments/east')
      .send(bodies.deployments(name))
      .set(auth(ADMIN))
      .expect(201);
    const owner = {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      name,
      uid: created.body.object.metadata.uid as string,
    };
    const ownerReferences = [
      { ...owner, controller: true, blockOwnerDeletion: true },
    ];
    const providerLabels = { 'airunway.ai/managed-by': 'airunway' };
    const apply = async (obj: KubeObject) =>
      eastAdmin.apply(
        await eastAdmin.resolve(obj.apiVersion!, obj.kind!),
        obj,
        { fieldManager: 'test-provider' },
      );
    // What a provider writes (labelled airunway.ai/managed-by): a storage PVC and KAITO's inference ConfigMap.
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: `${name}-models`,
        namespace: 'team-a',
        labels: providerLabels,
        ownerReferences,
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '20Gi' } },
      },
    } as KubeObject);
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${name}-inference-config`,
        namespace: 'team-a',
        labels: providerLabels,
        ownerReferences,
      },
      data: { 'inference_config.yaml': 'vllm: {}' },
    } as KubeObject);
    // What the core's gateway writes (labelled app.kubernetes.io/managed-by: airunway-core): the endpoint picker.
    const picker = buildEndpointPicker({
      name: `${name}-epp`,
      namespace: 'team-a',
      poolName: name,
      owner,
    });
    for (const obj of picker) await apply(obj as KubeObject);
    // Neither is shown: an unlabelled ConfigMap (not watched at all) and a labelled one nobody owns.
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${name}-unlabelled`,
        namespace: 'team-a',
        ownerReferences,
      },
    } as KubeObject);
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${name}-orphan`,
        namespace: 'team-a',
        labels: providerLabels,
      },
    } as KubeObject);

    const expected = [
      ['ConfigMap', `${name}-epp`],
      ['ConfigMap', `${name}-inference-config`],
      ['Deployment', `${name}-epp`],
      ['PersistentVolumeClaim', `${name}-models`],
      ['Role', `${name}-epp`],
      ['RoleBinding', `${name}-epp`],
      ['Service', `${name}-epp`],
      ['ServiceAccount', `${name}-epp`],
    ];
    const ownedOf = (body: any) =>
      (body.owned ?? [])
        .map((o: KubeObject) => [o.kind, o.metadata?.name])
        .sort((a: string[], b: string[]) =>
          a.join('/').localeCompare(b.join('/')),
        );
    const detail = await eventually(
      async () => {
        const r = await api()
          .get(`/api/runway/deployments/east/team-a/${name}`)
          .set(auth(VIEWER));
        return r.status === 200 && ownedOf(r.body).length >= expected.length
          ? r
          : undefined;
      },
      20_000,
      'the owned objects in the detail answer',
    );
    expect(ownedOf(detail.body)).toEqual(expected);
    expect(detail.body.errors).toEqual([]);
    // Whole objects, not stubs.
    const configMap = detail.body.owned.find(
      (o: KubeObject) => o.metadata?.name === `${name}-inference-config`,
    );
    expect(configMap.data).toEqual({ 'inference_config.yaml': 'vllm: {}' });
    expect(configMap.metadata.managedFields).toBeUndefined();
  });

  it('answers lists within the bound while a cluster accepts connections and never answers', async () => {
    const started = Date.now();
    const res = await api().get('/api/runway/deployments').set(auth(VIEWER));
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(elapsed).toBeLessThan(BOUND_MS + 1_000);
    const names = res.body.items.map(
      (i: any) =>
        `${i.cluster}/${i.object.metadata.namespace}/${i.object.metadata.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'north/team-a/north-one',
        'west/team-b/from-kubectl',
      ]),
    );
    expect(res.body.items.some((i: any) => i.cluster === 'slow')).toBe(false);
    expect(
      res.body.clusters.find((c: any) => c.cluster === 'slow'),
    ).toMatchObject({
      cluster: 'slow',
      synced: false,
      dataAgeMs: null,
      state: 'unreachable',
      stale: false,
    });
    // Once its list has timed out, the cluster is reported as such at once.
    const timedOut = await eventually(
      async () => {
        const r = await api().get('/api/runway/deployments').set(auth(VIEWER));
        return r.body.errors.find((e: any) => e.cluster === 'slow')?.reason ===
          'Timeout'
          ? r
          : undefined;
      },
      4 * BOUND_MS,
      'the slow cluster to be reported as timing out',
    );
    expect(
      timedOut.body.errors.find((e: any) => e.cluster === 'slow').message,
    ).toMatch(/cluster "slow" did not answer in time/);
    expect(
      timedOut.body.errors.some((e: any) =>
        ['east', 'west'].includes(e.cluster),
      ),
    ).toBe(false);
  });

  it('pushes a change made directly in a cluster to a subscribed client within 2 seconds', async () => {
    // The list starts (and warms) the watch; from then on changes are pushed.
    await api().get('/api/runway/deployments').set(auth(VIEWER)).expect(200);
    const subscriber = await subscribeSignals(server, ['runway:deployments']);
    try {
      const changedAt = Date.now();
      await westAdmin.apply(
        DEPLOYMENTS,
        { ...bodies.deployments('pushed', 'team-b') },
        { fieldManager: 'kubectl' },
      );
      const signal = await subscriber.waitFor(
        m => m.message.cluster === 'west' && m.message.namespace === 'team-b',
        2_000,
      );
      expect(signal.channel).toBe('runway:deployments');
      expect(signal.message).toMatchObject({
        kind: 'deployments',
        cluster: 'west',
        namespace: 'team-b',
      });
      expect(signal.message.name).toBeUndefined(); // which object changed is read through the API, with permissions
      expect(signal.receivedAt - changedAt).toBeLessThan(2_000);
    } finally {
      subscriber.close();
    }
  });

  it('answers from the other clusters, within the bound, while one is down, and recovers', async () => {
    await api().get('/api/runway/deployments').set(auth(VIEWER)).expect(200);
    await north.stopControlPlane();
    try {
      const started = Date.now();
      const res = await api().get('/api/runway/deployments').set(auth(VIEWER));
      const elapsed = Date.now() - started;
      expect(res.status).toBe(200);
      expect(elapsed).toBeLessThan(BOUND_MS + 1_000);
      const errors = Object.fromEntries(
        res.body.errors.map((e: any) => [e.cluster, e]),
      );
      expect(errors.north.reason).toBe('Unreachable');
      expect(errors.ghost.reason).toMatch(/Unreachable|Timeout/);
      expect(errors.gke.reason).toBe('Misconfigured');
      expect(errors['wrong-token'].reason).toBe('Unauthorized');
      expect(errors['wrong-token'].message).toMatch(
        /renew its serviceAccountToken/,
      );
      expect(errors.east).toBeUndefined();
      expect(errors.west).toBeUndefined();
      const clusters = res.body.items.map((i: any) => i.cluster);
      expect(clusters).toEqual(expect.arrayContaining(['west']));
      // north's last known data stays, marked with its age; ghost never had any.
      const freshness = Object.fromEntries(
        res.body.clusters.map((c: any) => [c.cluster, c]),
      );
      expect(freshness.north.synced).toBe(true);
      expect(freshness.north).toMatchObject({
        state: 'unreachable',
        stale: true,
      });
      expect(freshness.ghost).toMatchObject({
        cluster: 'ghost',
        synced: false,
        dataAgeMs: null,
        state: 'unreachable',
        stale: false,
        lastSeen: null,
      });
      await new Promise(r => setTimeout(r, 300));
      const later = await api()
        .get('/api/runway/deployments')
        .set(auth(VIEWER));
      expect(
        later.body.clusters.find((c: any) => c.cluster === 'north').dataAgeMs,
      ).toBeGreaterThan(0);
    } finally {
      await north.startControlPlane();
    }
    const recovered = await eventually(
      async () => {
        const r = await api().get('/api/runway/deployments').set(auth(VIEWER));
        return r.body.errors.some((e: any) => e.cluster === 'north')
          ? undefined
          : r;
      },
      45_000,
      'the north cluster error to clear',
    );
    expect(
      recovered.body.clusters.find((c: any) => c.cluster === 'north'),
    ).toMatchObject({
      cluster: 'north',
      synced: true,
      dataAgeMs: 0,
      stale: false,
    });
  });

  it('serves its OpenAPI document', async () => {
    const res = await api().get('/api/runway/openapi.json').set(auth(VIEWER));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/runway/clusters', '/api/runway/{kind}']),
    );
    // The served document is runway-common's, derived from the contract the answers above were checked against.
    expect(res.body.components).toEqual(
      JSON.parse(JSON.stringify(runwayOpenApiDocument.components)),
    );
    expect(Object.keys(res.body.paths)).toEqual(
      Object.keys(runwayOpenApiDocument.paths).map(p => `/api/runway${p}`),
    );
    expect(KIND_INFO.deployments.kind).toBe('ModelDeployment');
  });
});

import {
  KubeClient,
  Manager,
  Namespaces,
  Services,
  silentLogger,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { FAIL_ANNOTATION } from './stages';
import { registerSimulators, type Registered } from './simulator';
import { gatewayApiCrdFiles, upstreamCrdFiles } from './upstreamCrds';
import { SIMULATED_GATEWAY_CLASS } from './gateway';

const STEP_MS = 300;
const NS = 'sim';

let cluster: TestCluster;
let client: KubeClient;
let mgr: Manager;
let registered: Registered;
let running: Promise<void>;

beforeAll(async () => {
  cluster = await startCluster({
    name: 'simulators-test',
    crds: [...upstreamCrdFiles(), ...gatewayApiCrdFiles()],
  });
  client = new KubeClient(cluster.kubeConfig());
  await client.create(Namespaces, { metadata: { name: NS } });
  mgr = new Manager({
    name: 'simulators-test',
    client: new KubeClient(cluster.kubeConfig()),
    logger: silentLogger,
    metrics: false,
    healthProbes: false,
    handleSignals: false,
  });
  registered = await registerSimulators(mgr, { stepDelayMs: STEP_MS });
  running = mgr.start();
}, 30 * 60_000);

afterAll(async () => {
  await mgr?.stop();
  await running?.catch(() => undefined);
  client?.close();
  await cluster?.stop();
}, 60_000);

const rt = (
  group: string,
  version: string,
  plural: string,
  kind: string,
): ResourceType => ({
  group,
  version,
  plural,
  kind,
  namespaced: true,
});
const workspaces = rt('kaito.sh', 'v1beta1', 'workspaces', 'Workspace');
const graphs = rt(
  'nvidia.com',
  'v1beta1',
  'dynamographdeployments',
  'DynamoGraphDeployment',
);
const rayServices = rt('ray.io', 'v1', 'rayservices', 'RayService');
const gateways = rt('gateway.networking.k8s.io', 'v1', 'gateways', 'Gateway');

type WithStatus = KubeObject & { status?: any };

/** Polls the object until `check` holds; returns every distinct status seen on the way. */
async function watchStatus(
  type: ResourceType,
  name: string,
  check: (status: any) => boolean,
  timeoutMs = 20_000,
): Promise<{ final: WithStatus; seen: any[] }> {
  const seen: any[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const obj = await client.get<WithStatus>(type, { namespace: NS, name });
    const last = JSON.stringify(seen[seen.length - 1]);
    if (obj.status && JSON.stringify(obj.status) !== last)
      seen.push(obj.status);
    if (obj.status && check(obj.status)) return { final: obj, seen };
    if (Date.now() > deadline) {
      throw new Error(
        `${type.kind} ${name} never matched; statuses seen: ${JSON.stringify(
          seen,
        )}`,
      );
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

const statusManagers = (obj: KubeObject) =>
  (
    (obj.metadata?.managedFields ?? []) as Array<{
      manager?: string;
      subresource?: string;
    }>
  )
    .filter(f => f.subresource === 'status')
    .map(f => f.manager);

const condition = (status: any, type: string) =>
  (status?.conditions ?? []).find((c: any) => c.type === type);

it('starts a simulator for every upstream CRD it was given', () => {
  expect(registered.skipped).toEqual([]);
  expect(registered.started).toEqual([
    'kaito (kaito.sh/v1beta1 Workspace)',
    'dynamo (nvidia.com/v1beta1 DynamoGraphDeployment)',
    'kuberay (ray.io/v1 RayService)',
    `gateway (gateway.networking.k8s.io/v1 Gateway, class ${SIMULATED_GATEWAY_CLASS})`,
    'llama-stack (GET /v1/health of llama-stack pods, at loopback pod IPs)',
  ]);
});

it('gateway: programs Gateways of its class (address, Accepted, Programmed) and leaves other classes alone', async () => {
  const gateway = (name: string, gatewayClassName: string) =>
    ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name, namespace: NS },
      spec: {
        gatewayClassName,
        listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
      },
    } as KubeObject);
  await client.create(gateways, gateway('inference', SIMULATED_GATEWAY_CLASS));
  await client.create(gateways, gateway('someone-elses', 'istio'));
  const { final } = await watchStatus(
    gateways,
    'inference',
    s => condition(s, 'Programmed')?.status === 'True',
  );
  expect(final.status.addresses).toEqual([
    { type: 'Hostname', value: `inference.${NS}.gateway.invalid` },
  ]);
  expect(condition(final.status, 'Accepted')).toMatchObject({
    status: 'True',
    observedGeneration: 1,
  });
  expect(statusManagers(final)).toEqual(['simulator-gateway']);
  // Both were created together; by the time one is programmed the other has been seen (and left alone).
  const other = await client.get<WithStatus>(gateways, {
    namespace: NS,
    name: 'someone-elses',
  });
  expect(other.status?.addresses).toBeUndefined();
  expect(statusManagers(other)).toEqual([]);
});

it('KAITO: a Workspace goes from InferenceReady False to WorkspaceSucceeded True', async () => {
  await client.create(workspaces, {
    apiVersion: 'kaito.sh/v1beta1',
    kind: 'Workspace',
    metadata: { name: 'phi-4', namespace: NS },
    resource: {
      instanceType: 'Standard_NC24ads_A100_v4',
      labelSelector: { matchLabels: { apps: 'phi-4' } },
    },
    inference: { preset: { name: 'phi-4-mini-instruct' } },
  } as KubeObject);
  const started = Date.now();
  const { final, seen } = await watchStatus(
    workspaces,
    'phi-4',
    s => condition(s, 'WorkspaceSucceeded')?.status === 'True',
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(STEP_MS);
  expect(
    seen.some(s => condition(s, 'InferenceReady')?.status === 'False'),
  ).toBe(true);
  expect(condition(final.status, 'InferenceReady')?.status).toBe('True');
  expect(statusManagers(final)).toEqual(['simulator-kaito']);
  // The Service the KAITO provider reports (status.endpoint.service), owned by the Workspace.
  const service = await client.get<KubeObject & { spec?: any }>(Services, {
    namespace: NS,
    name: 'phi-4',
  });
  expect(service.metadata?.ownerReferences).toEqual([
    expect.objectContaining({
      kind: 'Workspace',
      name: 'phi-4',
      uid: final.metadata?.uid,
      controller: true,
    }),
  ]);
  expect(service.spec.ports).toEqual([
    expect.objectContaining({ name: 'http', port: 80, targetPort: 5000 }),
  ]);
});

it('Dynamo: a DynamoGraphDeployment reaches state successful with its workers ready', async () => {
  await client.create(graphs, {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llama', namespace: NS },
    spec: {
      components: [
        { name: 'Frontend', type: 'frontend', replicas: 1 },
        { name: 'VllmDecodeWorker', type: 'worker', replicas: 2 },
      ],
    },
  } as KubeObject);
  const { final, seen } = await watchStatus(
    graphs,
    'llama',
    s => s.state === 'successful',
  );
  expect(seen.map(s => s.state)).toEqual([
    'initializing',
    'pending',
    'successful',
  ]);
  expect(final.status.components.VllmDecodeWorker).toEqual(
    expect.objectContaining({ replicas: 2, readyReplicas: 2 }),
  );
  expect(statusManagers(final)).toEqual(['simulator-dynamo']);
});

it('KubeRay: a RayService goes Pending then Running; a failure annotation makes it Failed', async () => {
  const serveConfigV2 =
    'applications:\n- name: llm\n  import_path: ray.serve.llm:build_openai_app\n  deployments:\n  - name: LLMServer\n';
  const rayService = (name: string, annotations?: Record<string, string>) =>
    ({
      apiVersion: 'ray.io/v1',
      kind: 'RayService',
      metadata: { name, namespace: NS, annotations },
      spec: {
        serveConfigV2,
        rayClusterConfig: {
          headGroupSpec: {
            rayStartParams: {},
            template: {
              spec: {
                containers: [
                  { name: 'ray-head', image: 'rayproject/ray-llm:2.46.0' },
                ],
              },
            },
          },
        },
      },
    } as KubeObject);
  await client.create(rayServices, rayService('qwen'));
  await client.create(
    rayServices,
    rayService('broken', { [FAIL_ANNOTATION]: 'CUDA out of memory' }),
  );
  const ok = await watchStatus(
    rayServices,
    'qwen',
    s => s.serviceStatus === 'Running',
  );
  expect(ok.seen[0].serviceStatus).toBe('Pending');
  expect(
    ok.final.status.activeServiceStatus.applicationStatuses.llm.status,
  ).toBe('RUNNING');
  const failed = await watchStatus(
    rayServices,
    'broken',
    s => s.serviceStatus === 'Failed',
  );
  expect(
    failed.final.status.pendingServiceStatus.applicationStatuses.llm,
  ).toEqual(
    expect.objectContaining({
      status: 'DEPLOY_FAILED',
      message: 'CUDA out of memory',
    }),
  );
});

it('starts over when the spec changes, like a rollout', async () => {
  const before = await client.get<WithStatus>(graphs, {
    namespace: NS,
    name: 'llama',
  });
  await client.patch(
    graphs,
    { namespace: NS, name: 'llama' },
    [{ op: 'replace', path: '/spec/components/1/replicas', value: 3 }],
    'json',
  );
  const { final, seen } = await watchStatus(
    graphs,
    'llama',
    s =>
      s.state === 'successful' &&
      s.observedGeneration === (before.metadata?.generation ?? 1) + 1,
  );
  expect(seen.map(s => s.state)).toContain('initializing');
  expect(final.status.components.VllmDecodeWorker.readyReplicas).toBe(3);
});

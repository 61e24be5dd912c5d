/**
 * The stack operator on a real control plane (API server, controller-manager,
 * scheduler, kwok nodes whose pods become Ready) with the generated CRD (both
 * versions, conversion through this operator's webhook): v1alpha1 in,
 * v1alpha2 out and back; Ready; no restart for an equivalent spec, a rollout
 * for a changed config; a broken config leaves the running Deployment alone;
 * a deleted Secret shows the seed's message; the validating webhook; the
 * HealthCheck probe over HTTP and, for a TLS stack, HTTPS.
 */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import {
  ConfigMaps,
  Deployments,
  Events,
  KubeClient,
  Namespaces,
  PersistentVolumeClaims,
  Pods,
  Secrets,
  createLogger,
  generateCA,
  generateServingCert,
  ValidatingWebhookConfigurations,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import {
  SIMULATED_HEALTH_ENV,
  SIMULATED_SCHEME_ENV,
  startLlamaStackSimulator,
  startRegistrySimulator,
  type LlamaStackSimulator,
  type RegistrySimulator,
} from '@runway-portal/e2e-simulators';
import { parseAllDocuments } from 'yaml';
import {
  eventually as poll,
  impersonating,
  installForTest,
  sleep,
} from '@runway-portal/e2e-testing';
import { embeddedDistributions } from './config/distributions';
import { STACKS_FIELD_MANAGER } from './decide';
import { ServiceAccounts } from './lookups';
import {
  buildStacks,
  validatingConfiguration,
  type StacksProcess,
} from './main';
import { parseOptions } from './options';
import { NetworkPolicies, Stacks } from './reconciler';
import { VALIDATE_PATH } from './webhooks';

const START_TIMEOUT_MS = 30 * 60_000;
const CRD = path.resolve(
  __dirname,
  '../../deploy/crds/llamastack.io_llamastackdistributions.yaml',
);
const DEPLOY = path.resolve(__dirname, '../../deploy/stacks');
const SAMPLES = path.resolve(__dirname, '../../../../shared/upstream/samples');
const StacksV1alpha1: ResourceType = { ...Stacks, version: 'v1alpha1' };
const NS = 'team-a';

/** Polls with this file's budget (60 s): rollouts wait on real controllers and kwok. */
const eventually = <T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> => poll(what, check, timeoutMs, 200);

let cluster: TestCluster;
let client: KubeClient;
let stacks: StacksProcess;
let running: Promise<void>;
/** The llama-stack server simulator (e2e/simulators): what the operator's health probe reaches. */
let simulator: LlamaStackSimulator;
/** Registry simulators (e2e/simulators, plain HTTP on loopback): an open one and one asking for a Bearer token. */
let registry: RegistrySimulator;
let privateRegistry: RegistrySimulator;
/** The base config an image's io.llamastack.config.base64 label carries: the starter's, renamed so it shows. */
const LABELLED_CONFIG = embeddedDistributions().configs.starter.replace(
  /^distro_name: .*$/m,
  'distro_name: labelled-starter',
);

beforeAll(async () => {
  cluster = await startCluster({ name: 'stacks-operator', crds: [CRD] });
  client = new KubeClient(cluster.kubeConfig());
  await client.create(Namespaces, { metadata: { name: NS } });
  // The install's namespace, ServiceAccount and RBAC, by the runway CLI as users install it: the
  // operator below runs with a token of that ServiceAccount, so these tests prove the RBAC is enough.
  const account = await installForTest(cluster, 'stacks', client);
  const images = {
    'llamastack/labelled:1': {
      labels: {
        'io.llamastack.config.base64':
          Buffer.from(LABELLED_CONFIG).toString('base64'),
        'io.llamastack.config.version': '2',
      },
    },
    'llamastack/plain:1': { labels: { maintainer: 'nobody' } },
  };
  registry = await startRegistrySimulator({ images });
  privateRegistry = await startRegistrySimulator({
    images,
    auth: { username: 'puller', password: 'hunter2' },
  });
  const port = await freePort();
  const parsed = parseOptions(
    [
      '--webhook-mode=url',
      `--webhook-port=${port}`,
      '--metrics-port=0',
      '--health-port=0',
      '--recheck-interval=1s',
      `--insecure-registries=${registry.host},${privateRegistry.host}`,
    ],
    {},
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  // A local process registers url-mode webhooks; the installer creates the configuration (the
  // ServiceAccount may only patch it), here already in its url form.
  await client.apply(
    ValidatingWebhookConfigurations,
    validatingConfiguration({
      url: `https://127.0.0.1:${port}${VALIDATE_PATH}`,
    }),
    { fieldManager: STACKS_FIELD_MANAGER, force: true },
  );
  stacks = buildStacks(parsed.options, {
    client: new KubeClient(account.kubeConfig),
    // Warnings and errors to a file next to the cluster's logs (a forbidden call shows there).
    logger: createLogger({
      level: 'warn',
      write: line =>
        appendFileSync(
          path.join(os.tmpdir(), 'stacks-operator-test.log'),
          line,
        ),
    }),
    handleSignals: false,
  });
  running = stacks.start();
  running.catch(() => undefined);
  // The server's stand-in plays a kubelet's and a CNI's part too (pod status): the admin's client.
  simulator = startLlamaStackSimulator(new KubeClient(cluster.kubeConfig()));
  await eventually(
    'the operator to lead with synced caches and its certificate published',
    () =>
      stacks.manager.isLeader() &&
      stacks.manager.informers.hasSynced() &&
      stacks.manager.certManager?.isReady(),
  );
}, START_TIMEOUT_MS);

afterAll(async () => {
  await stacks?.manager.stop();
  await running;
  await simulator?.stop();
  await registry?.stop();
  await privateRegistry?.stop();
  client?.close();
  await cluster?.stop();
}, 60_000);

const getStack = (name: string) =>
  client.get<KubeObject & { spec: any; status?: any }>(Stacks, {
    namespace: NS,
    name,
  });
const getDeployment = (name: string) =>
  client.get<KubeObject & { spec: any; status?: any }>(Deployments, {
    namespace: NS,
    name,
  });
const condition = (stack: { status?: any }, type: string) =>
  stack.status?.conditions?.find((c: any) => c.type === type);
/** The stack's pods that are not going away, by name. */
const livePods = async (name: string) =>
  (
    await client.list(Pods, {
      namespace: NS,
      labelSelector: `app.kubernetes.io/instance=${name}`,
    })
  ).items
    .filter(p => !p.metadata?.deletionTimestamp)
    .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
const podsOf = async (name: string) =>
  (await livePods(name)).map(p => p.metadata!.uid!).sort();
const podNames = async (name: string) =>
  (await livePods(name)).map(p => p.metadata!.name!);

function v2(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name, namespace: NS },
    spec,
  };
}

/** Replaces the spec, retrying when the operator's status write got in between (409). */
async function put(name: string, spec: Record<string, unknown>) {
  for (let attempt = 0; ; attempt++) {
    const live = await getStack(name);
    try {
      return await client.replace(Stacks, { ...live, spec });
    } catch (err) {
      if (attempt > 10 || !/409/.test(String((err as Error).message)))
        throw err;
    }
  }
}

async function ready(name: string) {
  return eventually(`${name} Ready`, async () => {
    const s = await getStack(name);
    return (
      s.status?.phase === 'Ready' &&
      condition(s, 'Available')?.status === 'True' &&
      condition(s, 'HealthCheck')?.status === 'True' &&
      s
    );
  });
}

/**
 * A sample has its config and Deployment and is Ready; one with storage waits for a PVC this
 * cluster cannot bind (no provisioner), which its status says.
 */
async function sampleSettled(ns: string, name: string) {
  await eventually(`sample ${name} to settle`, async () => {
    const got = await client.get<any>(Stacks, { namespace: ns, name });
    if (condition(got, 'ConfigGenerated')?.status !== 'True') return false;
    await client.get(Deployments, { namespace: ns, name });
    if (got.spec.workload?.storage) {
      return (
        condition(got, 'StorageReady')?.reason === 'StoragePending' &&
        got.status.phase === 'Initializing'
      );
    }
    return got.status.phase === 'Ready';
  });
}

describe('stack operator', () => {
  it('ships manifests the API server accepts (Deployment, Service, webhook configuration; dry run)', async () => {
    for (const file of ['deployment.yaml', 'webhooks.yaml']) {
      for (const doc of parseAllDocuments(
        readFileSync(path.join(DEPLOY, file), 'utf8'),
      )) {
        const obj = doc.toJSON() as KubeObject;
        // This cluster's configuration is in its url form already: check the shipped one under another name.
        if (obj.kind === 'ValidatingWebhookConfiguration')
          obj.metadata!.name = `${obj.metadata!.name}-shipped`;
        const rt = await client.resolve(obj.apiVersion!, obj.kind!);
        const stored = await client.apply(rt, obj, {
          fieldManager: 'installer',
          force: true,
          dryRun: true,
        });
        expect(stored.metadata?.name).toBe(obj.metadata?.name);
      }
    }
  });

  it('converts through its webhook: v1alpha1 in, read as v1alpha2 and back', async () => {
    const v1 = {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'legacy', namespace: NS },
      spec: {
        replicas: 1,
        server: {
          distribution: { name: 'starter' },
          containerSpec: {
            name: 'llama-stack',
            port: 8321,
            env: [{ name: 'OLLAMA_URL', value: 'http://ollama:11434' }],
          },
          storage: { size: '1Gi', mountPath: '/home/lls/.lls' },
        },
        network: { exposeRoute: false, allowedFrom: { namespaces: ['nsA'] } },
      },
    };
    await client.create(StacksV1alpha1, v1);
    const asV2 = await client.get<any>(Stacks, {
      namespace: NS,
      name: 'legacy',
    });
    expect(asV2.apiVersion).toBe('llamastack.io/v1alpha2');
    expect(asV2.spec).toMatchObject({
      distribution: { name: 'starter' },
      networking: { port: 8321, allowedFrom: { namespaces: ['nsA'] } },
      workload: {
        replicas: 1,
        storage: { size: '1Gi', mountPath: '/home/lls/.lls' },
        overrides: {
          env: [{ name: 'OLLAMA_URL', value: 'http://ollama:11434' }],
        },
      },
    });
    const back = await client.get<any>(StacksV1alpha1, {
      namespace: NS,
      name: 'legacy',
    });
    expect(back.spec).toEqual(v1.spec);
    // ... and the operator makes the released operator's objects for it: PVC, NetworkPolicy, env.
    const d = await eventually('the Deployment', () => getDeployment('legacy'));
    expect(d.spec.template.spec.containers[0].env).toContainEqual({
      name: 'OLLAMA_URL',
      value: 'http://ollama:11434',
    });
    expect(d.spec.template.spec.volumes[1]).toEqual({
      name: 'lls-storage',
      persistentVolumeClaim: { claimName: 'legacy-pvc' },
    });
    await eventually('the PVC', () =>
      client.get(PersistentVolumeClaims, { namespace: NS, name: 'legacy-pvc' }),
    );
    await eventually('the NetworkPolicy', () =>
      client.get(NetworkPolicies, {
        namespace: NS,
        name: 'legacy-network-policy',
      }),
    );
    // This cluster has no storage provisioner: the claim stays Pending, and v1alpha1 readers see that in the status.
    const s = await eventually('StorageReady=False', async () => {
      const got = await client.get<any>(StacksV1alpha1, {
        namespace: NS,
        name: 'legacy',
      });
      return (
        condition(got, 'StorageReady')?.status === 'False' &&
        condition(got, 'ServiceReady')?.status === 'True' &&
        got
      );
    });
    expect(condition(s, 'StorageReady')).toMatchObject({
      reason: 'StoragePending',
      message: 'PVC is Pending',
    });
    expect(s.status.phase).toBe('Initializing');
  }, 120_000);

  it('reconciles every upstream sample, v1alpha1 and v1alpha2, with their ConfigMaps', async () => {
    const ns = 'samples';
    await client.create(Namespaces, { metadata: { name: ns } });
    // What the samples reference and do not ship: a CA bundle, and the Secrets of the postgres sample.
    await client.create(ConfigMaps, {
      metadata: { name: 'custom-ca-bundle', namespace: ns },
      data: {
        'ca-bundle.crt': (await generateCA('samples CA', 3600_000)).cert,
      },
    });
    await client.create(Secrets, {
      metadata: { name: 'vllm-creds', namespace: ns },
      stringData: { token: 't' },
    });
    await client.create(Secrets, {
      metadata: { name: 'pg-credentials', namespace: ns },
      stringData: { host: 'h', dsn: 'd' },
    });
    const names: string[] = [];
    for (const file of readdirSync(SAMPLES).filter(f =>
      f.startsWith('llamastack-'),
    )) {
      for (const doc of parseAllDocuments(
        readFileSync(path.join(SAMPLES, file), 'utf8'),
      )) {
        const obj = doc.toJSON() as KubeObject;
        if (!obj) continue;
        obj.metadata = { ...obj.metadata, namespace: ns };
        const rt = await client.resolve(obj.apiVersion!, obj.kind!);
        // The two configmap samples ship the same ConfigMap.
        await client.apply(rt, obj, { fieldManager: 'samples', force: true });
        if (obj.kind === 'LlamaStackDistribution')
          names.push(obj.metadata.name!);
      }
    }
    expect(names).toHaveLength(11);
    await Promise.all(names.map(name => sampleSettled(ns, name)));
  }, 180_000);

  it('runs a v1alpha2 stack; an equivalent spec restarts nothing, a changed config rolls out; old ConfigMaps go', async () => {
    await client.create(Secrets, {
      metadata: { name: 'vllm-creds', namespace: NS },
      stringData: { token: 't' },
    });
    const spec = {
      distribution: { name: 'starter' },
      providers: {
        inference: [
          {
            id: 'vllm-primary',
            provider: 'vllm',
            endpoint: 'http://vllm:8000',
            apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
            settings: { a: 1, b: 2 },
          },
        ],
      },
    };
    await client.create(Stacks, v2('demo', spec));
    const first = await ready('demo');
    expect(first.status).toMatchObject({
      resolvedDistribution: {
        image: 'docker.io/llamastack/distribution-starter:latest',
        configSource: 'embedded',
      },
      configGeneration: {
        providerCount: 1,
        resourceCount: 0,
        configVersion: 2,
      },
      availableReplicas: 1,
    });
    expect(condition(first, 'ConfigGenerated')).toMatchObject({
      status: 'True',
      message: 'Generated config.yaml with 1 providers and 0 models',
    });
    expect(condition(first, 'SecretsResolved')).toMatchObject({
      status: 'True',
      message: 'Resolved 1 secret references',
    });
    const cmName = first.status.configGeneration.configMapName;
    const cm = await client.get<any>(ConfigMaps, {
      namespace: NS,
      name: cmName,
    });
    expect(cm.immutable).toBe(true);
    expect(cm.data['config.yaml']).toContain(
      'api_key: ${env.LLSD_VLLM_PRIMARY_API_KEY}',
    );
    const d1 = await getDeployment('demo');
    expect(d1.spec.template.spec.containers[0].env).toContainEqual({
      name: 'LLSD_VLLM_PRIMARY_API_KEY',
      valueFrom: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
    });
    const pods1 = await podsOf('demo');
    expect(pods1).toHaveLength(1);

    // FR-096: a spec change whose generated config is byte-identical (`remote::vllm` is what `vllm`
    // maps to): the generation moves, the ConfigMap and the pods stay.
    await put('demo', {
      ...spec,
      providers: {
        inference: [
          { ...spec.providers.inference[0], provider: 'remote::vllm' },
        ],
      },
    });
    await eventually(
      'the operator to see generation 2',
      async () =>
        condition(await getStack('demo'), 'ConfigGenerated')
          ?.observedGeneration === 2,
    );
    await sleep(2000);
    expect((await getDeployment('demo')).metadata!.generation).toBe(
      d1.metadata!.generation,
    );
    expect(await podsOf('demo')).toEqual(pods1);
    expect((await getStack('demo')).status.configGeneration.configMapName).toBe(
      cmName,
    );

    // FR-095: a changed config is a new ConfigMap and a rollout (new pods).
    await put('demo', {
      ...spec,
      resources: { models: [{ name: 'llama3.2-8b' }] },
    });
    const second = await eventually('the new config to roll out', async () => {
      const s = await getStack('demo');
      return (
        s.status?.configGeneration?.configMapName !== cmName &&
        condition(s, 'Available')?.status === 'True' &&
        s
      );
    });
    expect(condition(second, 'ConfigGenerated')?.message).toBe(
      'Generated config.yaml with 1 providers and 1 models',
    );
    await eventually('new pods', async () => {
      const pods = await podsOf('demo');
      return pods.length === 1 && pods[0] !== pods1[0];
    });

    // A third config: the first ConfigMap is garbage-collected after the rollout (two are kept).
    await put('demo', {
      ...spec,
      resources: {
        models: [{ name: 'llama3.2-8b' }, { name: 'llama3.2-70b' }],
      },
    });
    await eventually('the first ConfigMap to be deleted', async () => {
      const names = (
        await client.list(ConfigMaps, {
          namespace: NS,
          labelSelector: 'app.kubernetes.io/instance=demo',
        })
      ).items.map(c => c.metadata!.name);
      return names.length === 2 && !names.includes(cmName);
    });
  }, 180_000);

  it('HealthCheck is a real GET /v1/health of the pods: a server answering 503 is Failed, then OK is Ready', async () => {
    const v1 = (health: string) => ({
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'probed', namespace: NS },
      spec: {
        replicas: 1,
        server: {
          distribution: { name: 'starter' },
          containerSpec: {
            port: 8321,
            env: [{ name: SIMULATED_HEALTH_ENV, value: health }],
          },
        },
      },
    });
    await client.create(StacksV1alpha1, v1('503'));
    const failing = await eventually(
      'HealthCheck=False from the answer',
      async () => {
        const s = await client.get<any>(StacksV1alpha1, {
          namespace: NS,
          name: 'probed',
        });
        return condition(s, 'HealthCheck')?.reason === 'HealthCheckFailed' && s;
      },
    );
    // The pods are Ready (the kubelet's part), the server is not healthy: upstream's Failed.
    expect(failing.status.phase).toBe('Failed');
    expect(condition(failing, 'DeploymentReady')?.status).toBe('True');
    const address = simulator
      .addresses()
      .get(`${NS}/${(await podNames('probed'))[0]}`);
    expect(address).toMatch(/^127\./);
    expect(condition(failing, 'HealthCheck')).toMatchObject({
      status: 'False',
      message: expect.stringMatching(
        /^Health check failed: pod probed-[a-z0-9-]+ answered HTTP 503 \{"status":"Error"\} on \/v1\/health: see the server's log$/,
      ),
    });
    // The same stack with a healthy server (a new pod: the env is in the pod template).
    const live = await client.get<any>(StacksV1alpha1, {
      namespace: NS,
      name: 'probed',
    });
    await client.replace(StacksV1alpha1, { ...live, spec: v1('OK').spec });
    const healthy = await eventually('HealthCheck=True', async () => {
      const s = await client.get<any>(StacksV1alpha1, {
        namespace: NS,
        name: 'probed',
      });
      return (
        condition(s, 'HealthCheck')?.status === 'True' &&
        s.status.phase === 'Ready' &&
        s
      );
    });
    expect(condition(healthy, 'HealthCheck')).toMatchObject({
      reason: 'HealthCheckPassed',
      message:
        'Health check passed: 1 pod with the current config answer {"status":"OK"} on /v1/health',
    });
    const pod = (await podNames('probed'))[0];
    expect(simulator.requests.get(`${NS}/${pod}`)).toBeGreaterThan(0);
  }, 120_000);

  it('a TLS stack is probed over HTTPS: a server without TLS is not healthy, one serving HTTPS is Ready', async () => {
    const name = 'secure';
    const port = 8443;
    // A kubernetes.io/tls Secret as a user would bring it: a certificate for the stack's Service name.
    const ca = await generateCA('team-a CA', 3600_000);
    const serving = await generateServingCert(
      ca,
      {
        dnsNames: [`${name}-service.${NS}.svc`, `${name}-service`],
        ipAddresses: [],
      },
      3600_000,
    );
    await client.create(Secrets, {
      metadata: { name: `${name}-tls`, namespace: NS },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': serving.cert, 'tls.key': serving.key },
    });
    const spec = (env: Array<{ name: string; value: string }>) => ({
      distribution: { name: 'starter' },
      networking: { port, tls: { enabled: true, secretName: `${name}-tls` } },
      workload: { replicas: 1, overrides: { env } },
    });
    // First a server that never turned TLS on (plain HTTP behind an HTTPS probe).
    await client.create(
      Stacks,
      v2(name, spec([{ name: SIMULATED_SCHEME_ENV, value: 'http' }])),
    );
    const plainPod = await eventually(
      'a pod with its plain HTTP server',
      async () => {
        const [pod] = await podNames(name);
        return pod && simulator.addresses().has(`${NS}/${pod}`) && pod;
      },
    );
    const plainAddress = simulator.addresses().get(`${NS}/${plainPod}`)!;
    // kwok's pod IP first (nothing listens), the simulator's once it set it: wait for that one.
    const unhealthy = await eventually(
      'HealthCheck=False from the HTTPS probe of the plain server',
      async () => {
        const s = await getStack(name);
        const hc = condition(s, 'HealthCheck');
        return (
          hc?.reason === 'HealthCheckUnreachable' &&
          hc.message.includes(`https://${plainAddress}:${port}/v1/health`) &&
          s
        );
      },
    );
    // The pods are Ready (kwok's part), the server cannot be reached over TLS: not Ready, never Passed.
    expect(unhealthy.status.phase).toBe('Initializing');
    expect(condition(unhealthy, 'Available')?.status).toBe('True');
    const unhealthyCheck = condition(unhealthy, 'HealthCheck');
    expect(unhealthyCheck.status).toBe('False');
    expect(unhealthyCheck.message).toMatch(
      `Health check failed: pod ${plainPod} at https://${plainAddress}:${port}/v1/health: TLS handshake failed: the server does not answer HTTPS on this port`,
    );
    // The TLS handshake failed before any request reached the server.
    expect(simulator.requests.get(`${NS}/${plainPod}`)).toBeUndefined();

    // The same stack with a server speaking HTTPS (a new pod: the env is in the pod template).
    await put(name, spec([]));
    const healthy = await ready(name);
    expect(condition(healthy, 'HealthCheck')).toMatchObject({
      reason: 'HealthCheckPassed',
      message:
        'Health check passed: 1 pod with the current config answer {"status":"OK"} on /v1/health',
    });
    const [pod] = await eventually('the plain server gone', async () => {
      const names = await podNames(name);
      return names.length === 1 && names[0] !== plainPod && names;
    });
    expect(simulator.requests.get(`${NS}/${pod}`)).toBeGreaterThan(0);
    // The pod's server speaks HTTPS only: the requests that passed came over TLS.
    const address = simulator.addresses().get(`${NS}/${pod}`)!;
    const answer = await new Promise<{ code?: number; body: string }>(
      (resolve, reject) => {
        https
          .get(
            `https://${address}:${port}/v1/health`,
            { rejectUnauthorized: false, agent: false },
            res => {
              let body = '';
              res.on('data', c => (body += c));
              res.on('end', () => resolve({ code: res.statusCode, body }));
            },
          )
          .on('error', reject);
      },
    );
    expect(answer).toEqual({ code: 200, body: '{"status":"OK"}' });

    // What the kubelet and the server get: HTTPS probes, the Secret mounted where the config points.
    const deployment = await getDeployment(name);
    const podSpec = deployment.spec.template.spec;
    const container = podSpec.containers[0];
    for (const probe of [container.readinessProbe, container.startupProbe])
      expect(probe.httpGet).toMatchObject({
        path: '/v1/health',
        port,
        scheme: 'HTTPS',
      });
    const volume = podSpec.volumes.find((v: any) => v.secret);
    expect(volume.secret.secretName).toBe(`${name}-tls`);
    expect(container.volumeMounts).toContainEqual({
      name: volume.name,
      mountPath: '/etc/llama-stack/tls',
      readOnly: true,
    });
    const config = await client.get<any>(ConfigMaps, {
      namespace: NS,
      name: healthy.status.configGeneration.configMapName,
    });
    expect(config.data['config.yaml']).toContain(
      'tls_certfile: /etc/llama-stack/tls/tls.crt',
    );
    expect(config.data['config.yaml']).toContain(
      'tls_keyfile: /etc/llama-stack/tls/tls.key',
    );
  }, 180_000);

  it('v1alpha1 userConfig and caBundle from other namespaces: the config copied, the CA keys concatenated in order', async () => {
    for (const name of ['shared', 'certs'])
      await client.create(Namespaces, { metadata: { name } });
    const config = readFileSync(
      path.join(SAMPLES, 'llamastack-v1alpha1-example-with-configmap.yaml'),
      'utf8',
    );
    const configText = (parseAllDocuments(config)[0].toJSON() as any).data[
      'config.yaml'
    ];
    await client.create(ConfigMaps, {
      metadata: { name: 'team-config', namespace: 'shared' },
      data: { 'config.yaml': configText },
    });
    const [first, second] = await Promise.all([
      generateCA('first CA', 3600_000),
      generateCA('second CA', 3600_000),
    ]);
    await client.create(ConfigMaps, {
      metadata: { name: 'corporate-ca', namespace: 'certs' },
      data: {
        'first.crt': `# the first one\n${first.cert}`,
        'second.crt': second.cert,
      },
    });
    await client.create(StacksV1alpha1, {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'elsewhere', namespace: NS },
      spec: {
        replicas: 1,
        server: {
          distribution: { name: 'starter' },
          containerSpec: { port: 8321 },
          userConfig: {
            configMapName: 'team-config',
            configMapNamespace: 'shared',
          },
          tlsConfig: {
            caBundle: {
              configMapName: 'corporate-ca',
              configMapNamespace: 'certs',
              configMapKeys: ['second.crt', 'first.crt'],
            },
          },
        },
      },
    });
    const stack = await ready('elsewhere');
    // v1alpha2's own status survives the API server's apply, which prunes through the v1alpha1
    // creator's version (the conversion keeps it in the annotation).
    expect(stack.status.resolvedDistribution.configSource).toBe('configmap');
    expect(condition(stack, 'ConfigGenerated')?.message).toMatch(
      /^Using config\.yaml from ConfigMap elsewhere-config-[0-9a-f]{8}$/,
    );
    const pod = (await getDeployment('elsewhere')).spec.template.spec;
    const copy = await client.get<any>(ConfigMaps, {
      namespace: NS,
      name: pod.volumes[0].configMap.name,
    });
    expect(copy.metadata.name).toMatch(/^elsewhere-config-[0-9a-f]{8}$/);
    expect(copy.immutable).toBe(true);
    expect(copy.data['config.yaml']).toBe(configText);
    const bundle = await client.get<any>(ConfigMaps, {
      namespace: NS,
      name: 'elsewhere-ca-bundle',
    });
    expect(bundle.data['ca-bundle.crt']).toBe(
      `${second.cert.trim()}\n${first.cert.trim()}\n`,
    );
    expect(pod.volumes.find((v: any) => v.name === 'ca-bundle')).toEqual({
      name: 'ca-bundle',
      configMap: {
        name: 'elsewhere-ca-bundle',
        items: [{ key: 'ca-bundle.crt', path: 'ca-bundle.crt' }],
        defaultMode: 420,
      },
    });
    // Someone who may create stacks in team-a but not read ConfigMaps in shared is denied: the
    // operator would copy that ConfigMap next to their stack.
    const Roles = await client.resolve('rbac.authorization.k8s.io/v1', 'Role');
    const RoleBindings = await client.resolve(
      'rbac.authorization.k8s.io/v1',
      'RoleBinding',
    );
    await client.create(Roles, {
      metadata: { name: 'stack-writer', namespace: NS },
      rules: [
        {
          apiGroups: ['llamastack.io'],
          resources: ['llamastackdistributions'],
          verbs: ['get', 'create'],
        },
      ],
    });
    await client.create(RoleBindings, {
      metadata: { name: 'alice-stack-writer', namespace: NS },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: 'stack-writer',
      },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
      ],
    });
    const alice = new KubeClient(impersonating(cluster.kubeConfig(), 'alice'));
    try {
      await expect(
        alice.create(StacksV1alpha1, {
          apiVersion: 'llamastack.io/v1alpha1',
          kind: 'LlamaStackDistribution',
          metadata: { name: 'borrowed', namespace: NS },
          spec: {
            server: {
              distribution: { name: 'starter' },
              userConfig: {
                configMapName: 'team-config',
                configMapNamespace: 'shared',
              },
            },
          },
        }),
      ).rejects.toThrow(
        /spec\.server\.userConfig\.configMapName: alice may not get ConfigMap "team-config" in namespace "shared"/,
      );
    } finally {
      alice.close();
    }
    // Read back as v1alpha1, the user's fields are all there.
    const back = await client.get<any>(StacksV1alpha1, {
      namespace: NS,
      name: 'elsewhere',
    });
    expect(back.spec.server.userConfig).toEqual({
      configMapName: 'team-config',
      configMapNamespace: 'shared',
    });
  }, 120_000);

  it("a direct image whose labels carry the config, read with the ServiceAccount's pull Secret: ConfigGenerated=True, configSource oci-label", async () => {
    await client.create(Secrets, {
      metadata: { name: 'registry-pull', namespace: NS },
      type: 'kubernetes.io/dockerconfigjson',
      stringData: {
        '.dockerconfigjson': JSON.stringify({
          auths: {
            [privateRegistry.host]: { username: 'puller', password: 'hunter2' },
          },
        }),
      },
    } as KubeObject);
    await client.create(ServiceAccounts, {
      metadata: { name: 'puller', namespace: NS },
      imagePullSecrets: [{ name: 'registry-pull' }],
    } as KubeObject);
    const image = privateRegistry.image('llamastack/labelled:1');
    await client.create(
      Stacks,
      v2('labelled', {
        distribution: { image },
        providers: {
          inference: [{ provider: 'vllm', endpoint: 'http://vllm:8000' }],
        },
        workload: { overrides: { serviceAccountName: 'puller' } },
      }),
    );
    const generated = await eventually('labelled ConfigGenerated', async () => {
      const s = await getStack('labelled');
      return condition(s, 'ConfigGenerated')?.status === 'True' && s;
    });
    expect(generated.status.resolvedDistribution).toMatchObject({
      image,
      configSource: 'oci-label',
    });
    const configMap = await client.get<KubeObject & { data?: any }>(
      ConfigMaps,
      {
        namespace: NS,
        name: generated.status.configGeneration.configMapName,
      },
    );
    expect(configMap.data['config.yaml']).toMatch(
      /^distro_name: labelled-starter$/m,
    );
    expect(configMap.data['config.yaml']).toContain('http://vllm:8000');
    // The registry asked for a token and got the pull Secret's credentials.
    expect(privateRegistry.requests.some(r => r.path === '/token')).toBe(true);
    expect((await getDeployment('labelled')).spec.template.spec).toMatchObject({
      serviceAccountName: 'puller',
      containers: [expect.objectContaining({ image })],
    });
  }, 60_000);

  it('a broken config keeps the running Deployment untouched, with ConfigGenerated=False and the reason', async () => {
    const before = await getDeployment('demo');
    const pods = await podsOf('demo');
    // The webhook only warns about a direct image (it may carry config labels); generation needs a base
    // config: this image's registry answers, and it has no config labels (FR-027c).
    await put('demo', {
      distribution: { image: registry.image('llamastack/plain:1') },
    });
    const failed = await eventually('ConfigGenerated=False', async () => {
      const s = await getStack('demo');
      return condition(s, 'ConfigGenerated')?.status === 'False' && s;
    });
    expect(condition(failed, 'ConfigGenerated')).toMatchObject({
      reason: 'BaseConfigRequired',
      message:
        'Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.',
    });
    expect(failed.status.phase).toBe('Failed');
    // One Warning event for the transition.
    await eventually('the BaseConfigRequired event', async () =>
      (
        await client.list(Events, { namespace: NS })
      ).items.some(
        (e: any) =>
          e.involvedObject?.name === 'demo' &&
          e.type === 'Warning' &&
          e.reason === 'BaseConfigRequired',
      ),
    );
    await sleep(2000);
    const after = await getDeployment('demo');
    expect(after.metadata!.generation).toBe(before.metadata!.generation);
    expect(after.spec.template).toEqual(before.spec.template);
    expect(await podsOf('demo')).toEqual(pods);
    // What runs is still available.
    expect(condition(await getStack('demo'), 'Available')?.status).toBe('True');
  }, 60_000);

  it('a deleted Secret shows "Secret not found: {name}" and leaves the Deployment alone', async () => {
    await client.create(Secrets, {
      metadata: { name: 'pg-creds', namespace: NS },
      stringData: { url: 'postgres://x' },
    });
    await client.create(
      Stacks,
      v2('with-db', {
        distribution: { name: 'starter' },
        storage: {
          sql: {
            type: 'postgres',
            connectionString: {
              secretKeyRef: { name: 'pg-creds', key: 'url' },
            },
          },
        },
      }),
    );
    await ready('with-db');
    const before = await getDeployment('with-db');
    await client.delete(Secrets, { namespace: NS, name: 'pg-creds' });
    const failed = await eventually('SecretNotFound', async () => {
      const s = await getStack('with-db');
      return condition(s, 'SecretsResolved')?.status === 'False' && s;
    });
    const message =
      'Secret not found: pg-creds (spec.storage.sql.connectionString.secretKeyRef.name): create it in namespace "team-a" or change spec.storage.sql.connectionString.secretKeyRef.name';
    expect(condition(failed, 'SecretsResolved')).toMatchObject({
      reason: 'SecretNotFound',
      message,
    });
    expect(condition(failed, 'ConfigGenerated')).toMatchObject({
      status: 'False',
      message,
    });
    expect((await getDeployment('with-db')).spec.template).toEqual(
      before.spec.template,
    );
  }, 60_000);

  it('the validating webhook denies what CEL cannot say, naming the field', async () => {
    await expect(
      client.create(
        Stacks,
        v2('bad', {
          distribution: { name: 'starter' },
          providers: { inference: [{ id: 'p', provider: 'vllm' }] },
          resources: { models: [{ name: 'm', provider: 'nope' }] },
        }),
      ),
    ).rejects.toThrow(
      /spec\.resources\.models\[0\]\.provider "nope" is not the id of an inference provider; available inference provider ids: "p"/,
    );
    await expect(
      client.create(
        Stacks,
        v2('bad', {
          distribution: { name: 'starter' },
          providers: {
            inference: [
              {
                provider: 'vllm',
                apiKey: { secretKeyRef: { name: 'missing', key: 'k' } },
              },
            ],
          },
        }),
      ),
    ).rejects.toThrow(
      /Secret "missing" not found in namespace "team-a": create it or change spec\.providers\.inference\[0\]\.apiKey\.secretKeyRef\.name/,
    );
  }, 30_000);
});

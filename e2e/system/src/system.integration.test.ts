import {
  CustomResourceDefinitions,
  Deployments,
  KubeClient,
  Namespaces,
  Pods,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { MODEL_DEPLOYMENTS as ModelDeployments } from './workloads';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterDoctor } from '@runway-portal/plugin-runway-node';
import { memoryReporter, run as runway } from '@runway-portal/cli';
import { parse } from 'yaml';
import { describeFaults } from './faultsSuite';
import {
  installRunway,
  REPO_ROOT,
  startSystem,
  type RunningSystem,
} from './system';
import { nodesFor } from './workloads';

const START_TIMEOUT_MS = 30 * 60_000; // a cold machine builds the cluster binaries first
const PARENT_ENV = 'RUNWAY_KUBE_PARENT_PID';

/** Live processes whose environment names `parent` as the orchestrator (children and their children). */
function processesOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(
        stat.lastIndexOf(')') + 2,
        stat.lastIndexOf(')') + 3,
      );
      if (state !== 'Z' && env.includes(`${PARENT_ENV}=${parent}`))
        pids.push(Number(entry));
    } catch {
      // Exited while reading, or not ours to read.
    }
  }
  return pids;
}

/** `pid: command line` (its first 200 characters), for a failure message. */
function commandOf(pid: number): string {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return `${pid}: ${words.join(' ').trim().slice(0, 200)}`;
  } catch {
    return `${pid}: (exited)`;
  }
}

async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${
          lastError ? `: ${(lastError as Error).message}` : ''
        }`,
      );
    }
    await new Promise(r => setTimeout(r, 250));
  }
}

/** POSTs `body` to `path` with exactly the credentials of a kubeconfig file (its token and CA). */
async function postAs(
  kubeconfigPath: string,
  path: string,
  body: unknown,
): Promise<any> {
  const config = parse(readFileSync(kubeconfigPath, 'utf8'));
  const { server, 'certificate-authority-data': ca } =
    config.clusters[0].cluster;
  const { token } = config.users[0].user;
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, server),
      {
        method: 'POST',
        agent: false,
        ca: Buffer.from(ca, 'base64'),
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': payload.length,
        },
      },
      res => {
        let text = '';
        res.on('data', chunk => (text += chunk));
        res.on('end', () =>
          res.statusCode === 201 || res.statusCode === 200
            ? resolve(JSON.parse(text))
            : reject(
                new Error(`POST ${path}: HTTP ${res.statusCode}: ${text}`),
              ),
        );
      },
    );
    req.once('error', reject);
    req.end(payload);
  });
}

const Models: ResourceType = {
  group: 'models.airunway.ai',
  version: 'v1alpha1',
  kind: 'Model',
  plural: 'models',
  namespaced: true,
};

type Deployment = KubeObject & {
  status?: {
    phase?: string;
    message?: string;
    provider?: { name?: string; resourceKind?: string };
    gateway?: {
      endpoint?: string;
      modelName?: string;
      gatewayNamespace?: string;
    };
    conditions?: Array<{
      type: string;
      status: string;
      reason?: string;
      message?: string;
    }>;
  };
};

describe('the local system, started in this process', () => {
  let system: RunningSystem;
  let client: KubeClient;
  const stateDir = mkdtempSync(join(tmpdir(), 'runway-system-test-'));

  beforeAll(async () => {
    system = await startSystem({
      clusters: ['system-test'],
      backstage: false,
      // The fault suite's pace and capacity (24 deployments converging at once); it runs here too.
      stepDelayMs: 200,
      clusterOptions: { nodes: nodesFor(40) },
      stateDir,
      honourLocalConfig: false,
      log: () => {},
    });
    client = new KubeClient(system.clusters[0].kubeConfig());
    await client.create(Namespaces, { metadata: { name: 'team-a' } });
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    client?.close();
    await system?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }, 120_000);

  it('runs every controller and the simulators, each ready', () => {
    expect(system.missing).toEqual([]);
    expect(system.services.map(s => s.name)).toEqual([
      'core',
      'models',
      'stacks',
      'provider-kaito',
      'provider-dynamo',
      'provider-kuberay',
      'provider-llmd',
      'simulators',
    ]);
    expect(system.services.every(s => s.service.exit === undefined)).toBe(true);
  });

  it.each([
    ['core', 'airunway-core'],
    ['models', 'airunway-models'],
    ['stacks', 'airunway-stacks'],
    ['provider-kaito', 'kaito-provider'],
    ['provider-dynamo', 'dynamo-provider'],
    ['provider-kuberay', 'kuberay-provider'],
    ['provider-llmd', 'llmd-provider'],
  ])(
    'runs %s as its own ServiceAccount %s with the shipped RBAC, not cluster-admin',
    async (name, account) => {
      const service = system.services.find(s => s.name === name)!;
      const user = `system:serviceaccount:airunway-system:${account}`;
      expect(service.user).toBe(user);
      expect(service.kubeconfigPath).not.toBe(
        system.clusters[0].kubeconfigPath,
      );
      // The process's own environment names that kubeconfig.
      const environ = readFileSync(
        `/proc/${service.service.pid}/environ`,
        'utf8',
      )
        .split('\0')
        .find(v => v.startsWith('KUBECONFIG='));
      expect(environ).toBe(`KUBECONFIG=${service.kubeconfigPath}`);
      const review = await postAs(
        service.kubeconfigPath!,
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'SelfSubjectReview',
        },
      );
      expect(review.status.userInfo.username).toBe(user);
      const canDeleteNamespaces = await postAs(
        service.kubeconfigPath!,
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: { verb: 'delete', resource: 'namespaces' },
          },
        },
      );
      expect(canDeleteNamespaces.status.allowed).toBe(false);
    },
  );

  it('installs through the CLI (runway install --all --out-of-cluster): its field manager, no Deployments; a second install changes nothing', async () => {
    const managers = (o: KubeObject) =>
      (o.metadata?.managedFields ?? []).map(
        f => (f as { manager?: string }).manager,
      );
    const crd = await client.get(CustomResourceDefinitions, {
      name: 'modeldeployments.airunway.ai',
    });
    expect(managers(crd)).toContain('runway-cli');
    const account = await client.get(
      await client.resolve('v1', 'ServiceAccount'),
      {
        namespace: 'airunway-system',
        name: 'airunway-core',
      },
    );
    expect(managers(account)).toContain('runway-cli');
    expect(account.metadata?.labels?.['airunway.ai/component']).toBe('core');
    // The controllers run here as processes: nothing of theirs runs in the cluster.
    expect(
      (await client.list(Deployments, { namespace: 'airunway-system' })).items,
    ).toEqual([]);
    // Again, with the controllers running and their webhooks filled in: nothing of theirs is undone.
    expect(await installRunway(system.clusters[0])).toMatch(
      /^ {2}cluster system-test: runway install --all --out-of-cluster: install: \d+ unchanged$/,
    );
  });

  it("converts LlamaStackDistributions through the stacks operator: the CLI left the CRD's conversion out, the operator pointed it at itself", async () => {
    const version = (v: string): ResourceType => ({
      group: 'llamastack.io',
      version: v,
      kind: 'LlamaStackDistribution',
      plural: 'llamastackdistributions',
      namespaced: true,
    });
    await client.create(version('v1alpha1'), {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'legacy', namespace: 'team-a' },
      spec: {
        replicas: 1,
        server: {
          distribution: { name: 'starter' },
          containerSpec: { name: 'llama-stack', port: 8321 },
        },
      },
    } as KubeObject);
    const asV2 = await client.get<
      KubeObject & {
        spec?: { distribution?: unknown; networking?: { port?: number } };
      }
    >(version('v1alpha2'), { namespace: 'team-a', name: 'legacy' });
    expect(asV2.apiVersion).toBe('llamastack.io/v1alpha2');
    expect(asV2.spec).toMatchObject({
      distribution: { name: 'starter' },
      networking: { port: 8321 },
    });
  });

  it('runs the simulators (operator test doubles) with the admin kubeconfig', () => {
    const simulators = system.services.find(s => s.name === 'simulators')!;
    expect(simulators.user).toBeUndefined();
    expect(simulators.kubeconfigPath).toBe(system.clusters[0].kubeconfigPath);
  });

  it.each([
    {
      name: 'gemma-cpu',
      provider: 'kaito',
      kind: 'Workspace',
      spec: {
        model: {
          id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
          source: 'huggingface',
        },
        engine: { type: 'llamacpp' },
        resources: { cpu: '8', memory: '16Gi' },
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
      },
    },
    {
      name: 'qwen-gpu',
      provider: 'dynamo',
      kind: 'DynamoGraphDeployment',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 }, memory: '16Gi' },
      },
    },
    {
      name: 'qwen-ray',
      provider: 'kuberay',
      kind: 'RayService',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
        provider: { name: 'kuberay' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 }, memory: '16Gi' },
      },
    },
    {
      // llm-d writes Deployments, a ServiceAccount, a Role and a RoleBinding itself: as its
      // ServiceAccount, under its RBAC and admission policy (kwok runs the pods on gpu-0).
      name: 'qwen-llmd',
      provider: 'llmd',
      kind: 'InferencePool',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
        provider: { name: 'llmd' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 }, memory: '8Gi' },
      },
    },
  ])(
    'a ModelDeployment for $provider becomes Running end to end',
    async ({ name, provider, kind, spec }) => {
      await client.create(ModelDeployments, {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name, namespace: 'team-a' },
        spec,
      } as KubeObject);
      const running = await eventually(
        `${name} to be Running`,
        async () => {
          const md = await client.get<Deployment>(ModelDeployments, {
            namespace: 'team-a',
            name,
          });
          if (md.status?.phase === 'Running') return md;
          if (md.status?.phase === 'Failed')
            throw new Error(`Failed: ${md.status.message}`);
          return undefined;
        },
        90_000,
      );
      expect(running.status?.provider).toEqual(
        expect.objectContaining({ name: provider, resourceKind: kind }),
      );
    },
    120_000,
  );

  it("downloads a Model of the hub stand-in's demo repository: its pod's log read through pods/log, then Ready", async () => {
    await client.create(Models, {
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      metadata: { name: 'demo', namespace: 'team-a' },
      spec: {
        source: { huggingFace: { repoId: 'runway-demo/tiny-model' } },
        // Any name: no local cluster binds it, the download simulator stands in for the volume.
        storage: { storageClass: 'local-models', size: '1Gi' },
      },
    } as KubeObject);
    const ready = await eventually(
      'Model demo to be Ready',
      async () => {
        const m = await client.get<
          KubeObject & {
            status?: {
              phase?: string;
              message?: string;
              progress?: number;
              download?: { totalBytes?: number };
            };
          }
        >(Models, { namespace: 'team-a', name: 'demo' });
        if (m.status?.phase === 'Failed')
          throw new Error(`Failed: ${m.status.message}`);
        return m.status?.phase === 'Ready' ? m : undefined;
      },
      90_000,
    );
    expect(ready.status).toMatchObject({ progress: 100 });
    // The done line's bytes: the operator read the pod's log (16 MiB of weights, config, tokenizer).
    expect(ready.status?.download?.totalBytes).toBeGreaterThan(
      16 * 1024 * 1024,
    );
    const [pod] = (
      await client.list(Pods, {
        namespace: 'team-a',
        labelSelector: 'batch.kubernetes.io/job-name=model-download-demo',
      })
    ).items as Array<KubeObject & { spec?: { nodeName?: string } }>;
    expect(pod.spec?.nodeName).toBe('runway-downloads');
    const log = await client.requestText({
      method: 'GET',
      path: `/api/v1/namespaces/team-a/pods/${pod.metadata!.name}/log`,
    });
    expect(log).toContain('"event":"done"');
  }, 120_000);

  it('routes a deployment through the local Gateway: GatewayReady=True with status.gateway.endpoint', async () => {
    // gemma-cpu (KAITO) from above: the simulated KAITO operator created its Service, the simulated
    // gateway implementation programmed the labelled Gateway, and the real core configured the route.
    const routed = await eventually(
      'gemma-cpu to be GatewayReady=True with an endpoint',
      async () => {
        const md = await client.get<Deployment>(ModelDeployments, {
          namespace: 'team-a',
          name: 'gemma-cpu',
        });
        const ready = md.status?.conditions?.find(
          c => c.type === 'GatewayReady',
        );
        return ready?.status === 'True' && md.status?.gateway?.endpoint
          ? md
          : undefined;
      },
      90_000,
    );
    expect(routed.status?.gateway).toEqual(
      expect.objectContaining({
        endpoint: 'http://inference-gateway.gateway-system.gateway.invalid',
        gatewayNamespace: 'gateway-system',
        modelName: 'google/gemma-3-1b-it-qat-q8_0-gguf',
      }),
    );
    expect(
      routed.status?.conditions?.find(c => c.type === 'GatewayReady'),
    ).toMatchObject({ reason: 'GatewayConfigured' });
  }, 120_000);

  it("the portal's doctor sees every controller running outside the cluster: no false 'not found'", async () => {
    const doctor = new ClusterDoctor(() => new Map([['system-test', client]]), {
      intervalMs: 0,
    });
    const report = await doctor.run('system-test');
    process.stdout.write(
      `doctor on the local system: ${report.durationMs} ms, ${
        report.problems
      } problems: ${report.checks
        .filter(c => c.status === 'fail' || c.status === 'warn')
        .map(c => `${c.id}: ${c.message}`)
        .join('; ')}\n`,
    );
    const controllers = report.checks.filter(
      c =>
        c.id.startsWith('controller/') ||
        c.id.startsWith('operator/') ||
        /^provider\/[^/]+\/controller$/.test(c.id),
    );
    expect(controllers.map(c => c.id).sort()).toEqual([
      'controller/core',
      'operator/models',
      'operator/stacks',
      'provider/dynamo/controller',
      'provider/kaito/controller',
      'provider/kuberay/controller',
      'provider/llmd/controller',
    ]);
    for (const c of controllers)
      expect(c).toMatchObject({
        status: 'ok',
        message: expect.stringContaining(
          'running outside the cluster (leader lease renewed',
        ),
      });
    expect(report.checks.filter(c => c.status === 'fail')).toEqual([]);
  });

  it('runway doctor reports the local system healthy: no check fails, the controllers run outside the cluster', async () => {
    const reporter = memoryReporter();
    const out: string[] = [];
    const code = await runway(
      [
        'doctor',
        '--output',
        'json',
        '--kubeconfig',
        system.clusters[0].kubeconfigPath,
      ],
      { reporter, stdout: t => out.push(t) },
    );
    const report = JSON.parse(out.join('')) as {
      healthy: boolean;
      checks: Array<{ id: string; status: string; message: string }>;
    };
    expect(report.checks.filter(c => c.status === 'fail')).toEqual([]);
    expect(report).toMatchObject({ healthy: true });
    expect(code).toBe(0);
    expect(reporter.lines).toEqual([]);
    // The webhooks the controllers registered in url mode answer the doctor's probe.
    const webhooks = report.checks.filter(c => c.id.startsWith('webhook/'));
    expect(webhooks.length).toBeGreaterThanOrEqual(4);
    for (const c of webhooks) expect(c.status).toBe('ok');
    expect(report.checks.find(c => c.id === 'controller/core')).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('running outside the cluster'),
    });
  });

  // Issue 17's faults on this system (its replicas and restarts come after the checks above).
  describeFaults(() => system);

  it('stop() leaves no process of the system running', async () => {
    const before = processesOf(process.pid);
    // etcd, apiserver, controller-manager, scheduler, kwok + 5 controllers + simulators
    expect(before.length).toBeGreaterThanOrEqual(11);
    await system.stop();
    await eventually(
      'every process to end',
      () => (processesOf(process.pid).length === 0 ? true : undefined),
      15_000,
    );
    expect(processesOf(process.pid)).toEqual([]);
  }, 120_000);
});

describe('the CLI', () => {
  it(
    'leaves nothing running after kill -9 of the orchestrator',
    async () => {
      const stateDir = mkdtempSync(join(tmpdir(), 'runway-system-kill-'));
      const cli = spawn(
        process.execPath,
        [
          `--require=${require.resolve(
            '@backstage/cli/config/nodeTransform.cjs',
          )}`,
          'src/cli.ts',
          'up',
          '--clusters',
          'system-kill',
          '--no-backstage',
        ],
        {
          cwd: join(REPO_ROOT, 'e2e', 'system'),
          env: { ...process.env, RUNWAY_SYSTEM_DIR: stateDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      cli.stdout!.on('data', chunk => (output += chunk));
      cli.stderr!.on('data', chunk => (output += chunk));
      try {
        await eventually(
          'the CLI to report the system running',
          () => {
            if (cli.exitCode !== null)
              throw new Error(`the CLI exited ${cli.exitCode}:\n${output}`);
            return output.includes('Press Ctrl-C to stop everything.')
              ? true
              : undefined;
          },
          START_TIMEOUT_MS,
        );
        expect(output).toContain('cluster system-kill: KUBECONFIG=');
        expect(processesOf(cli.pid!).length).toBeGreaterThanOrEqual(11);
        cli.kill('SIGKILL');
        await eventually(
          'every process of the killed CLI to end',
          () => {
            const left = processesOf(cli.pid!);
            if (left.length > 0)
              throw new Error(
                `still running: ${left.map(commandOf).join('; ')}`,
              );
            return true;
          },
          20_000,
        );
      } finally {
        cli.kill('SIGKILL');
        for (const pid of processesOf(cli.pid!)) process.kill(pid, 'SIGKILL');
        rmSync(stateDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS,
  );
});

/**
 * Footprint benchmark (issue 21): every controller of the local system
 * (core, models, stacks, KAITO, Dynamo, KubeRay, llm-d) started one after
 * the other against one real cluster, as the local system starts them
 * (`CONTROLLERS`, `processCommand`): by default the bundled production
 * entry with the image's Node flags. Prints per controller the start-up
 * time to `/readyz`, resident memory (RSS) and V8 heap in use at idle and
 * with COUNT ModelDeployments cached (spread over the four providers; the
 * operator simulators move them on), next to a bare `node` process as the
 * floor, and the targets: at most 100 MiB idle and 150 MiB with 1,000.
 *
 *   yarn workspace @runway-portal/e2e-system bench:footprint                 # bundles, 1,000
 *   ENTRY=source yarn workspace @runway-portal/e2e-system bench:footprint    # the start scripts (before)
 *   COUNT=100 yarn workspace @runway-portal/e2e-system bench:footprint
 *
 * Environment: COUNT (default 1000), ENTRY (`bundle` or `source`), SETTLE_S
 * (seconds of quiet before each sample, default 20), TIMEOUT_S (the longest
 * wait for every deployment's ResourceCreated before the sample, default 1800).
 */
import {
  CONTROLLER_NODE_FLAGS,
  ensureControllerBundle,
} from '@runway-portal/controller-runtime/bundle';
import {
  KubeClient,
  Namespaces,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  freePort,
  type ManagedProcess,
  startCluster,
  type TestCluster,
} from '@runway-portal/e2e-cluster';
import {
  gatewayApiCrdFiles,
  type HubStandIn,
  startLocalHub,
  upstreamCrdFiles,
} from '@runway-portal/e2e-simulators';
import { ModelDeployments } from '@runway-portal/provider-shared';
import { inParallel, memoryOf, runBenchmark } from '@runway-portal/e2e-testing';
import {
  type ModelDeploymentObject,
  resourceCreated,
} from '@runway-portal/provider-shared/testing';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONTROLLERS,
  type ControllerSpec,
  entryCommand,
  entryFile,
  LOCAL_GATEWAY,
  LOCAL_GATEWAY_NAMESPACE,
  processCommand,
  SIMULATORS,
} from '../src/plan';
import { startService } from '../src/processes';
import { REPO_ROOT, RUNWAY_CRDS_DIR } from '../src/system';
import { envNumber } from './env';

const COUNT = envNumber('COUNT', 1000);
const SETTLE_MS = envNumber('SETTLE_S', 20) * 1000;
const TIMEOUT_MS = envNumber('TIMEOUT_S', 1800) * 1000;
const ENTRY = process.env.ENTRY || 'bundle';
if (ENTRY !== 'bundle' && ENTRY !== 'source') {
  throw new Error(
    `ENTRY=${JSON.stringify(
      ENTRY,
    )} is not valid: use ENTRY=bundle (the image's entry) or ENTRY=source (the start scripts)`,
  );
}
const NS = 'footprint';
const IDLE_TARGET_MIB = 100;
const CACHED_TARGET_MIB = 150;

/** One spec per provider, round robin (as the end-to-end bench spreads them). */
const SPECS = [
  {
    model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf', source: 'huggingface' },
    engine: { type: 'llamacpp' },
    resources: { cpu: '8', memory: '16Gi' },
    image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
  },
  {
    model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 }, memory: '16Gi' },
  },
  {
    model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
    provider: { name: 'kuberay' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 }, memory: '16Gi' },
  },
  {
    model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
    provider: { name: 'llmd' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 }, memory: '8Gi' },
  },
];

const Gateways: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
  namespaced: true,
};

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

interface Running {
  spec: Pick<ControllerSpec, 'name'>;
  process: ManagedProcess;
  logPath: string;
  metricsPort?: number;
  startupMs?: number;
  idle?: Sample;
  cached?: Sample;
}

interface Sample {
  rss: number;
  heap?: number;
}

/** V8 heap in use (MiB) from the process's own /metrics (prom-client's default metrics). */
async function heapOf(metricsPort: number): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    const text = await res.text();
    const m = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text);
    return m ? Number(m[1]) / 1048576 : undefined;
  } catch {
    return undefined;
  }
}

async function sample(r: Running): Promise<Sample> {
  const pid = r.process.pid;
  const rss = pid === undefined || r.process.exit ? 0 : memoryOf(pid).rss;
  return {
    rss,
    heap: r.metricsPort ? await heapOf(r.metricsPort) : undefined,
  };
}

/** Polls /readyz every 50 ms; the time from spawn to the first 200. */
async function waitReady(
  r: Running,
  healthPort: number,
  startedAt: number,
): Promise<number> {
  const deadline = startedAt + 180_000;
  for (;;) {
    if (r.process.exit) {
      throw new Error(
        `${r.spec.name} exited ${JSON.stringify(
          r.process.exit,
        )} before /readyz (log: ${r.logPath})`,
      );
    }
    try {
      const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      if (res.ok) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      throw new Error(
        `${r.spec.name} not ready within 180 s (log: ${r.logPath})`,
      );
    }
    await sleep(50);
  }
}

function readPackage(dir: string): {
  name: string;
  scripts?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

const mib = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(0));
function verdict(rss: number | undefined, target: number): string {
  if (rss === undefined) return '';
  return rss <= target ? 'ok' : 'OVER';
}

async function main(): Promise<void> {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const stateDir = await mkdtemp(join(tmpdir(), 'runway-footprint-'));
  const logDir = join(stateDir, 'logs');
  const modelsDir = join(stateDir, 'models');
  await mkdir(logDir, { recursive: true });
  const running: Running[] = [];
  let cluster: TestCluster | undefined;
  let hub: HubStandIn | undefined;
  let bare: ManagedProcess | undefined;
  const stopAll = async () => {
    await Promise.all(running.map(r => r.process.stop()));
    await bare?.stop();
    await cluster?.stop();
    await hub?.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
  try {
    progress(
      `ENTRY=${ENTRY}; logs in ${logDir}; starting one cluster with Runway's and the upstream CRDs`,
    );
    cluster = await startCluster({
      name: 'footprint',
      crds: [RUNWAY_CRDS_DIR, ...upstreamCrdFiles(), ...gatewayApiCrdFiles()],
      nodes: [
        {
          name: 'gpu-0',
          gpus: COUNT,
          cpu: String(4 * COUNT + 32),
          memory: `${32 * COUNT + 128}Gi`,
          pods: 2 * COUNT + 10,
        },
        {
          name: 'cpu-0',
          cpu: String(8 * COUNT + 16),
          memory: `${16 * COUNT + 64}Gi`,
          pods: 2 * COUNT + 10,
        },
      ],
      extraArgs: {
        'kube-apiserver': ['--service-cluster-ip-range=10.0.0.0/16'],
      },
    });
    hub = await startLocalHub();
    // A loaded machine's API server may take long to list 1,000 deployments.
    const client = new KubeClient(cluster.kubeConfig(), {
      requestTimeoutMs: 120_000,
    });
    const apply = { fieldManager: 'runway-bench', force: true };
    await client.apply(
      Namespaces,
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: LOCAL_GATEWAY_NAMESPACE },
      },
      apply,
    );
    await client.apply(Gateways, LOCAL_GATEWAY, apply);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KUBECONFIG: cluster.kubeconfigPath,
      HF_ENDPOINT: hub.url,
      LOG_LEVEL: 'warn',
    };
    // The floor: Node itself, with the same flags, doing nothing.
    bare = startService(
      'bare-node',
      process.execPath,
      [...CONTROLLER_NODE_FLAGS, '-e', 'setInterval(() => {}, 1000)'],
      { cwd: REPO_ROOT, env, logPath: join(logDir, 'bare-node.log') },
    );

    const bundleLines: string[] = [];
    for (const spec of CONTROLLERS) {
      const dir = join(REPO_ROOT, spec.packageDir);
      const pkg = readPackage(dir);
      const start = entryCommand(pkg.name, pkg.scripts?.start);
      if (ENTRY === 'bundle') {
        const built = await ensureControllerBundle(dir, entryFile(start));
        bundleLines.push(
          `${spec.name}: ${
            built.built ? `bundled in ${built.ms} ms` : 'bundle current'
          }`,
        );
      }
      const command = ENTRY === 'bundle' ? processCommand(spec, start) : start;
      const [healthPort, webhookPort, metricsPort] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
      ]);
      const args = spec
        .args({ webhookPort, healthPort, modelsDir, clusterDir: cluster.dir })
        .map(a =>
          a.startsWith('--metrics-port=') ? `--metrics-port=${metricsPort}` : a,
        );
      const logPath = join(logDir, `${spec.name}.log`);
      const startedAt = performance.now();
      const r: Running = {
        spec,
        logPath,
        metricsPort,
        process: startService(
          spec.name,
          process.execPath,
          [...command.nodeArgs, ...args],
          { cwd: dir, env, logPath },
        ),
      };
      running.push(r);
      // One at a time: start-up is timed without the others competing for the CPU.
      r.startupMs = await waitReady(r, healthPort, startedAt);
      progress(`${spec.name} ready in ${r.startupMs.toFixed(0)} ms`);
    }
    const simulators = startService(
      'simulators',
      process.execPath,
      [
        ...entryCommand(
          'simulators',
          readPackage(join(REPO_ROOT, SIMULATORS.packageDir)).scripts?.start,
        ).nodeArgs,
        ...SIMULATORS.args({
          webhookPort: 0,
          healthPort: 0,
          modelsDir,
          clusterDir: cluster.dir,
        }),
      ],
      {
        cwd: join(REPO_ROOT, SIMULATORS.packageDir),
        env,
        logPath: join(logDir, 'simulators.log'),
      },
    );
    running.push({
      spec: { name: 'simulators' },
      process: simulators,
      logPath: join(logDir, 'simulators.log'),
    });

    progress(`idle: ${SETTLE_MS / 1000} s of quiet, then a sample`);
    await sleep(SETTLE_MS);
    const bareRunning: Running = {
      spec: { name: 'bare node' },
      process: bare,
      logPath: '',
    };
    const bareIdle = await sample(bareRunning);
    for (const r of running) r.idle = await sample(r);

    progress(`creating ${COUNT} ModelDeployments over the four providers`);
    await client.create(Namespaces, { metadata: { name: NS } });
    await inParallel(COUNT, 16, i =>
      client.create(ModelDeployments, {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: `md-${i}`, namespace: NS },
        spec: SPECS[i % SPECS.length],
      }),
    );
    // Sampled once every deployment has ResourceCreated, or after TIMEOUT_S with the count printed.
    let created = 0;
    const deadline = Date.now() + TIMEOUT_MS;
    while (created < COUNT && Date.now() < deadline) {
      const exited = running.filter(r => r.process.exit);
      if (exited.length > 0) {
        throw new Error(
          `exited during the run: ${exited
            .map(r => `${r.spec.name} (log: ${r.logPath})`)
            .join(', ')}`,
        );
      }
      await sleep(5000); // listing every deployment is load too
      try {
        const items = (
          await client.list<ModelDeploymentObject>(ModelDeployments, {
            namespace: NS,
          })
        ).items;
        created = items.filter(resourceCreated).length;
        progress(`ResourceCreated ${created}/${COUNT}`);
      } catch (err) {
        // A loaded API server answers 504 or not at all now and then: ask again.
        progress(`listing failed, retrying: ${(err as Error).message}`);
      }
    }
    progress(`cached: ${SETTLE_MS / 1000} s of quiet, then a sample`);
    await sleep(SETTLE_MS);
    const bareCached = await sample(bareRunning);
    for (const r of running) r.cached = await sample(r);
    client.close();

    const rows = [
      [
        'process',
        'ready ms',
        'idle RSS',
        'heap',
        `${COUNT} cached RSS`,
        'heap',
        'idle ≤ 100',
        `cached ≤ 150`,
      ],
      [
        'bare node (floor)',
        '-',
        mib(bareIdle.rss),
        '-',
        mib(bareCached.rss),
        '-',
        '',
        '',
      ],
      ...running
        .filter(r => r.spec.name !== 'simulators')
        .map(r => [
          r.spec.name,
          r.startupMs?.toFixed(0) ?? '-',
          mib(r.idle?.rss),
          mib(r.idle?.heap),
          mib(r.cached?.rss),
          mib(r.cached?.heap),
          verdict(r.idle?.rss, IDLE_TARGET_MIB),
          COUNT >= 1000
            ? verdict(r.cached?.rss, CACHED_TARGET_MIB)
            : '(COUNT < 1000)',
        ]),
    ];
    const widths = rows[0].map((_, i) =>
      Math.max(...rows.map(row => row[i].length)),
    );
    process.stdout.write(
      `\nController footprint (${created}/${COUNT} with ResourceCreated when sampled), ENTRY=${ENTRY} (${
        ENTRY === 'bundle'
          ? `dist/controller.cjs, node ${CONTROLLER_NODE_FLAGS.join(' ')}`
          : 'each start script, through the test transform'
      }); MiB; COUNT=${COUNT}\n`,
    );
    for (const row of rows) {
      process.stdout.write(
        `${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`,
      );
    }
    if (bundleLines.length > 0)
      process.stdout.write(`\n${bundleLines.join('\n')}\n`);
  } finally {
    await stopAll();
  }
}

runBenchmark(main);

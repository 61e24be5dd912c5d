/**
 * Benchmark: 1,000 ModelDeployments through the KAITO provider, run as its
 * own process against a real cluster, next to the API server's raw write
 * rate measured in the same run. Prints times, rates, ratios and each
 * provider process's memory. Usage: `yarn bench [count]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigMaps, KubeClient, type KubeObject, Namespaces } from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { ModelDeployments, selectProviderAsCore } from '@runway-portal/provider-shared';

const COUNT = Number(process.argv[2] ?? 1000);
const CONCURRENCY = 16;
const NS = 'bench';
const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
/** `../shared` next to the repository root (see the project README). */
const UPSTREAM = path.resolve(__dirname, '../../../../../shared/upstream/crds');
const Workspaces = { group: 'kaito.sh', version: 'v1beta1', plural: 'workspaces', kind: 'Workspace', namespaced: true };

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise(r => setTimeout(r, 1000)); // listing 1,000 deployments is itself load: poll gently
  }
}

/** Resident and peak memory of a process, in MiB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function startProvider(name: string, kubeconfig: string): ChildProcess {
  const entry = path.resolve(__dirname, `../../${name}/src/main.ts`);
  const child = spawn(
    process.execPath,
    ['--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), entry, '--metrics-port', '0', '--health-port', '0', '--log-level', 'warn'],
    { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  child.on('exit', code => {
    if (code) process.stderr.write(`${name} provider exited with ${code}\n`);
  });
  return child;
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

async function main(): Promise<void> {
  const cluster = await startCluster({
    name: 'bench-providers',
    crds: [RUNWAY_CRDS, `${UPSTREAM}/kaito-kaito.sh_workspaces.yaml`, `${UPSTREAM}/kuberay-ray.io_rayservices.yaml`],
  });
  const client = new KubeClient(cluster.kubeConfig());
  const providers: ChildProcess[] = [];
  try {
    await client.create(Namespaces, { metadata: { name: NS } });
    // Baseline: plain creates of small objects, same concurrency.
    const rawSeconds = await timed(() =>
      inParallel(COUNT, i => client.create(ConfigMaps, { metadata: { name: `raw-${i}`, namespace: NS }, data: { i: String(i) } })),
    );
    const rawRate = COUNT / rawSeconds;

    // Second baseline, the deployments themselves: create + the core's status write, no provider running yet.
    const submitSeconds = await timed(() =>
      inParallel(COUNT, async i => {
        const name = `md-${i}`;
        await client.create(ModelDeployments, {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name, namespace: NS },
          spec: { model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' }, engine: { type: 'llamacpp' }, image: 'ghcr.io/sozercan/llama-cpp-runner:latest', resources: { cpu: '1', memory: '2Gi' } },
        } as ModelDeployment & KubeObject);
        await selectProviderAsCore(client, { namespace: NS, name }, 'kaito');
      }),
    );
    const mdWriteRate = (2 * COUNT) / submitSeconds;

    // The providers start with 1,000 deployments waiting: the time covers start-up, cache sync and every reconcile.
    const started = Date.now();
    const kaito = startProvider('kaito', cluster.kubeconfigPath);
    const kuberay = startProvider('kuberay', cluster.kubeconfigPath);
    providers.push(kaito, kuberay);
    const countWhere = async (check: (md: ModelDeployment) => boolean) =>
      (await client.list<ModelDeployment & KubeObject>(ModelDeployments, { namespace: NS })).items.filter(check).length;
    await pollUntil(async () => (await countWhere(md => md.status?.conditions?.some(c => c.type === 'ResourceCreated' && c.status === 'True') ?? false)) === COUNT, 600_000);
    const createdSeconds = (Date.now() - started) / 1000;
    const idle = { kaito: memoryOf(kaito.pid!), kuberay: memoryOf(kuberay.pid!) };

    // KAITO's operator reporting every workspace up.
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    const cond = (type: string) => ({ type, status: 'True', reason: type, message: '', lastTransitionTime: now });
    const runningStart = Date.now();
    await inParallel(COUNT, i =>
      client.patch(Workspaces, { namespace: NS, name: `md-${i}` }, { status: { conditions: [cond('InferenceReady'), cond('WorkspaceSucceeded')] } }, 'merge', { subresource: 'status' }),
    );
    await pollUntil(async () => (await countWhere(md => md.status?.phase === 'Running')) === COUNT, 600_000);
    const runningSeconds = (Date.now() - runningStart) / 1000;
    const busy = { kaito: memoryOf(kaito.pid!), kuberay: memoryOf(kuberay.pid!) };

    const mdRate = COUNT / createdSeconds;
    const providerWriteRate = (4 * COUNT) / createdSeconds;
    const lines = [
      `ModelDeployments: ${COUNT} (client concurrency ${CONCURRENCY}, provider reconciles ${process.env.MAX_CONCURRENT_RECONCILES ?? 4} in parallel)`,
      `baseline 1, API server raw write rate (ConfigMap creates): ${rawRate.toFixed(0)} writes/s (${rawSeconds.toFixed(2)} s for ${COUNT})`,
      `baseline 2, ModelDeployment writes (create + core status write, CEL-validated): ${mdWriteRate.toFixed(0)} writes/s (${submitSeconds.toFixed(2)} s for ${2 * COUNT})`,
      `all ResourceCreated: ${createdSeconds.toFixed(2)} s from provider process start = ${mdRate.toFixed(0)} deployments/s = ${providerWriteRate.toFixed(0)} provider writes/s (finalizer, Workspace, status, ResourceCreated event each); ratio to baseline 1 ${ratio(providerWriteRate, rawRate)}, to baseline 2 ${ratio(providerWriteRate, mdWriteRate)}`,
      `all Running after the upstream status moved: ${runningSeconds.toFixed(2)} s = ${(COUNT / runningSeconds).toFixed(0)} deployments/s (1 status write each, after ${COUNT} upstream status writes); ratio to baseline 2 ${ratio(COUNT / runningSeconds, mdWriteRate)}`,
      `kaito provider memory: RSS when all were created ${idle.kaito.rss.toFixed(0)} MiB, at the end ${busy.kaito.rss.toFixed(0)} MiB, peak ${busy.kaito.peak.toFixed(0)} MiB`,
      `kuberay provider memory (watching the same ${COUNT} deployments, none its own): then ${idle.kuberay.rss.toFixed(0)} MiB, at the end ${busy.kuberay.rss.toFixed(0)} MiB, peak ${busy.kuberay.peak.toFixed(0)} MiB`,
      'note: the providers run from TypeScript sources through the test transform (as local processes do); a built bundle needs less memory',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const p of providers) p.kill('SIGTERM');
    await Promise.all(providers.map(p => new Promise(r => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
    client.close();
    await cluster.stop();
  }
}

main().catch(err => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

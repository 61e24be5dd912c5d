/**
 * Benchmark: ModelDeployments through the llm-d provider, run as its own
 * process (`src/main.ts`) against a real cluster with GAIE's real
 * InferencePool CRD, next to the API server's raw write rate measured in the
 * same run. Nothing moves status by hand: Kubernetes' Deployment controller,
 * the scheduler and kwok bring every model server up. Prints times, rates,
 * ratios and the provider process's memory. Usage: `yarn bench [count]`
 * (default 1,000).
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
const POOL_CRD = path.resolve(__dirname, '../../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml');

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise(r => setTimeout(r, 1000)); // listing every deployment is load too: poll gently
  }
}

/** Resident and peak memory of a process, in MiB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function startProvider(kubeconfig: string): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), path.resolve(__dirname, '../src/main.ts'), '--metrics-port', '0', '--health-port', '0', '--log-level', 'warn'],
    { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  child.on('exit', code => {
    if (code) process.stderr.write(`llmd provider exited with ${code}\n`);
  });
  return child;
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

async function main(): Promise<void> {
  const cluster = await startCluster({
    name: 'bench-llmd',
    // Room for one single-GPU model server per deployment.
    nodes: [{ name: 'gpu-0', gpus: COUNT, cpu: String(COUNT), memory: `${COUNT * 16}Gi`, pods: COUNT + 10 }],
    crds: [RUNWAY_CRDS, POOL_CRD],
    // One ClusterIP Service per deployment: the harness's default /24 range holds only 253.
    extraArgs: { 'kube-apiserver': ['--service-cluster-ip-range=10.0.0.0/16'] },
  });
  const client = new KubeClient(cluster.kubeConfig());
  let provider: ChildProcess | undefined;
  try {
    await client.create(Namespaces, { metadata: { name: NS } });
    // Baseline 1: plain creates of small objects, same concurrency.
    const rawSeconds = await timed(() =>
      inParallel(COUNT, i => client.create(ConfigMaps, { metadata: { name: `raw-${i}`, namespace: NS }, data: { i: String(i) } })),
    );
    const rawRate = COUNT / rawSeconds;

    // Baseline 2: the deployments themselves (create + the core's status write), no provider running yet.
    const submitSeconds = await timed(() =>
      inParallel(COUNT, async i => {
        const name = `md-${i}`;
        await client.create(ModelDeployments, {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name, namespace: NS },
          spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'llmd' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 }, memory: '8Gi' } },
        } as ModelDeployment & KubeObject);
        await selectProviderAsCore(client, { namespace: NS, name }, 'llmd');
      }),
    );
    const mdWriteRate = (2 * COUNT) / submitSeconds;

    // The provider starts with every deployment waiting: the time covers start-up, cache sync and every reconcile.
    const started = Date.now();
    provider = startProvider(cluster.kubeconfigPath);
    const countWhere = async (check: (md: ModelDeployment) => boolean) =>
      (await client.list<ModelDeployment & KubeObject>(ModelDeployments, { namespace: NS })).items.filter(check).length;
    await pollUntil(async () => (await countWhere(md => md.status?.conditions?.some(c => c.type === 'ResourceCreated' && c.status === 'True') ?? false)) === COUNT, 900_000);
    const createdSeconds = (Date.now() - started) / 1000;
    const afterCreate = memoryOf(provider.pid!);
    await pollUntil(async () => (await countWhere(md => md.status?.phase === 'Running')) === COUNT, 900_000);
    const runningSeconds = (Date.now() - started) / 1000;
    const atEnd = memoryOf(provider.pid!);

    const providerWriteRate = (6 * COUNT) / createdSeconds;
    const lines = [
      `ModelDeployments: ${COUNT} (client concurrency ${CONCURRENCY}, provider reconciles ${process.env.MAX_CONCURRENT_RECONCILES ?? 4} in parallel)`,
      `baseline 1, API server raw write rate (ConfigMap creates): ${rawRate.toFixed(0)} writes/s (${rawSeconds.toFixed(2)} s for ${COUNT})`,
      `baseline 2, ModelDeployment writes (create + core status write, CEL-validated): ${mdWriteRate.toFixed(0)} writes/s (${submitSeconds.toFixed(2)} s for ${2 * COUNT})`,
      `all ResourceCreated: ${createdSeconds.toFixed(2)} s from provider process start = ${(COUNT / createdSeconds).toFixed(0)} deployments/s = ${providerWriteRate.toFixed(0)} provider writes/s (finalizer, InferencePool, Deployment, Service, status, event each); ratio to baseline 1 ${ratio(providerWriteRate, rawRate)}, to baseline 2 ${ratio(providerWriteRate, mdWriteRate)}`,
      `all Running (Deployment controller, scheduler and kwok brought ${COUNT} model-server pods up): ${runningSeconds.toFixed(2)} s from provider process start`,
      `llmd provider memory: RSS when all were created ${afterCreate.rss.toFixed(0)} MiB, at the end ${atEnd.rss.toFixed(0)} MiB, peak ${atEnd.peak.toFixed(0)} MiB`,
      'note: the provider runs from TypeScript sources through the test transform (as local processes do); a built bundle needs less memory',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    provider?.kill('SIGTERM');
    if (provider && provider.exitCode === null) await new Promise(r => provider!.once('exit', r));
    client.close();
    await cluster.stop();
  }
}

main().catch(err => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

/**
 * Benchmark: ModelDeployments through the llm-d provider, run as its own
 * process (`src/main.ts`) against a real cluster with GAIE's real
 * InferencePool CRD, next to the API server's raw write rate measured in the
 * same run. Nothing moves status by hand: Kubernetes' Deployment controller,
 * the scheduler and kwok bring every model server up. Prints times, rates,
 * ratios and the provider process's memory. Usage: `yarn bench [count]`
 * (default 1,000).
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { KubeClient, Namespaces } from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  memoryOf,
  pollUntil,
  ratio,
  runBenchmark,
  stopProcesses,
} from '@runway-portal/e2e-testing';
import {
  baselineReport,
  countModelDeployments,
  measureBaselines,
  resourceCreated,
  startProviderProcess,
} from '@runway-portal/provider-shared/testing';

const COUNT = Number(process.argv[2] ?? 1000);
const CONCURRENCY = 16;
const NS = 'bench';
const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
const POOL_CRD = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
);

async function main(): Promise<void> {
  const cluster = await startCluster({
    name: 'bench-llmd',
    // Room for one single-GPU model server and one endpoint picker per deployment.
    nodes: [
      {
        name: 'gpu-0',
        gpus: COUNT,
        cpu: String(COUNT),
        memory: `${COUNT * 16}Gi`,
        pods: 2 * COUNT + 10,
      },
    ],
    crds: [RUNWAY_CRDS, POOL_CRD],
    // One ClusterIP Service per deployment: the harness's default /24 range holds only 253.
    extraArgs: { 'kube-apiserver': ['--service-cluster-ip-range=10.0.0.0/16'] },
  });
  const client = new KubeClient(cluster.kubeConfig());
  const providers: ChildProcess[] = [];
  try {
    await client.create(Namespaces, { metadata: { name: NS } });
    const target = { namespace: NS, count: COUNT, concurrency: CONCURRENCY };
    const baselines = await measureBaselines(
      client,
      target,
      {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'llmd' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 }, memory: '8Gi' },
      },
      'llmd',
    );
    const rawRate = baselines.raw.rate;
    const mdWriteRate = baselines.submitted.rate;

    // The provider starts with every deployment waiting: the time covers start-up, cache sync and every reconcile.
    const started = Date.now();
    const provider = startProviderProcess(
      'llmd',
      path.resolve(__dirname, '../src/main.ts'),
      cluster.kubeconfigPath,
    );
    providers.push(provider);
    const countWhere = (check: (md: ModelDeployment) => boolean) =>
      countModelDeployments(client, NS, check);
    await pollUntil(
      async () => (await countWhere(resourceCreated)) === COUNT,
      900_000,
    );
    const createdSeconds = (Date.now() - started) / 1000;
    const afterCreate = memoryOf(provider.pid!);
    await pollUntil(
      async () =>
        (await countWhere(md => md.status?.phase === 'Running')) === COUNT,
      900_000,
    );
    const runningSeconds = (Date.now() - started) / 1000;
    const atEnd = memoryOf(provider.pid!);

    // Per deployment: finalizer, InferencePool, model-server Deployment, Service, 6 endpoint picker objects, status, event.
    const providerWriteRate = (12 * COUNT) / createdSeconds;
    const lines = [
      ...baselineReport(target, baselines),
      `all ResourceCreated: ${createdSeconds.toFixed(
        2,
      )} s from provider process start = ${(COUNT / createdSeconds).toFixed(
        0,
      )} deployments/s = ${providerWriteRate.toFixed(
        0,
      )} provider writes/s (finalizer, InferencePool, Deployment, Service, 6 endpoint picker objects, status, event each); ratio to baseline 1 ${ratio(
        providerWriteRate,
        rawRate,
      )}, to baseline 2 ${ratio(providerWriteRate, mdWriteRate)}`,
      `all Running (Deployment controller, scheduler and kwok brought ${COUNT} model-server pods up): ${runningSeconds.toFixed(
        2,
      )} s from provider process start`,
      `llmd provider memory: RSS when all were created ${afterCreate.rss.toFixed(
        0,
      )} MiB, at the end ${atEnd.rss.toFixed(0)} MiB, peak ${atEnd.peak.toFixed(
        0,
      )} MiB`,
      'note: the provider runs from TypeScript sources through the test transform (as local processes do); a built bundle needs less memory',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await stopProcesses(providers);
    client.close();
    await cluster.stop();
  }
}

runBenchmark(main);

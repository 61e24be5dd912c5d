/**
 * Benchmark: 1,000 ModelDeployments through the KAITO provider, run as its
 * own process against a real cluster, next to the API server's raw write
 * rate measured in the same run. Prints times, rates, ratios and each
 * provider process's memory. Usage: `yarn bench [count]`.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { KubeClient, Namespaces } from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  inParallel,
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
/** `../shared` next to the repository root (see the project README). */
const UPSTREAM = path.resolve(__dirname, '../../../../../shared/upstream/crds');
const Workspaces = {
  group: 'kaito.sh',
  version: 'v1beta1',
  plural: 'workspaces',
  kind: 'Workspace',
  namespaced: true,
};
/** A provider's `main.ts` in this folder's sibling package. */
const mainOf = (provider: string) =>
  path.resolve(__dirname, `../../${provider}/src/main.ts`);

async function main(): Promise<void> {
  const cluster = await startCluster({
    name: 'bench-providers',
    crds: [
      RUNWAY_CRDS,
      `${UPSTREAM}/kaito-kaito.sh_workspaces.yaml`,
      `${UPSTREAM}/kuberay-ray.io_rayservices.yaml`,
    ],
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
        model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' },
        engine: { type: 'llamacpp' },
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
        resources: { cpu: '1', memory: '2Gi' },
      },
      'kaito',
    );
    const rawRate = baselines.raw.rate;
    const mdWriteRate = baselines.submitted.rate;

    // The providers start with 1,000 deployments waiting: the time covers start-up, cache sync and every reconcile.
    const started = Date.now();
    const kaito = startProviderProcess(
      'kaito',
      mainOf('kaito'),
      cluster.kubeconfigPath,
    );
    const kuberay = startProviderProcess(
      'kuberay',
      mainOf('kuberay'),
      cluster.kubeconfigPath,
    );
    providers.push(kaito, kuberay);
    const countWhere = (check: (md: ModelDeployment) => boolean) =>
      countModelDeployments(client, NS, check);
    await pollUntil(
      async () => (await countWhere(resourceCreated)) === COUNT,
      600_000,
    );
    const createdSeconds = (Date.now() - started) / 1000;
    const idle = {
      kaito: memoryOf(kaito.pid!),
      kuberay: memoryOf(kuberay.pid!),
    };

    // KAITO's operator reporting every workspace up.
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    const cond = (type: string) => ({
      type,
      status: 'True',
      reason: type,
      message: '',
      lastTransitionTime: now,
    });
    const runningStart = Date.now();
    await inParallel(COUNT, CONCURRENCY, i =>
      client.patch(
        Workspaces,
        { namespace: NS, name: `md-${i}` },
        {
          status: {
            conditions: [cond('InferenceReady'), cond('WorkspaceSucceeded')],
          },
        },
        'merge',
        { subresource: 'status' },
      ),
    );
    await pollUntil(
      async () =>
        (await countWhere(md => md.status?.phase === 'Running')) === COUNT,
      600_000,
    );
    const runningSeconds = (Date.now() - runningStart) / 1000;
    const busy = {
      kaito: memoryOf(kaito.pid!),
      kuberay: memoryOf(kuberay.pid!),
    };

    const mdRate = COUNT / createdSeconds;
    const providerWriteRate = (4 * COUNT) / createdSeconds;
    const lines = [
      ...baselineReport(target, baselines),
      `all ResourceCreated: ${createdSeconds.toFixed(
        2,
      )} s from provider process start = ${mdRate.toFixed(
        0,
      )} deployments/s = ${providerWriteRate.toFixed(
        0,
      )} provider writes/s (finalizer, Workspace, status, ResourceCreated event each); ratio to baseline 1 ${ratio(
        providerWriteRate,
        rawRate,
      )}, to baseline 2 ${ratio(providerWriteRate, mdWriteRate)}`,
      `all Running after the upstream status moved: ${runningSeconds.toFixed(
        2,
      )} s = ${(COUNT / runningSeconds).toFixed(
        0,
      )} deployments/s (1 status write each, after ${COUNT} upstream status writes); ratio to baseline 2 ${ratio(
        COUNT / runningSeconds,
        mdWriteRate,
      )}`,
      `kaito provider memory: RSS when all were created ${idle.kaito.rss.toFixed(
        0,
      )} MiB, at the end ${busy.kaito.rss.toFixed(
        0,
      )} MiB, peak ${busy.kaito.peak.toFixed(0)} MiB`,
      `kuberay provider memory (watching the same ${COUNT} deployments, none its own): then ${idle.kuberay.rss.toFixed(
        0,
      )} MiB, at the end ${busy.kuberay.rss.toFixed(
        0,
      )} MiB, peak ${busy.kuberay.peak.toFixed(0)} MiB`,
      'note: the providers run from TypeScript sources through the test transform (as local processes do); a built bundle needs less memory',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await stopProcesses(providers);
    client.close();
    await cluster.stop();
  }
}

runBenchmark(main);

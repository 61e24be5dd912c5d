/**
 * Benchmark: ModelDeployments through the Dynamo provider, run as its own
 * process (`src/main.ts`) against a real cluster with Dynamo's real CRD, next
 * to the API server's raw write rate measured in the same run. The bench
 * moves every DGD's status as Dynamo's operator does. Prints times, rates,
 * ratios and the provider process's memory. Usage: `yarn bench [count]`
 * (default 1,000).
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
const DGD_CRD = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds/dynamo-nvidia.com_dynamographdeployments.yaml',
);
const DGDs = {
  group: 'nvidia.com',
  version: 'v1beta1',
  plural: 'dynamographdeployments',
  kind: 'DynamoGraphDeployment',
  namespaced: true,
};

async function main(): Promise<void> {
  const cluster = await startCluster({
    name: 'bench-dynamo',
    crds: [RUNWAY_CRDS, DGD_CRD],
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
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 }, memory: '16Gi' },
      },
      'dynamo',
    );
    const rawRate = baselines.raw.rate;
    const mdWriteRate = baselines.submitted.rate;

    // The provider starts with every deployment waiting: the time covers start-up, cache sync and every reconcile.
    const started = Date.now();
    const provider = startProviderProcess(
      'dynamo',
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

    // Dynamo's operator reporting every graph up.
    const component = {
      componentKind: 'Deployment',
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    };
    const runningStart = Date.now();
    await inParallel(COUNT, CONCURRENCY, i =>
      client.patch(
        DGDs,
        { namespace: NS, name: `md-${i}` },
        {
          status: {
            state: 'successful',
            components: { Frontend: component, VllmWorker: component },
          },
        },
        'merge',
        { subresource: 'status' },
      ),
    );
    await pollUntil(
      async () =>
        (await countWhere(md => md.status?.phase === 'Running')) === COUNT,
      900_000,
    );
    const runningSeconds = (Date.now() - runningStart) / 1000;
    const atEnd = memoryOf(provider.pid!);

    const providerWriteRate = (4 * COUNT) / createdSeconds;
    const lines = [
      ...baselineReport(target, baselines),
      `all ResourceCreated: ${createdSeconds.toFixed(
        2,
      )} s from provider process start = ${(COUNT / createdSeconds).toFixed(
        0,
      )} deployments/s = ${providerWriteRate.toFixed(
        0,
      )} provider writes/s (finalizer, DGD, status, ResourceCreated event each); ratio to baseline 1 ${ratio(
        providerWriteRate,
        rawRate,
      )}, to baseline 2 ${ratio(providerWriteRate, mdWriteRate)}`,
      `all Running after the DGD status moved: ${runningSeconds.toFixed(
        2,
      )} s = ${(COUNT / runningSeconds).toFixed(
        0,
      )} deployments/s (1 status write each, after ${COUNT} upstream status writes); ratio to baseline 2 ${ratio(
        COUNT / runningSeconds,
        mdWriteRate,
      )}`,
      `dynamo provider memory: RSS when all were created ${afterCreate.rss.toFixed(
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

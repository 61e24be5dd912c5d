/**
 * Benchmark: ModelDeployments through the Dynamo provider, run as its own
 * process (`src/main.ts`) against a real cluster with Dynamo's real CRD, next
 * to the API server's raw write rate measured in the same run. The bench
 * moves every DGD's status as Dynamo's operator does. Prints times, rates,
 * ratios and the provider process's memory. Usage: `yarn bench [count]`
 * (default 1,000).
 */
import path from 'node:path';
import { runBenchmark } from '@runway-portal/e2e-testing';
import { benchProvider } from '@runway-portal/provider-shared/testing';

const component = {
  componentKind: 'Deployment',
  replicas: 1,
  updatedReplicas: 1,
  readyReplicas: 1,
  availableReplicas: 1,
};

runBenchmark(() =>
  benchProvider({
    count: Number(process.argv[2] ?? 1000),
    cluster: { name: 'bench-dynamo' },
    upstreamCrds: ['dynamo-nvidia.com_dynamographdeployments.yaml'],
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '16Gi' },
    },
    providers: [
      { name: 'dynamo', main: path.resolve(__dirname, '../src/main.ts') },
    ],
    writes: {
      perDeployment: 4,
      which: 'finalizer, DGD, status, ResourceCreated event',
    },
    running: {
      // Dynamo's operator reporting every graph up.
      upstream: {
        group: 'nvidia.com',
        version: 'v1beta1',
        plural: 'dynamographdeployments',
        kind: 'DynamoGraphDeployment',
        namespaced: true,
      },
      what: 'DGD',
      status: () => ({
        state: 'successful',
        components: { Frontend: component, VllmWorker: component },
      }),
    },
    timeoutMs: 900_000,
  }),
);

/**
 * Benchmark: ModelDeployments through the llm-d provider, run as its own
 * process (`src/main.ts`) against a real cluster with GAIE's real
 * InferencePool CRD, next to the API server's raw write rate measured in the
 * same run. Nothing moves status by hand: Kubernetes' Deployment controller,
 * the scheduler and kwok bring every model server up. Prints times, rates,
 * ratios and the provider process's memory. Usage: `yarn bench [count]`
 * (default 1,000).
 */
import path from 'node:path';
import { runBenchmark } from '@runway-portal/e2e-testing';
import { benchProvider } from '@runway-portal/provider-shared/testing';

const COUNT = Number(process.argv[2] ?? 1000);

runBenchmark(() =>
  benchProvider({
    count: COUNT,
    cluster: {
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
      // One ClusterIP Service per deployment: the harness's default /24 range holds only 253.
      extraArgs: {
        'kube-apiserver': ['--service-cluster-ip-range=10.0.0.0/16'],
      },
    },
    upstreamCrds: [
      'gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
    ],
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B' },
      provider: { name: 'llmd' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '8Gi' },
    },
    providers: [
      { name: 'llmd', main: path.resolve(__dirname, '../src/main.ts') },
    ],
    // Per deployment: finalizer, InferencePool, model-server Deployment, Service, 6 endpoint picker objects, status, event.
    writes: {
      perDeployment: 12,
      which:
        'finalizer, InferencePool, Deployment, Service, 6 endpoint picker objects, status, event',
    },
    running: {
      comesUp: count =>
        `Deployment controller, scheduler and kwok brought ${count} model-server pods up`,
    },
    timeoutMs: 900_000,
  }),
);

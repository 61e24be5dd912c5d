/**
 * Benchmark: 1,000 ModelDeployments through the KAITO provider, run as its
 * own process against a real cluster, next to the API server's raw write
 * rate measured in the same run; KubeRay's provider watches the same
 * deployments. Prints times, rates, ratios and each provider process's
 * memory. Usage: `yarn bench [count]`.
 */
import path from 'node:path';
import { startHubStandIn } from '@runway-portal/e2e-simulators';
import { runBenchmark } from '@runway-portal/e2e-testing';
import { benchProvider } from '@runway-portal/provider-shared/testing';

/** A provider's `main.ts` in this folder's sibling package. */
const mainOf = (provider: string) =>
  path.resolve(__dirname, `../../${provider}/src/main.ts`);

const MODEL = 'google/gemma-3-1b-it-qat-q8_0-gguf';

const bench = (hfEndpoint: string) =>
  benchProvider({
    count: Number(process.argv[2] ?? 1000),
    cluster: { name: 'bench-providers' },
    upstreamCrds: [
      'kaito-kaito.sh_workspaces.yaml',
      'kuberay-ray.io_rayservices.yaml',
    ],
    spec: {
      model: { id: MODEL },
      engine: { type: 'llamacpp' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
      resources: { cpu: '1', memory: '2Gi' },
    },
    providers: [
      { name: 'kaito', main: mainOf('kaito') },
      { name: 'kuberay', main: mainOf('kuberay') },
    ],
    writes: {
      perDeployment: 4,
      which: 'finalizer, Workspace, status, ResourceCreated event',
    },
    running: {
      // KAITO's operator reporting every workspace up.
      upstream: {
        group: 'kaito.sh',
        version: 'v1beta1',
        plural: 'workspaces',
        kind: 'Workspace',
        namespaced: true,
      },
      what: 'upstream',
      status: () => {
        const now = `${new Date().toISOString().slice(0, 19)}Z`;
        const cond = (type: string) => ({
          type,
          status: 'True',
          reason: type,
          message: '',
          lastTransitionTime: now,
        });
        return {
          conditions: [cond('InferenceReady'), cond('WorkspaceSucceeded')],
        };
      },
    },
    timeoutMs: 600_000,
    env: { HF_ENDPOINT: hfEndpoint },
  });

runBenchmark(async () => {
  // The provider lists the repository's files to find the GGUF file: a hub stand-in, so the bench needs no network.
  const hub = await startHubStandIn({
    repos: { [MODEL]: { files: { 'gemma-3-1b-it-q8_0.gguf': 'x' } } },
  });
  try {
    await bench(hub.url);
  } finally {
    await hub.close();
  }
});

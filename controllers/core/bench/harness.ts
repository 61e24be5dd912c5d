/**
 * What both core benchmarks share: the load (COUNT deployments, 32 client
 * writes in flight), a cluster with the airunway.ai CRDs and built-in
 * providers registered ready, the core as its own process (`src/index.ts`,
 * as in production, webhooks off) and the tear-down. Timing, memory and
 * polling are e2e-testing's benchmark helpers.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { KubeClient, Namespaces } from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import {
  BUILT_IN_PROVIDERS,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  inParallel,
  pollUntil,
  runBenchmark,
  startTsProcess,
  stopProcesses,
} from '@runway-portal/e2e-testing';
import { countModelDeployments } from '@runway-portal/provider-shared/testing';
import { InferenceProviderConfigs } from '../src/reconciler';

export const COUNT = Number(process.env.COUNT ?? 1000);
const CONCURRENCY = 32;
const PACKAGE = path.resolve(__dirname, '..');
const CRDS = path.resolve(PACKAGE, '../deploy/crds');

/** Runs `work(0)` … `work(COUNT - 1)`, CONCURRENCY at a time. */
export const forEachDeployment = (work: (i: number) => Promise<unknown>) =>
  inParallel(COUNT, CONCURRENCY, work);

/** Polls (once a second: listing the deployments is itself load) until COUNT deployments in `namespace` pass `test`. */
export function waitForAll(
  client: KubeClient,
  namespace: string,
  test: (md: ModelDeployment) => boolean,
  what: string,
  timeoutMs: number,
): Promise<void> {
  return pollUntil(
    async () => (await countModelDeployments(client, namespace, test)) >= COUNT,
    timeoutMs,
    `${COUNT} deployments ${what}`,
  );
}

/** Registers built-in providers as their controllers would: the spec, then status.ready with their field manager. */
async function registerReadyProviders(
  client: KubeClient,
  names: string[],
): Promise<void> {
  for (const name of names) {
    const config = BUILT_IN_PROVIDERS.find(p => p.metadata?.name === name);
    if (!config) throw new Error(`no built-in provider "${name}"`);
    const fieldManager = `airunway-provider-${name}`;
    await client.apply(InferenceProviderConfigs, config as never, {
      fieldManager,
      force: true,
    });
    await client.apply(
      InferenceProviderConfigs,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'InferenceProviderConfig',
        metadata: { name },
        status: { ready: true },
      },
      { fieldManager, force: true, subresource: 'status' },
    );
  }
}

export interface CoreBench {
  cluster: TestCluster;
  /** Admin client. */
  client: KubeClient;
  /** Starts the core as its own process against the cluster; stopped when the benchmark ends. */
  startCore(): ChildProcess;
}

/**
 * Runs a core benchmark: a cluster `name` with the airunway.ai CRDs and
 * `crds`, the `namespaces`, the `providers` registered ready, then `body`;
 * afterwards stops the core, the client and the cluster. A failure exits 1.
 */
export function runCoreBenchmark(
  options: {
    name: string;
    crds?: string[];
    namespaces: string[];
    providers: string[];
  },
  body: (bench: CoreBench) => Promise<void>,
): void {
  runBenchmark(async () => {
    const cluster = await startCluster({
      name: options.name,
      crds: [
        path.join(CRDS, 'airunway.ai_modeldeployments.yaml'),
        path.join(CRDS, 'airunway.ai_inferenceproviderconfigs.yaml'),
        ...(options.crds ?? []),
      ],
    });
    const client = new KubeClient(cluster.kubeConfig());
    const started: ChildProcess[] = [];
    const startCore = () => {
      const core = startTsProcess(
        'the core',
        'src/index.ts',
        [
          '--webhook-mode=off',
          '--metrics-port=0',
          '--health-port=0',
          '--log-level=error',
        ],
        {
          cwd: PACKAGE,
          env: { KUBECONFIG: cluster.kubeconfigPath },
          stdout: 'inherit',
        },
      );
      started.push(core);
      return core;
    };
    try {
      for (const name of options.namespaces)
        await client.create(Namespaces, { metadata: { name } });
      await registerReadyProviders(client, options.providers);
      await body({ cluster, client, startCore });
    } finally {
      await stopProcesses(started);
      client.close();
      await cluster.stop();
    }
  });
}

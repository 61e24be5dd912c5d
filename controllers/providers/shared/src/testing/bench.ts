/**
 * The providers' benchmark harness (`bench/provider.bench.ts` only says what
 * differs: `benchProvider`) and its parts: run a provider as its own process
 * and load the API server with ModelDeployments, against the same run's
 * baselines. Timing, percentiles and memory are e2e-testing's.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  startCluster,
  type StartClusterOptions,
} from '@runway-portal/e2e-cluster';
import {
  inParallel,
  memoryOf,
  pollUntil,
  ratio,
  startBuiltController,
  stopProcesses,
  timed,
} from '@runway-portal/e2e-testing';
import {
  ConfigMaps,
  KubeClient,
  Namespaces,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { ensureControllerBundle } from '@runway-portal/controller-runtime/bundle';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { ModelDeployments } from '../resources';
import {
  createModelDeploymentAsCore,
  type ModelDeploymentObject,
} from '../testing';

/** A provider's package folder and its entry, from the path of its `src/main.ts`. */
function providerPackage(mainTs: string): { dir: string; entry: string } {
  const dir = path.resolve(path.dirname(mainTs), '..');
  return { dir, entry: path.relative(dir, mainTs) };
}

/**
 * Starts a provider from its built entry with the image's node flags, as
 * its image and the local system run it (its `main.ts` bundled first when
 * the bundle is stale), on free ports, logging warnings only.
 *
 * @public
 */
export function startProviderProcess(
  provider: string,
  mainTs: string,
  kubeconfig: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const { dir, entry } = providerPackage(mainTs);
  return startBuiltController(
    `${provider} provider`,
    dir,
    entry,
    ['--metrics-port=0', '--health-port=0', '--log-level=warn'],
    { env: { ...env, KUBECONFIG: kubeconfig } },
  );
}

/** Seconds and writes per second of a batch of API writes. @public */
export interface WriteRate {
  seconds: number;
  rate: number;
}

/** Baseline: the API server's raw write rate, `count` creates of small ConfigMaps. */
async function measureRawWriteRate(
  client: KubeClient,
  namespace: string,
  count: number,
  concurrency: number,
): Promise<WriteRate> {
  const seconds = await timed(() =>
    inParallel(count, concurrency, i =>
      client.create(ConfigMaps, {
        metadata: { name: `raw-${i}`, namespace },
        data: { i: String(i) },
      }),
    ),
  );
  return { seconds, rate: count / seconds };
}

/**
 * Baseline and load: creates `md-0` … `md-<count - 1>` with `spec` and the
 * core's status write selecting `provider` (2 writes each), no provider running yet.
 */
async function submitModelDeployments(
  client: KubeClient,
  target: { namespace: string; count: number; concurrency: number },
  spec: ModelDeployment['spec'],
  provider: string,
): Promise<WriteRate> {
  const seconds = await timed(() =>
    inParallel(target.count, target.concurrency, i =>
      createModelDeploymentAsCore(
        client,
        { namespace: target.namespace, name: `md-${i}` },
        spec,
        provider,
      ),
    ),
  );
  return { seconds, rate: (2 * target.count) / seconds };
}

/** The two baselines a provider's time is compared with, measured in the same run. @public */
export interface Baselines {
  /** Baseline 1: plain creates of small objects, same concurrency. */
  raw: WriteRate;
  /** Baseline 2: the deployments themselves (create + the core's status write), no provider running yet. */
  submitted: WriteRate;
}

/** Measures both baselines; the deployments submitted for baseline 2 are the ones the provider then serves. @public */
export async function measureBaselines(
  client: KubeClient,
  target: { namespace: string; count: number; concurrency: number },
  spec: ModelDeployment['spec'],
  provider: string,
): Promise<Baselines> {
  const raw = await measureRawWriteRate(
    client,
    target.namespace,
    target.count,
    target.concurrency,
  );
  const submitted = await submitModelDeployments(
    client,
    target,
    spec,
    provider,
  );
  return { raw, submitted };
}

/** The report's first lines: the load and both baselines. @public */
export function baselineReport(
  target: { count: number; concurrency: number },
  { raw, submitted }: Baselines,
): string[] {
  return [
    `ModelDeployments: ${target.count} (client concurrency ${
      target.concurrency
    }, provider reconciles ${
      process.env.MAX_CONCURRENT_RECONCILES ?? 16
    } in parallel)`,
    `baseline 1, API server raw write rate (ConfigMap creates): ${raw.rate.toFixed(
      0,
    )} writes/s (${raw.seconds.toFixed(2)} s for ${target.count})`,
    `baseline 2, ModelDeployment writes (create + core status write, CEL-validated): ${submitted.rate.toFixed(
      0,
    )} writes/s (${submitted.seconds.toFixed(2)} s for ${2 * target.count})`,
  ];
}

/** How many ModelDeployments in `namespace` satisfy `check`. @public */
export async function countModelDeployments(
  client: KubeClient,
  namespace: string,
  check: (md: ModelDeployment) => boolean,
): Promise<number> {
  return (
    await client.list<ModelDeploymentObject>(ModelDeployments, { namespace })
  ).items.filter(check).length;
}

/** Whether the provider has created the deployment's upstream object. @public */
export const resourceCreated = (md: ModelDeployment) =>
  md.status?.conditions?.some(
    c => c.type === 'ResourceCreated' && c.status === 'True',
  ) ?? false;

/** What one provider's benchmark (`bench/provider.bench.ts`) sets differently. @public */
export interface ProviderBenchSettings {
  /** The deployments to create (`md-0` …): the bench's first argument, default 1,000. */
  count: number;
  /** The cluster's name, nodes and flags (its CRDs: Runway's and `upstreamCrds`). */
  cluster: Omit<StartClusterOptions, 'crds'>;
  /** File names in `../shared/upstream/crds` next to the repository (see the project README). */
  upstreamCrds: string[];
  /** What every deployment asks for. */
  spec: ModelDeployment['spec'];
  /** The providers to start, as `{ name, main }` (`src/main.ts`): the first one serves the deployments, the others only watch them. */
  providers: { name: string; main: string }[];
  /** Writes the provider makes per deployment until ResourceCreated, and which, for the report. */
  writes: { perDeployment: number; which: string };
  /**
   * How the deployments become Running: an upstream operator's status the
   * bench writes (`what` names it in the report), or what the cluster does
   * by itself (`comesUp(count)` says what).
   */
  running:
    | {
        upstream: ResourceType;
        what: string;
        status: () => Record<string, unknown>;
      }
    | { comesUp: (count: number) => string };
  /** Limit of each wait. */
  timeoutMs: number;
  /** Environment of the provider processes besides KUBECONFIG (e.g. HF_ENDPOINT: a bench never needs the network). */
  env?: NodeJS.ProcessEnv;
}

const NAMESPACE = 'bench';
const CONCURRENCY = 16;
/** This package's folder, controllers/providers/shared. */
const PACKAGE_DIR = path.dirname(
  require.resolve('@runway-portal/provider-shared/package.json'),
);
const RUNWAY_CRDS = path.resolve(PACKAGE_DIR, '../../deploy/crds');
const UPSTREAM_CRDS = path.resolve(
  PACKAGE_DIR,
  '../../../../shared/upstream/crds',
);

/**
 * A provider's benchmark: `count` ModelDeployments through its process
 * against a real cluster, next to the API server's raw write rate measured
 * in the same run. Prints times, rates, ratios and each provider process's
 * memory.
 *
 * @public
 */
export async function benchProvider(
  settings: ProviderBenchSettings,
): Promise<void> {
  const { count, running } = settings;
  const cluster = await startCluster({
    ...settings.cluster,
    crds: [
      RUNWAY_CRDS,
      ...settings.upstreamCrds.map(file => path.join(UPSTREAM_CRDS, file)),
    ],
  });
  const client = new KubeClient(cluster.kubeConfig());
  const processes: ChildProcess[] = [];
  try {
    await client.create(Namespaces, { metadata: { name: NAMESPACE } });
    const target = { namespace: NAMESPACE, count, concurrency: CONCURRENCY };
    const [served, ...watching] = settings.providers;
    const baselines = await measureBaselines(
      client,
      target,
      settings.spec,
      served.name,
    );

    // The providers start with every deployment waiting: the time covers start-up, cache sync and every reconcile.
    // Bundled before the clock starts: a stale bundle takes seconds to build.
    for (const p of settings.providers) {
      const { dir, entry } = providerPackage(p.main);
      await ensureControllerBundle(dir, entry);
    }
    const started = Date.now();
    for (const p of settings.providers)
      processes.push(
        await startProviderProcess(
          p.name,
          p.main,
          cluster.kubeconfigPath,
          settings.env,
        ),
      );
    const memory = () => processes.map(p => memoryOf(p.pid!));
    const countWhere = (check: (md: ModelDeployment) => boolean) =>
      countModelDeployments(client, NAMESPACE, check);
    await pollUntil(
      async () => (await countWhere(resourceCreated)) === count,
      settings.timeoutMs,
    );
    const createdSeconds = (Date.now() - started) / 1000;
    const atCreated = memory();

    let runningStart = started;
    if ('upstream' in running) {
      // The upstream operator reporting every object up.
      const status = running.status();
      runningStart = Date.now();
      await inParallel(count, CONCURRENCY, i =>
        client.patch(
          running.upstream,
          { namespace: NAMESPACE, name: `md-${i}` },
          { status },
          'merge',
          { subresource: 'status' },
        ),
      );
    }
    await pollUntil(
      async () =>
        (await countWhere(md => md.status?.phase === 'Running')) === count,
      settings.timeoutMs,
    );
    const runningSeconds = (Date.now() - runningStart) / 1000;
    const atEnd = memory();

    const providerWriteRate =
      (settings.writes.perDeployment * count) / createdSeconds;
    const mib = (n: number) => `${n.toFixed(0)} MiB`;
    const lines = [
      ...baselineReport(target, baselines),
      `all ResourceCreated: ${createdSeconds.toFixed(
        2,
      )} s from provider process start = ${(count / createdSeconds).toFixed(
        0,
      )} deployments/s = ${providerWriteRate.toFixed(0)} provider writes/s (${
        settings.writes.which
      } each); ratio to baseline 1 ${ratio(
        providerWriteRate,
        baselines.raw.rate,
      )}, to baseline 2 ${ratio(providerWriteRate, baselines.submitted.rate)}`,
      'upstream' in running
        ? `all Running after the ${
            running.what
          } status moved: ${runningSeconds.toFixed(2)} s = ${(
            count / runningSeconds
          ).toFixed(
            0,
          )} deployments/s (1 status write each, after ${count} upstream status writes); ratio to baseline 2 ${ratio(
            count / runningSeconds,
            baselines.submitted.rate,
          )}`
        : `all Running (${running.comesUp(count)}): ${runningSeconds.toFixed(
            2,
          )} s from provider process start`,
      `${served.name} provider memory: RSS when all were created ${mib(
        atCreated[0].rss,
      )}, at the end ${mib(atEnd[0].rss)}, peak ${mib(atEnd[0].peak)}`,
      ...watching.map(
        (p, i) =>
          `${
            p.name
          } provider memory (watching the same ${count} deployments, none its own): then ${mib(
            atCreated[i + 1].rss,
          )}, at the end ${mib(atEnd[i + 1].rss)}, peak ${mib(
            atEnd[i + 1].peak,
          )}`,
      ),
      `note: ${
        watching.length > 0 ? 'the providers run' : 'the provider runs'
      } from the built entry (dist/controller.cjs, the image's node flags), as the image and the local system do`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await stopProcesses(processes);
    client.close();
    await cluster.stop();
  }
}

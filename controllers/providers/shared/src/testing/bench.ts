/**
 * Helpers for the providers' benchmarks (`bench/provider.bench.ts`): run a
 * provider as its own process and load the API server with ModelDeployments,
 * against the same run's baselines. Timing, percentiles and memory are
 * e2e-testing's.
 */
import type { ChildProcess } from 'node:child_process';
import { inParallel, startTsProcess, timed } from '@runway-portal/e2e-testing';
import { ConfigMaps, type KubeClient } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { ModelDeployments } from '../resources';
import {
  createModelDeploymentAsCore,
  type ModelDeploymentObject,
} from '../testing';

/**
 * Starts a provider's `main.ts` as its own process through the test
 * transform (as local processes run), on free ports, logging warnings only.
 */
export function startProviderProcess(
  provider: string,
  mainTs: string,
  kubeconfig: string,
): ChildProcess {
  return startTsProcess(
    `${provider} provider`,
    mainTs,
    ['--metrics-port', '0', '--health-port', '0', '--log-level', 'warn'],
    { env: { KUBECONFIG: kubeconfig } },
  );
}

/** Seconds and writes per second of a batch of API writes. */
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

/** The two baselines a provider's time is compared with, measured in the same run. */
export interface Baselines {
  /** Baseline 1: plain creates of small objects, same concurrency. */
  raw: WriteRate;
  /** Baseline 2: the deployments themselves (create + the core's status write), no provider running yet. */
  submitted: WriteRate;
}

/** Measures both baselines; the deployments submitted for baseline 2 are the ones the provider then serves. */
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

/** The report's first lines: the load and both baselines. */
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

/** How many ModelDeployments in `namespace` satisfy `check`. */
export async function countModelDeployments(
  client: KubeClient,
  namespace: string,
  check: (md: ModelDeployment) => boolean,
): Promise<number> {
  return (
    await client.list<ModelDeploymentObject>(ModelDeployments, { namespace })
  ).items.filter(check).length;
}

/** Whether the provider has created the deployment's upstream object. */
export const resourceCreated = (md: ModelDeployment) =>
  md.status?.conditions?.some(
    c => c.type === 'ResourceCreated' && c.status === 'True',
  ) ?? false;

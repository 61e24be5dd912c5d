/**
 * Helpers for the providers' benchmarks (`bench/provider.bench.ts`): run a
 * provider as its own process, load the API server at a fixed concurrency,
 * time it against the same run's baselines and read the process's memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { ConfigMaps, type KubeClient } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { ModelDeployments } from '../resources';
import {
  createModelDeploymentAsCore,
  type ModelDeploymentObject,
} from '../testing';

/** Runs `work(0)` … `work(count - 1)` with at most `concurrency` in flight. */
export async function inParallel(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Seconds `work` takes. */
export async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

/** Polls `check` once a second until it holds; throws after `timeoutMs`, naming `what` it waited for. */
export async function pollUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what = "the benchmark's condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(
        `benchmark timed out after ${timeoutMs / 1000} s waiting for ${what}`,
      );
    await new Promise(r => setTimeout(r, 1000)); // listing every deployment is load too: poll gently
  }
}

/** Resident and peak memory of a process, in MiB, from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The `p`th percentile (nearest rank) of ascending `sorted` samples. */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(
    sorted.length - 1,
    Math.ceil((p / 100) * sorted.length) - 1,
  );
  return sorted[Math.max(0, index)];
}

/** Median and 95th percentile of samples in any order. */
export function percentiles(samples: readonly number[]): {
  p50: number;
  p95: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** `a / b` with two decimals. */
export const ratio = (a: number, b: number) => (a / b).toFixed(2);

/**
 * Starts a provider's `main.ts` as its own process through the test
 * transform (as local processes run), on free ports, logging warnings only.
 */
export function startProviderProcess(
  provider: string,
  mainTs: string,
  kubeconfig: string,
): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('@backstage/cli/config/nodeTransform.cjs'),
      mainTs,
      '--metrics-port',
      '0',
      '--health-port',
      '0',
      '--log-level',
      'warn',
    ],
    {
      env: { ...process.env, KUBECONFIG: kubeconfig },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  child.on('exit', code => {
    if (code)
      process.stderr.write(`${provider} provider exited with ${code}\n`);
  });
  return child;
}

/** Sends SIGTERM to each process and waits until all have exited. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      child =>
        new Promise(r =>
          child.exitCode !== null ? r(null) : child.once('exit', r),
        ),
    ),
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

/** Runs a benchmark's `main`, printing a failure's stack and exiting 1. */
export function runBenchmark(main: () => Promise<void>): void {
  main().catch(err => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

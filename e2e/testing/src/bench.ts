/**
 * Benchmark helpers: load at a fixed concurrency, timing, percentiles and
 * ratios to a baseline measured in the same run, a TypeScript entry point
 * run as its own process, and that process's memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import {
  CONTROLLER_BUNDLE,
  CONTROLLER_NODE_FLAGS,
  ensureControllerBundle,
} from '@runway-portal/controller-runtime/bundle';

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

/**
 * User + system CPU seconds of a process so far, from /proc/<pid>/stat
 * (100 ticks a second); NaN if it is gone.
 */
export function cpuSecondsOf(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
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
 * Starts a TypeScript entry point as its own process through the test
 * transform (as local processes run), with `args` and `env` over this
 * process's environment; a non-zero exit is reported on stderr, named `label`.
 */
export function startTsProcess(
  label: string,
  entry: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    stdout?: 'ignore' | 'inherit';
  } = {},
): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('@backstage/cli/config/nodeTransform.cjs'),
      entry,
      ...args,
    ],
    {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
    },
  );
  child.on('exit', code => {
    if (code) process.stderr.write(`${label} exited with ${code}\n`);
  });
  return child;
}

/**
 * Starts a controller from its built entry with the image's node flags, as
 * its image and the local system run it: `entry` (relative to `packageDir`)
 * bundled first when the bundle is stale, then `dist/controller.cjs` with
 * `args`, `env` over this process's environment; a non-zero exit is
 * reported on stderr, named `label`.
 */
export async function startBuiltController(
  label: string,
  packageDir: string,
  entry: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdout?: 'ignore' | 'inherit' } = {},
): Promise<ChildProcess> {
  await ensureControllerBundle(packageDir, entry);
  const child = spawn(
    process.execPath,
    [...CONTROLLER_NODE_FLAGS, CONTROLLER_BUNDLE, ...args],
    {
      cwd: packageDir,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
    },
  );
  child.on('exit', code => {
    if (code) process.stderr.write(`${label} exited with ${code}\n`);
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

/** Runs a benchmark's `main`, printing a failure's stack and exiting 1. */
export function runBenchmark(main: () => Promise<void>): void {
  main().catch(err => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

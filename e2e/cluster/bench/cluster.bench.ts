/*
 * Benchmark of the local clusters (not a test: it prints numbers).
 *
 *   yarn workspace @runway-portal/e2e-cluster bench            warm numbers
 *   yarn workspace @runway-portal/e2e-cluster bench --cold     also a cold build (empty Go build cache; many minutes)
 *
 * Baseline, measured in the same run: starting the runway-kube binary once
 * (`runway-kube version`), the fixed cost of every component process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildKubeBinary,
  ensureKubeBinary,
  kubeBinaryLocation,
} from '../src/binary';
import { startCluster, startClusters, type TestCluster } from '../src/cluster';

const MiB = 1024 * 1024;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed<T>(
  run: () => Promise<T>,
): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/** Summed over the cluster's five processes. */
async function clusterMemory(
  cluster: TestCluster,
): Promise<{ rss: number; pss: number }> {
  const usage = Object.values(await cluster.memoryUsage());
  return {
    rss: usage.reduce((sum, memory) => sum + (memory?.rss ?? 0), 0),
    pss: usage.reduce((sum, memory) => sum + (memory?.pss ?? 0), 0),
  };
}

const mib = ({ rss, pss }: { rss: number; pss: number }) =>
  `PSS ${(pss / MiB).toFixed(0)} MiB (RSS ${(rss / MiB).toFixed(0)} MiB)`;

async function coldBuild(): Promise<number> {
  const scratch = await mkdtemp(join(tmpdir(), 'runway-kube-cold-'));
  try {
    const { seconds: elapsed } = await buildKubeBinary(
      join(scratch, 'runway-kube'),
      {
        logPath: join(scratch, 'build.log'),
        // An empty build cache; the module cache (sources already downloaded) is kept.
        env: { ...process.env, GOCACHE: join(scratch, 'gocache') },
      },
    );
    return elapsed;
  } finally {
    spawnSync('chmod', ['-R', 'u+w', scratch]); // the Go cache is read-only
    await rm(scratch, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      cold: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
    },
  });
  const runs = Number(values.runs);
  const location = await kubeBinaryLocation();
  console.log(
    `runway-kube ${location.key} (Kubernetes ${location.kubernetesVersion})`,
  );

  if (values.cold) {
    console.log('cold build (empty GOCACHE, 2 cores shared): building...');
    console.log(`cold build: ${(await coldBuild()).toFixed(0)} s`);
  } else {
    const info = join(location.path, '..', 'build.json');
    const recorded = existsSync(info)
      ? JSON.parse(readFileSync(info, 'utf8'))
      : undefined;
    console.log(
      recorded
        ? `build of the cached binary (recorded ${recorded.builtAt}): ${Number(
            recorded.seconds,
          ).toFixed(0)} s (cache state unknown; --cold measures a cold build)`
        : 'build time: not recorded for the cached binary (run with --cold to measure a cold build)',
    );
  }

  const binary = await ensureKubeBinary();
  const baselines: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    spawnSync(binary, ['version']);
    baselines.push(performance.now() - started);
  }
  const baseline = median(baselines);
  console.log(
    `baseline: runway-kube process start ${baseline.toFixed(
      1,
    )} ms (median of 5)`,
  );

  const singles: number[] = [];
  let singleMemory = { rss: 0, pss: 0 };
  for (let run = 0; run < runs; run++) {
    const { ms, value: cluster } = await timed(() =>
      startCluster({ name: `bench-one-${run}` }),
    );
    singles.push(ms);
    singleMemory = await clusterMemory(cluster);
    await cluster.stop();
  }
  const one = median(singles);
  console.log(
    `warm start, one cluster: ${seconds(one)} (median of ${runs}: ${singles
      .map(seconds)
      .join(', ')}) = ${(one / baseline).toFixed(
      0,
    )}x baseline; target < 10 s: ${one < 10_000 ? 'met' : 'NOT met'}`,
  );

  const { ms: three, value: clusters } = await timed(() =>
    startClusters([0, 1, 2].map(i => ({ name: `bench-three-${i}` }))),
  );
  const memories = await Promise.all(clusters.map(clusterMemory));
  await Promise.all(clusters.map(cluster => cluster.stop()));
  console.log(
    `warm start, three clusters at once: ${seconds(three)} = ${(
      three / one
    ).toFixed(2)}x one cluster`,
  );

  // PSS shares the binary's pages among the processes using them; RSS counts them in every process.
  console.log(
    `memory of one cluster (5 processes), alone: ${mib(singleMemory)}`,
  );
  console.log(
    `memory per cluster, three running: ${memories.map(mib).join('; ')}`,
  );
}

main().then(
  () => process.exit(0),
  error => {
    console.error(error);
    process.exit(1);
  },
);

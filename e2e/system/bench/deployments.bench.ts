/**
 * End-to-end benchmark (issue 6): COUNT ModelDeployments through the whole
 * local system (`startSystem`: one real cluster, the CRDs, the core and the
 * four providers as processes from their entry points, the operator
 * simulators), spread over KAITO, Dynamo, KubeRay and llm-d by their specs.
 * Prints the time until all have `ResourceCreated=True` and until all are
 * `Running`, per provider and overall, next to the API server's raw write
 * rate measured in the same run, and each process's memory at idle and at
 * its peak.
 *
 *   yarn workspace @runway-portal/e2e-system bench              # 1,000
 *   COUNT=100 yarn workspace @runway-portal/e2e-system bench
 *
 * Environment: COUNT (default 1000), CONCURRENCY (client writes in flight,
 * default 16), STEP_DELAY_MS (simulated operators' step, default 1000),
 * TIMEOUT_S (for each wait, default 1800).
 */
import {
  ConfigMaps,
  KubeClient,
  Namespaces,
} from '@runway-portal/controller-runtime';
import type { NodeSpec } from '@runway-portal/e2e-cluster';
import { ModelDeployments } from '@runway-portal/provider-shared';
import {
  inParallel,
  memoryOf,
  type ModelDeploymentObject,
  pollUntil,
  resourceCreated,
  runBenchmark,
  timed,
} from '@runway-portal/provider-shared/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type RunningSystem,
  startSystem,
  type SystemService,
} from '../src/system';

/** A positive whole number from the environment, or a clear error naming the variable. */
function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(
      `${name}=${JSON.stringify(
        raw,
      )} is not a whole number >= 1: set e.g. ${name}=${fallback}`,
    );
  }
  return value;
}

const COUNT = envNumber('COUNT', 1000);
const CONCURRENCY = envNumber('CONCURRENCY', 16);
const STEP_DELAY_MS = envNumber('STEP_DELAY_MS', 1000);
const TIMEOUT_MS = envNumber('TIMEOUT_S', 1800) * 1000;
const NS = 'bench';
const RAW_NS = 'bench-raw';

/** Each deployment's spec, round robin; the core chooses the provider from it as a user's would be chosen. */
const WORKLOADS = [
  {
    // llama.cpp on CPU: the core selects KAITO.
    provider: 'kaito',
    spec: {
      model: {
        id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
        source: 'huggingface',
      },
      engine: { type: 'llamacpp' },
      resources: { cpu: '8', memory: '16Gi' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
    },
  },
  {
    // vLLM on a GPU, no provider named: the core's default, Dynamo.
    provider: 'dynamo',
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '16Gi' },
    },
  },
  {
    provider: 'kuberay',
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      provider: { name: 'kuberay' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '16Gi' },
    },
  },
  {
    // llm-d creates a real Deployment: kwok runs its pod on the GPU node.
    provider: 'llmd',
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      provider: { name: 'llmd' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '8Gi' },
    },
  },
] as const;

const workloadOf = (i: number) => WORKLOADS[i % WORKLOADS.length];

/**
 * Room for every pod: one endpoint picker per deployment (the core's, or
 * llm-d's own) and one GPU model server per llm-d deployment; the kubelet
 * default of 110 pods per node would leave most Pending.
 */
function benchNodes(count: number): NodeSpec[] {
  return [
    {
      name: 'gpu-0',
      gpus: count,
      cpu: String(4 * count + 32),
      memory: `${32 * count + 128}Gi`,
      pods: 2 * count + 10,
    },
    {
      name: 'cpu-0',
      cpu: String(8 * count + 16),
      memory: `${16 * count + 64}Gi`,
      pods: 2 * count + 10,
    },
  ];
}

/** When each provider's deployments (and all of them) first all passed a stage, in seconds from the first create. */
type Reached = Map<string, number>;

interface Progress {
  created: Reached;
  running: Reached;
}

const isRunning = (md: ModelDeploymentObject) => md.status?.phase === 'Running';

/** Records, for each provider and 'all', the first time every one of its deployments passed `test`. Pure but for `reached`. */
function record(
  reached: Reached,
  items: ModelDeploymentObject[],
  test: (md: ModelDeploymentObject) => boolean,
  seconds: number,
): void {
  const groups = new Map<string, ModelDeploymentObject[]>([['all', items]]);
  for (const md of items) {
    const provider = workloadOf(Number(md.metadata?.name?.slice(3))).provider;
    groups.set(provider, [...(groups.get(provider) ?? []), md]);
  }
  for (const [group, mds] of groups) {
    const expected = group === 'all' ? COUNT : expectedOf(group);
    if (!reached.has(group) && mds.length === expected && mds.every(test))
      reached.set(group, seconds);
  }
}

/** How many of the COUNT deployments go to `provider`. */
function expectedOf(provider: string): number {
  return Array.from({ length: COUNT }, (_, i) => workloadOf(i).provider).filter(
    p => p === provider,
  ).length;
}

/** Deployments whose status names another provider than their spec should select, as `md-1: kaito (expected dynamo)`. */
function wrongProviders(items: ModelDeploymentObject[]): string[] {
  return items.flatMap(md => {
    const chosen = md.status?.provider?.name;
    const expected = workloadOf(Number(md.metadata?.name?.slice(3))).provider;
    return chosen && chosen !== expected
      ? [`${md.metadata?.name}: ${chosen} (expected ${expected})`]
      : [];
  });
}

interface MemorySample {
  idle: number;
  /** Highest RSS sampled while the deployments were processed. */
  sampled: number;
}

/** RSS and peak of a service's process in MiB; zeros once it has exited. */
function memoryNow(s: SystemService): { rss: number; peak: number } {
  const pid = s.service.pid;
  return pid === undefined || s.service.exit
    ? { rss: 0, peak: 0 }
    : memoryOf(pid);
}

function sampleMemory(
  system: RunningSystem,
  samples: Map<string, MemorySample>,
): void {
  for (const s of system.services) {
    const { rss } = memoryNow(s);
    const sample = samples.get(s.name) ?? { idle: rss, sampled: 0 };
    sample.sampled = Math.max(sample.sampled, rss);
    samples.set(s.name, sample);
  }
}

/** The services that exited during the run, with their exit and log, for a failure message. */
function exitedServices(system: RunningSystem): string[] {
  return system.services
    .filter(s => s.service.exit)
    .map(
      s =>
        `${s.name} exited ${JSON.stringify(s.service.exit)} (log: ${
          s.logPath
        })`,
    );
}

async function main(): Promise<void> {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const stateDir = mkdtempSync(join(tmpdir(), 'runway-system-bench-'));
  let system: RunningSystem | undefined;
  const stopAll = async () => {
    await system?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping the system`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  try {
    progress(
      `starting the system: one cluster, the core, four providers, the simulators (logs in ${stateDir}/logs)`,
    );
    system = await startSystem({
      clusters: ['bench-system'],
      backstage: false,
      stepDelayMs: STEP_DELAY_MS,
      stateDir,
      honourLocalConfig: false,
      log: progress,
      clusterOptions: {
        nodes: benchNodes(COUNT),
        // Two or three Services per deployment: the harness's default /24 range holds only 253.
        extraArgs: {
          'kube-apiserver': ['--service-cluster-ip-range=10.0.0.0/16'],
        },
      },
    });
    if (system.missing.length > 0)
      throw new Error(
        `not every controller started:\n${system.missing.join('\n')}`,
      );
    const running = system;
    const client = new KubeClient(running.clusters[0].kubeConfig());
    try {
      await client.create(Namespaces, { metadata: { name: NS } });
      await client.create(Namespaces, { metadata: { name: RAW_NS } });
      const memory = new Map<string, MemorySample>();
      sampleMemory(running, memory); // idle: every controller ready, nothing to reconcile

      progress(
        `baseline: ${COUNT} ConfigMap creates, ${CONCURRENCY} in flight`,
      );
      const rawSeconds = await timed(() =>
        inParallel(COUNT, CONCURRENCY, i =>
          client.create(ConfigMaps, {
            metadata: { name: `raw-${i}`, namespace: RAW_NS },
            data: { i: String(i) },
          }),
        ),
      );

      progress(`creating ${COUNT} ModelDeployments, ${CONCURRENCY} in flight`);
      const start = performance.now();
      const elapsed = () => (performance.now() - start) / 1000;
      const submitSeconds = await timed(() =>
        inParallel(COUNT, CONCURRENCY, i =>
          client.create(ModelDeployments, {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name: `md-${i}`, namespace: NS },
            spec: workloadOf(i).spec,
          }),
        ),
      );

      const reached: Progress = { created: new Map(), running: new Map() };
      let wrong: string[] = [];
      await pollUntil(
        async () => {
          const exited = exitedServices(running);
          if (exited.length > 0)
            throw new Error(
              `a process of the system exited during the run:\n${exited.join(
                '\n',
              )}`,
            );
          sampleMemory(running, memory);
          const items = (
            await client.list<ModelDeploymentObject>(ModelDeployments, {
              namespace: NS,
            })
          ).items;
          const failed = items.find(md => md.status?.phase === 'Failed');
          if (failed)
            throw new Error(
              `${failed.metadata?.name} (${
                workloadOf(Number(failed.metadata?.name?.slice(3))).provider
              }) Failed: ${failed.status?.message}`,
            );
          wrong = wrongProviders(items);
          const seconds = elapsed();
          record(reached.created, items, resourceCreated, seconds);
          record(reached.running, items, isRunning, seconds);
          progress(
            `${seconds.toFixed(0)} s: ResourceCreated ${
              items.filter(resourceCreated).length
            }/${COUNT}, Running ${items.filter(isRunning).length}/${COUNT}`,
          );
          return reached.running.has('all');
        },
        TIMEOUT_MS,
        `${COUNT} ModelDeployments Running`,
      );

      const rawRate = COUNT / rawSeconds;
      const row = (group: string, count: number) => {
        const created = reached.created.get(group) ?? NaN;
        const run = reached.running.get(group) ?? NaN;
        return `  ${group.padEnd(8)} ${String(count).padStart(6)}  ${created
          .toFixed(2)
          .padStart(9)} s (${(created / rawSeconds)
          .toFixed(1)
          .padStart(5)}x raw)  ${run.toFixed(2).padStart(9)} s (${(
          run / rawSeconds
        )
          .toFixed(1)
          .padStart(5)}x raw)`;
      };
      const mib = (n: number) => `${n.toFixed(0)} MiB`;
      const lines = [
        `ModelDeployments: ${COUNT} through the core and four providers (client concurrency ${CONCURRENCY}, simulator step ${STEP_DELAY_MS} ms)`,
        `raw API server write rate (ConfigMap creates): ${rawRate.toFixed(
          0,
        )} writes/s (${rawSeconds.toFixed(2)} s for ${COUNT})`,
        `ModelDeployment creates (through the core's webhooks): ${(
          COUNT / submitSeconds
        ).toFixed(0)} creates/s (${submitSeconds.toFixed(2)} s for ${COUNT})`,
        'time from the first create until every deployment of the group has ResourceCreated=True, then phase Running (ratio: to the raw write time of the same count):',
        `  ${'provider'.padEnd(8)} ${'count'.padStart(
          6,
        )}  ${'ResourceCreated'.padStart(27)}  ${'Running'.padStart(27)}`,
        ...WORKLOADS.map(w => row(w.provider, expectedOf(w.provider))),
        row('all', COUNT),
        wrong.length > 0
          ? `provider other than expected: ${wrong.length} (${wrong
              .slice(0, 5)
              .join('; ')})`
          : 'every deployment went to the provider its spec selects',
        'memory per process (RSS; peak = the kernel high-water mark, start-up included):',
        ...running.services.map(s => {
          const sample = memory.get(s.name);
          const { rss, peak } = memoryNow(s);
          return `  ${s.name.padEnd(17)} idle ${mib(sample?.idle ?? 0).padStart(
            8,
          )}, highest sampled during the run ${mib(
            sample?.sampled ?? 0,
          ).padStart(8)}, at the end ${mib(rss).padStart(8)}, peak ${mib(
            peak,
          ).padStart(8)}`;
        }),
        'note: the controllers run from TypeScript sources through the test transform (as local processes do); built bundles need less memory',
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      if (wrong.length > 0)
        throw new Error(
          `${wrong.length} deployments went to another provider than their spec selects`,
        );
    } finally {
      client.close();
    }
  } finally {
    progress('stopping the system');
    await stopAll();
  }
}

runBenchmark(main);

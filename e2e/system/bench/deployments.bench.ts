/**
 * End-to-end benchmark (issue 6): COUNT ModelDeployments through the whole
 * local system (`startSystem`: one real cluster, the CRDs, the core and the
 * four providers as processes from their entry points, the operator
 * simulators), spread over KAITO, Dynamo, KubeRay and llm-d by their specs.
 * Prints the time until all have `ResourceCreated=True` and until all are
 * `Running`, per provider and overall, next to the API server's raw write
 * rate measured in the same run, and each process's memory at idle and at
 * its peak. Issue 21: from the API server's own /metrics, the writes and
 * Events per deployment until ResourceCreated (all, then PER_PROVIDER of
 * each provider alone on a quiet system), the webhooks' latency and the
 * cost of admission (COUNT dry-run creates through our webhooks and with
 * the webhook configurations removed), and the issue's targets as ratios.
 *
 *   yarn workspace @runway-portal/e2e-system bench              # 1,000
 *   COUNT=100 yarn workspace @runway-portal/e2e-system bench
 *
 *   ONLY=admission yarn workspace @runway-portal/e2e-system bench   # the admission phase alone
 *   ONLY=floor yarn workspace @runway-portal/e2e-system bench       # the raw baseline and the floor alone
 *
 * Environment: COUNT (default 1000), CONCURRENCY (client writes in flight,
 * default 16), STEP_DELAY_MS (simulated operators' step, default 1000),
 * TIMEOUT_S (for each wait, default 1800), PER_PROVIDER (default COUNT/4,
 * at most 25), ONLY (`admission`: the raw baseline and the admission phase,
 * then stop; `floor`: the raw baseline and the floor, then stop).
 *
 * Admission: a first round through the webhooks (the first calls after
 * start-up), then ADMISSION_PAIRS alternated pairs without and with them;
 * the ratio is the pair of the median ratio's, the p99 of every call of
 * the pairs (one round's time swings with the machine's other load as much
 * as the webhooks cost).
 *
 * The floor (`floor.ts`): the writes every deployment makes on its way to
 * ResourceCreated, replayed by this client alone on copies of the CRDs
 * that no controller watches: the time no implementation of the same
 * behaviour can beat on this machine, as a ratio to the same raw creates.
 */
import {
  ConfigMaps,
  Informer,
  KubeClient,
  type KubeObject,
  MutatingWebhookConfigurations,
  Namespaces,
  type ResourceType,
  ValidatingWebhookConfigurations,
} from '@runway-portal/controller-runtime';
import { withDefaults } from '@runway-portal/plugin-runway-common';
import { ModelDeployments } from '@runway-portal/provider-shared';
import {
  cpuSecondsOf,
  inParallel,
  memoryOf,
  pollUntil,
  runBenchmark,
  timed,
} from '@runway-portal/e2e-testing';
import {
  type ModelDeploymentObject,
  resourceCreated,
} from '@runway-portal/provider-shared/testing';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiServerCpuProfile,
  counterDelta,
  histogramDelta,
  histogramOf,
  type Histogram,
  histogramQuantile,
  type MetricSample,
  shareWithin,
  parseMetrics,
  requestsByVerbAndResource,
  snapshot,
  webhookCalls,
  webhookHistogram,
  writeSummary,
} from '../src/apiMetrics';
import type { RunningSystem, SystemService } from '../src/system';
import { modelDeployment, WORKLOADS, workloadOf } from '../src/workloads';
import { envNumber } from './env';
import {
  FLOOR_WRITES_PER_DEPLOYMENT,
  floorRound,
  installFloorCrds,
} from './floor';
import { progress, withBenchSystem } from './system';

const COUNT = envNumber('COUNT', 1000);
const CONCURRENCY = envNumber('CONCURRENCY', 16);
const STEP_DELAY_MS = envNumber('STEP_DELAY_MS', 1000);
const TIMEOUT_MS = envNumber('TIMEOUT_S', 1800) * 1000;
/** Deployments per provider in the API-work phase (one provider at a time, after the main run). */
const PER_PROVIDER = envNumber(
  'PER_PROVIDER',
  Math.max(1, Math.min(25, Math.ceil(COUNT / 4))),
);
/** Seconds of API server CPU profile to take from the first create (0: none; the server then runs with --profiling=true). */
const APISERVER_PROFILE_S = envNumber('APISERVER_PROFILE_S', 0);
const ONLY = process.env.ONLY ?? '';
if (ONLY !== '' && ONLY !== 'admission' && ONLY !== 'floor')
  throw new Error(
    `ONLY=${ONLY} is not a phase: set ONLY=admission, ONLY=floor or unset it`,
  );
/** Alternated admission rounds without and with the webhooks. */
const ADMISSION_PAIRS = 3;
const NS = 'bench';
const RAW_NS = 'bench-raw';
const FLOOR_NS = 'bench-floor';

const WEBHOOK_TYPES: ResourceType[] = [
  MutatingWebhookConfigurations,
  ValidatingWebhookConfigurations,
];

/** Deletes every webhook configuration of `types` (for the no-webhook baseline) and returns them to put back. */
async function removeWebhooks(
  client: KubeClient,
  types: ResourceType[] = WEBHOOK_TYPES,
): Promise<Array<{ rt: ResourceType; obj: KubeObject }>> {
  const removed: Array<{ rt: ResourceType; obj: KubeObject }> = [];
  for (const rt of types) {
    for (const obj of (await client.list(rt)).items) {
      await client.delete(rt, { name: obj.metadata!.name! });
      removed.push({ rt, obj });
    }
  }
  return removed;
}

async function restoreWebhooks(
  client: KubeClient,
  removed: Array<{ rt: ResourceType; obj: KubeObject }>,
): Promise<void> {
  for (const { rt, obj } of removed) {
    const {
      resourceVersion: _rv,
      uid: _uid,
      creationTimestamp: _ct,
      managedFields: _mf,
      generation: _g,
      ...metadata
    } = obj.metadata!;
    await client.create(rt, { ...obj, metadata });
  }
}

/**
 * COUNT ModelDeployment creates with dryRun=All: through admission (webhooks
 * included) without storing, so no controller reacts. The workloads' specs
 * as written, or `complete`: with the defaults already applied (a stored
 * spec sent back, a manifest written out in full).
 */
function dryRunCreates(client: KubeClient, complete = false): Promise<number> {
  return timed(() =>
    inParallel(COUNT, CONCURRENCY, i => {
      const md = modelDeployment(i, NS);
      return client.create(
        ModelDeployments,
        complete
          ? { ...md, spec: withDefaults(md.spec, md.metadata.name) }
          : md,
        { dryRun: true },
      );
    }),
  );
}

/** API server work between two snapshots, divided by the deployments it served. */
interface ApiWork {
  deployments: number;
  requests: Map<string, number>;
  updateAdmissions: number;
}

function apiWork(
  before: MetricSample[],
  after: MetricSample[],
  deployments: number,
): ApiWork {
  const calls = counterDelta(webhookCalls(before), webhookCalls(after));
  return {
    deployments,
    requests: counterDelta(
      requestsByVerbAndResource(before),
      requestsByVerbAndResource(after),
    ),
    updateAdmissions: calls.get('UPDATE') ?? 0,
  };
}

/** One line of per-deployment figures and the largest writes behind them. */
function apiWorkLines(label: string, work: ApiWork): string[] {
  const per = (n: number) => (n / work.deployments).toFixed(2);
  const summary = writeSummary(work.requests);
  const writes = [...work.requests]
    .filter(
      ([key]) =>
        !key.startsWith('GET ') &&
        !key.startsWith('LIST ') &&
        !key.startsWith('WATCH '),
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([key, n]) => `${key} ${per(n)}`);
  // Single-object reads: each is a quorum read from etcd (lists and watches are the informers').
  const gets = [...work.requests]
    .filter(([key]) => key.startsWith('GET '))
    .sort((a, b) => b[1] - a[1]);
  const getTotal = gets.reduce((n, [, v]) => n + v, 0);
  return [
    `  ${label.padEnd(8)} ${String(work.deployments).padStart(
      5,
    )}  mutating ${per(summary.mutating).padStart(6)}  Events created ${per(
      summary.eventCreates,
    ).padStart(5)}, bumped ${per(summary.eventPatches).padStart(
      5,
    )}  webhook UPDATE admissions ${per(work.updateAdmissions).padStart(5)}`,
    `           writes per deployment: ${writes.join(', ')}`,
    `           GETs per deployment ${per(getTotal)}: ${gets
      .slice(0, 6)
      .map(([key, n]) => `${key.slice(4)} ${per(n)}`)
      .join(', ')}`,
  ];
}

/** Waits until the API server takes no writes but leases for 2 s in a row (at most 60 s): a phase then counts only its own work. */
async function quiesce(client: KubeClient): Promise<void> {
  let previous = requestsByVerbAndResource(await snapshot(client));
  let quiet = 0;
  for (let i = 0; i < 60 && quiet < 2; i++) {
    await new Promise(r => setTimeout(r, 1000));
    const now = requestsByVerbAndResource(await snapshot(client));
    const writes = [...counterDelta(previous, now)].filter(
      ([key]) => !key.endsWith(' leases'),
    );
    quiet = writeSummary(new Map(writes)).mutating === 0 ? quiet + 1 : 0;
    previous = now;
  }
}

/** Median and maximum, in seconds. */
function spread(values: number[]): string {
  if (values.length === 0) return 'n/a';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `median ${median.toFixed(1)} s, max ${sorted.at(-1)!.toFixed(1)} s`;
}

const conditionTime = (md: ModelDeploymentObject, type: string) => {
  const c = md.status?.conditions?.find(x => x.type === type);
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
};

/** Per provider: create -> the core's ProviderSelected, and ProviderSelected -> the provider's ResourceCreated. */
function stageLines(items: ModelDeploymentObject[]): string[] {
  return WORKLOADS.map(w => {
    const mine = items.filter(
      md =>
        workloadOf(Number(md.metadata?.name?.slice(3))).provider === w.provider,
    );
    const created = (md: ModelDeploymentObject) =>
      Date.parse(md.metadata?.creationTimestamp ?? '');
    const selected = mine
      .map(md => (conditionTime(md, 'ProviderSelected') - created(md)) / 1000)
      .filter(Number.isFinite);
    const acted = mine
      .map(
        md =>
          (conditionTime(md, 'ResourceCreated') -
            conditionTime(md, 'ProviderSelected')) /
          1000,
      )
      .filter(Number.isFinite);
    return `  ${w.provider.padEnd(
      8,
    )} create -> ProviderSelected (core): ${spread(
      selected,
    )}; ProviderSelected -> ResourceCreated (provider): ${spread(acted)}`;
  });
}

const ms = (seconds: number | undefined) =>
  seconds === undefined ? 'n/a' : `${(seconds * 1000).toFixed(1)} ms`;

interface AdmissionRound {
  seconds: number;
  /** CPU the core's process used meanwhile (it serves both webhooks). */
  coreCpuSeconds: number;
  /** CPU the API server used meanwhile (it encodes the reviews, applies the patch, validates again). */
  apiServerCpuSeconds: number;
  latency: Histogram;
}

/** CPU seconds so far of every process of the system: the cluster's components and our services. */
function cpuByProcess(running: RunningSystem): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const [component, pid] of Object.entries(running.clusters[0].pids()))
    cpu.set(component, cpuSecondsOf(pid));
  for (const s of running.services)
    cpu.set(s.name, cpuSecondsOf(s.service.pid));
  return cpu;
}

const latencyText = (h: Histogram) =>
  `p50 ${ms(histogramQuantile(0.5, h))}, p99 ${ms(histogramQuantile(0.99, h))}`;

/** One more admission round as a printed line: its time against the creates without webhooks, its latency and CPU per create. */
function roundLine(
  label: string,
  round: AdmissionRound,
  withoutWebhooks: number,
): string {
  return `${label}: ${round.seconds.toFixed(2)} s (${(
    round.seconds / withoutWebhooks
  ).toFixed(2)}x without), ${latencyText(
    round.latency,
  )}; CPU per create: the API server ${ms(
    round.apiServerCpuSeconds / COUNT,
  )}, the core ${ms(round.coreCpuSeconds / COUNT)}`;
}

/** The admission phase's figures and its two targets (issue 21), as printed lines. */
function admissionLines(rounds: {
  firstRound: AdmissionRound;
  warmRound: AdmissionRound;
  withoutWebhooks: number;
  coreIdleCpuSeconds: number;
  apiServerCpuWithoutSeconds: number;
  /** with / without, of each alternated pair. */
  pairRatios: number[];
  /** Every webhook call of the pairs' rounds with the webhooks. */
  pairsLatency: Histogram;
}): { results: string[]; targets: string[] } {
  const { firstRound, warmRound, withoutWebhooks, coreIdleCpuSeconds } = rounds;
  const ratio = warmRound.seconds / withoutWebhooks;
  const p99 = histogramQuantile(0.99, rounds.pairsLatency);
  const target = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return {
    results: [
      `admission: ${COUNT} dry-run ModelDeployment creates through our webhooks ${firstRound.seconds.toFixed(
        2,
      )} s (the first calls after start-up), ${warmRound.seconds.toFixed(
        2,
      )} s (after one round); with the webhook configurations removed ${withoutWebhooks.toFixed(
        2,
      )} s (of ${
        rounds.pairRatios.length
      } alternated pairs without and with, the one of the median ratio; the pairs: ${rounds.pairRatios
        .map(r => `${r.toFixed(2)}x`)
        .join(', ')})`,
      `webhook latency (apiserver_admission_webhook_admission_duration_seconds, both webhooks; buckets 5, 25, 100, 500 ms): first round ${latencyText(
        firstRound.latency,
      )}; after one round ${latencyText(
        warmRound.latency,
      )}; every call of the ${
        rounds.pairRatios.length
      } rounds after the first ${latencyText(rounds.pairsLatency)}`,
      `the core's CPU per create (both webhook calls, /proc): first round ${ms(
        firstRound.coreCpuSeconds / COUNT,
      )}, after one round ${ms(
        warmRound.coreCpuSeconds / COUNT,
      )}; with the webhooks removed ${ms(coreIdleCpuSeconds / COUNT)}`,
      `the API server's CPU per create (/proc): first round ${ms(
        firstRound.apiServerCpuSeconds / COUNT,
      )}, after one round ${ms(
        warmRound.apiServerCpuSeconds / COUNT,
      )}; with the webhooks removed ${ms(
        rounds.apiServerCpuWithoutSeconds / COUNT,
      )}`,
    ],
    targets: [
      `  creates through our webhooks (after one round, the median pair) <= 1.5x without: ${ratio.toFixed(
        2,
      )}x  ${target(ratio <= 1.5)}`,
      `  webhook p99 (every call after the first round) <= 5 ms: ${ms(
        p99,
      )}  ${target(p99 !== undefined && p99 <= 0.005)} (calls within 5 ms: ${(
        (shareWithin(0.005, rounds.pairsLatency) ?? 0) * 100
      ).toFixed(1)}%; the histogram's buckets are 5, 25, 100 and 500 ms)`,
    ],
  };
}

/**
 * The webhook connections each controller accepted, by protocol, from the
 * line its webhook server logs per connection: shows whether the API server
 * calls over HTTP/2 (one connection, many streams) or HTTP/1.1.
 */
function webhookConnections(system: RunningSystem): string {
  const counts = system.services.flatMap(s => {
    const byProtocol = new Map<string, number>();
    let text = '';
    try {
      text = readFileSync(s.logPath, 'utf8');
    } catch {
      return [];
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"webhook connection"')) continue;
      const protocol = String(
        (JSON.parse(line) as { protocol?: unknown }).protocol,
      );
      byProtocol.set(protocol, (byProtocol.get(protocol) ?? 0) + 1);
    }
    return byProtocol.size === 0
      ? []
      : [
          `${s.name} ${[...byProtocol]
            .map(([protocol, n]) => `${protocol} ${n}`)
            .join(', ')}`,
        ];
  });
  return `webhook connections the API server opened (the controllers' logs): ${
    counts.length > 0 ? counts.join('; ') : 'none logged'
  }`;
}

const SERVER_LATENCY = 'controller_runtime_webhook_latency_seconds';

/**
 * The core's own webhook latency histogram (request read to reply written,
 * in its process), from its /metrics, whose port its log names.
 */
async function coreWebhookLatency(system: RunningSystem): Promise<Histogram> {
  const core = system.services.find(s => s.name === 'core');
  const line = readFileSync(core?.logPath ?? '', 'utf8')
    .split('\n')
    .find(l => l.includes('"metrics server listening"'));
  if (!line) return new Map();
  const { port } = JSON.parse(line) as { port: number };
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return histogramOf(
    parseMetrics(text, new Set([`${SERVER_LATENCY}_bucket`])),
    SERVER_LATENCY,
  );
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

/** The services that exited during the run (restarted or not), with their exit and log, for a failure message. */
function exitedServices(system: RunningSystem): string[] {
  return system.services
    .filter(s => s.service.exit || s.restarts > 0)
    .map(
      s =>
        `${s.name} exited ${JSON.stringify(
          s.service.exit ?? 'and was restarted',
        )} ${s.restarts} time(s) restarted (log: ${s.logPath})`,
    );
}

/** The floor (`floor.ts`) in its own namespace, timed, with its printed line. */
async function measureFloor(
  running: RunningSystem,
  client: KubeClient,
  rawSeconds: number,
): Promise<{ seconds: number; line: string }> {
  progress(
    `floor: the writes of ${COUNT} deployments until ResourceCreated, by one client on copies of the CRDs no controller watches`,
  );
  const cluster = running.clusters[0];
  const crds = await installFloorCrds(cluster);
  await client.create(Namespaces, { metadata: { name: FLOOR_NS } });
  const cpuBefore = cpuSecondsOf(cluster.pids()['kube-apiserver']);
  const seconds = await floorRound(client, crds, COUNT, CONCURRENCY, FLOOR_NS);
  const cpu = cpuSecondsOf(cluster.pids()['kube-apiserver']) - cpuBefore;
  return {
    seconds,
    line: `floor: the ${FLOOR_WRITES_PER_DEPLOYMENT} writes of each deployment until ResourceCreated (create, the core's metadata and status and Event, the provider's finalizer, upstream object, status and Event), ${CONCURRENCY} deployments at a time by one client, no controller, webhook or simulator involved: ${seconds.toFixed(
      2,
    )} s for ${COUNT} (${(seconds / rawSeconds).toFixed(
      1,
    )}x raw; the API server ${ms(cpu / COUNT)} of CPU per deployment)`,
  };
}

async function main(): Promise<void> {
  await withBenchSystem(
    {
      cluster: 'bench-system',
      deployments: COUNT + WORKLOADS.length * PER_PROVIDER,
      stepDelayMs: STEP_DELAY_MS,
      apiServerProfiling: APISERVER_PROFILE_S > 0,
    },
    async running => {
      const client = new KubeClient(running.clusters[0].kubeConfig());
      try {
        await client.create(Namespaces, { metadata: { name: NS } });
        await client.create(Namespaces, { metadata: { name: RAW_NS } });
        const memory = new Map<string, MemorySample>();
        sampleMemory(running, memory); // idle: every controller ready, nothing to reconcile

        progress(
          `baseline: ${COUNT} ConfigMap creates, ${CONCURRENCY} in flight, three rounds`,
        );
        // Three rounds, the median: a single round swung from 0.9 to 2.1 s between runs on this machine.
        const rawRounds: number[] = [];
        for (let round = 0; round < 3; round++)
          rawRounds.push(
            await timed(() =>
              inParallel(COUNT, CONCURRENCY, i =>
                client.create(ConfigMaps, {
                  metadata: { name: `raw-${round}-${i}`, namespace: RAW_NS },
                  data: { i: String(i) },
                }),
              ),
            ),
          );
        const rawSeconds = [...rawRounds].sort((a, b) => a - b)[1];
        const rawLine = `raw API server write rate (ConfigMap creates): ${(
          COUNT / rawSeconds
        ).toFixed(0)} writes/s (${rawSeconds.toFixed(
          2,
        )} s for ${COUNT}, the median of ${rawRounds
          .map(r => r.toFixed(2))
          .join(', ')} s)`;

        // The floor: the same deployments' writes until ResourceCreated, by this client alone.
        const floor =
          ONLY === 'admission'
            ? undefined
            : await measureFloor(running, client, rawSeconds);
        if (ONLY === 'floor') {
          process.stdout.write(
            `${[
              rawLine,
              floor!.line,
              `target (issue 21): all ResourceCreated <= 25x raw; the floor alone is ${(
                floor!.seconds / rawSeconds
              ).toFixed(1)}x`,
            ].join('\n')}\n`,
          );
          return;
        }

        // Admission alone: the same dry-run creates with our webhooks, without them, with them again.
        progress(
          `admission: ${COUNT} dry-run ModelDeployment creates with the webhooks, without, with again`,
        );
        // The first round is the first calls after start-up (connections, compilation); the third is the steady state.
        const core = running.services.find(s => s.name === 'core');
        const apiServerPid = running.clusters[0].pids()['kube-apiserver'];
        const admissionRound = async (
          complete = false,
        ): Promise<AdmissionRound> => {
          const before = await snapshot(client);
          const cpuBefore = cpuSecondsOf(core?.service.pid);
          const apiCpuBefore = cpuSecondsOf(apiServerPid);
          const seconds = await dryRunCreates(client, complete);
          const coreCpuSeconds = cpuSecondsOf(core?.service.pid) - cpuBefore;
          const apiServerCpuSeconds = cpuSecondsOf(apiServerPid) - apiCpuBefore;
          const after = await snapshot(client);
          return {
            seconds,
            coreCpuSeconds,
            apiServerCpuSeconds,
            latency: histogramDelta(
              webhookHistogram(before, 'CREATE'),
              webhookHistogram(after, 'CREATE'),
            ),
          };
        };
        const firstRound = await admissionRound();
        // Alternated pairs, without the webhooks then with them, and the pair of the median ratio:
        // one round's time swings with the machine's other load as much as the webhooks cost.
        const pairs: Array<{
          withoutWebhooks: number;
          coreIdleCpuSeconds: number;
          apiServerCpuWithoutSeconds: number;
          warmRound: AdmissionRound;
        }> = [];
        const serverBefore = await coreWebhookLatency(running);
        const pairsBefore = await snapshot(client);
        for (let pair = 0; pair < ADMISSION_PAIRS; pair++) {
          const removed = await removeWebhooks(client);
          await new Promise(r => setTimeout(r, 2000)); // the API server's webhook informer sees the deletes
          const idleCpuBefore = cpuSecondsOf(core?.service.pid);
          const apiCpuBefore = cpuSecondsOf(apiServerPid);
          const withoutWebhooks = await dryRunCreates(client);
          // What the core uses without serving a call (leases, watches, metrics): the floor of the figures above.
          const coreIdleCpuSeconds =
            cpuSecondsOf(core?.service.pid) - idleCpuBefore;
          const apiServerCpuWithoutSeconds =
            cpuSecondsOf(apiServerPid) - apiCpuBefore;
          await restoreWebhooks(client, removed);
          await new Promise(r => setTimeout(r, 2000));
          pairs.push({
            withoutWebhooks,
            coreIdleCpuSeconds,
            apiServerCpuWithoutSeconds,
            warmRound: await admissionRound(),
          });
        }
        const ratioOf = (p: (typeof pairs)[number]) =>
          p.warmRound.seconds / p.withoutWebhooks;
        const {
          withoutWebhooks,
          coreIdleCpuSeconds,
          apiServerCpuWithoutSeconds,
          warmRound,
        } = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b))[
          Math.floor(pairs.length / 2)
        ];
        // Every call of the pairs' rounds with the webhooks (the rounds without make none).
        const pairsLatency = histogramDelta(
          webhookHistogram(pairsBefore, 'CREATE'),
          webhookHistogram(await snapshot(client), 'CREATE'),
        );
        const serverLatency = histogramDelta(
          serverBefore,
          await coreWebhookLatency(running),
        );
        const completeRound = await admissionRound(true);
        // One call per create instead of two: what the mutating webhook costs (issue 21: could CRD defaults replace it?).
        const mutating = await removeWebhooks(client, [
          MutatingWebhookConfigurations,
        ]);
        await new Promise(r => setTimeout(r, 2000));
        const validatingOnly = await admissionRound();
        await restoreWebhooks(client, mutating);
        await new Promise(r => setTimeout(r, 2000));
        const admission = admissionLines({
          firstRound,
          warmRound,
          withoutWebhooks,
          coreIdleCpuSeconds,
          apiServerCpuWithoutSeconds,
          pairRatios: pairs.map(ratioOf),
          pairsLatency,
        });
        admission.results.push(
          roundLine(
            "complete specs (the defaults already applied, so the mutating webhook's match condition skips it)",
            completeRound,
            withoutWebhooks,
          ),
          roundLine(
            'with the validating webhook alone (mutating configuration removed)',
            validatingOnly,
            withoutWebhooks,
          ),
          webhookConnections(running),
          `the same calls as the core's webhook server sees them (controller_runtime_webhook_latency_seconds, request read to reply written): ${latencyText(
            serverLatency,
          )}; the rest of the API server's figure is its own side (encoding, TLS, waiting for a CPU)`,
        );
        if (ONLY === 'admission') {
          process.stdout.write(
            `${[
              rawLine,
              ...admission.results,
              'targets (issue 21):',
              ...admission.targets,
            ].join('\n')}\n`,
          );
          return;
        }

        progress(
          `creating ${COUNT} ModelDeployments, ${CONCURRENCY} in flight`,
        );
        // Progress from a watch, not a list of every deployment each second: at COUNT=1000 those
        // lists (megabytes each) were load on the API server the run measures, and timed out.
        const watched = new Informer<ModelDeploymentObject>(
          client,
          ModelDeployments,
          { namespace: NS },
        );
        watched.start();
        await watched.waitForSync();
        const beforeRun = await snapshot(client);
        const cpuBeforeRun = cpuByProcess(running);
        let cpuAtCreated: Map<string, number> | undefined;
        let atCreated: MetricSample[] | undefined;
        const start = performance.now();
        const elapsed = () => (performance.now() - start) / 1000;
        const profiled = profileApiServer(client);
        const submitSeconds = await timed(() =>
          inParallel(COUNT, CONCURRENCY, i =>
            client.create(ModelDeployments, modelDeployment(i, NS)),
          ),
        );

        const reached: Progress = { created: new Map(), running: new Map() };
        let wrong: string[] = [];
        let finalItems: ModelDeploymentObject[] = [];
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
            const items = watched.store.list();
            const failed = items.find(md => md.status?.phase === 'Failed');
            if (failed)
              throw new Error(
                `${failed.metadata?.name} (${
                  workloadOf(Number(failed.metadata?.name?.slice(3))).provider
                }) Failed: ${failed.status?.message}`,
              );
            wrong = wrongProviders(items);
            finalItems = items;
            const seconds = elapsed();
            record(reached.created, items, resourceCreated, seconds);
            record(reached.running, items, isRunning, seconds);
            if (!atCreated && reached.created.has('all')) {
              atCreated = await snapshot(client);
              cpuAtCreated = cpuByProcess(running);
            }
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
        await watched.stop();

        const runWork = apiWork(beforeRun, atCreated ?? [], COUNT);
        const runAdmission = histogramDelta(
          webhookHistogram(beforeRun),
          webhookHistogram(atCreated ?? []),
        );

        // API work per provider: one provider at a time on a quiet system, create until all ResourceCreated.
        const perProvider = new Map<string, ApiWork>();
        for (const w of WORKLOADS) {
          const ns = `bench-${w.provider}`;
          await client.create(Namespaces, { metadata: { name: ns } });
          await quiesce(client);
          progress(
            `API work: ${PER_PROVIDER} ${w.provider} deployments in ${ns}`,
          );
          const before = await snapshot(client);
          await inParallel(PER_PROVIDER, CONCURRENCY, i =>
            client.create(ModelDeployments, modelDeployment(i, ns, w.spec)),
          );
          await pollUntil(
            async () => {
              const items = (
                await client.list<ModelDeploymentObject>(ModelDeployments, {
                  namespace: ns,
                })
              ).items;
              return (
                items.length === PER_PROVIDER && items.every(resourceCreated)
              );
            },
            TIMEOUT_MS,
            `${PER_PROVIDER} ${w.provider} ModelDeployments ResourceCreated`,
          );
          perProvider.set(
            w.provider,
            apiWork(before, await snapshot(client), PER_PROVIDER),
          );
        }

        const createdTimes = WORKLOADS.map(
          w => reached.created.get(w.provider) ?? NaN,
        );
        const slowestToFastest =
          Math.max(...createdTimes) / Math.min(...createdTimes);
        const allCreated = reached.created.get('all') ?? NaN;
        const runP99 = histogramQuantile(0.99, runAdmission);
        const target = (ok: boolean) => (ok ? 'met' : 'NOT met');
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
          rawLine,
          floor!.line,
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
          `API work per ModelDeployment from the API server's apiserver_request_total (every client: controllers, simulators, kube-controller-manager, kwok), create until ResourceCreated:`,
          ...apiWorkLines('all', runWork),
          `  per provider, ${PER_PROVIDER} deployments of one provider at a time after the run:`,
          ...WORKLOADS.flatMap(w =>
            apiWorkLines(w.provider, perProvider.get(w.provider)!),
          ),
          ...admission.results,
          `webhook latency during the run: p99 ${ms(runP99)}`,
          'where the time goes, per provider (condition transition times of the run):',
          ...stageLines(finalItems),
          'targets (issue 21):',
          ...admission.targets,
          `  all ResourceCreated <= 25x raw creates: ${(
            allCreated / rawSeconds
          ).toFixed(1)}x  ${target(
            allCreated / rawSeconds <= 25,
          )} (the floor, those writes alone: ${(
            floor!.seconds / rawSeconds
          ).toFixed(1)}x; the run: ${(allCreated / floor!.seconds).toFixed(
            2,
          )}x the floor)`,
          `  slowest provider <= 1.5x fastest (ResourceCreated): ${slowestToFastest.toFixed(
            2,
          )}x  ${target(slowestToFastest <= 1.5)}`,
          `CPU seconds per process, first create until all ResourceCreated (${allCreated.toFixed(
            1,
          )} s on ${cpus().length} cores):`,
          `  ${[...(cpuAtCreated ?? new Map<string, number>())]
            .map(
              ([name, seconds]) =>
                [name, seconds - (cpuBeforeRun.get(name) ?? 0)] as const,
            )
            .sort((a, b) => b[1] - a[1])
            .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
            .join(', ')}`,
          'memory per process (RSS; peak = the kernel high-water mark, start-up included):',
          ...running.services.map(s => {
            const sample = memory.get(s.name);
            const { rss, peak } = memoryNow(s);
            return `  ${s.name.padEnd(17)} idle ${mib(
              sample?.idle ?? 0,
            ).padStart(8)}, highest sampled during the run ${mib(
              sample?.sampled ?? 0,
            ).padStart(8)}, at the end ${mib(rss).padStart(8)}, peak ${mib(
              peak,
            ).padStart(8)}`;
          }),
          "note: the controllers run from their built entry (dist/controller.cjs, the image's node flags), as the local system and the images do",
          ...(profiled ? [await profiled] : []),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
        if (wrong.length > 0)
          throw new Error(
            `${wrong.length} deployments went to another provider than their spec selects`,
          );
      } finally {
        client.close();
      }
    },
  );
}

/**
 * With APISERVER_PROFILE_S, the API server's CPU profile over that many seconds
 * from now, saved to a file; the line to print says where and how to read it.
 */
function profileApiServer(client: KubeClient): Promise<string> | undefined {
  if (APISERVER_PROFILE_S <= 0) return undefined;
  const file = join(tmpdir(), `runway-apiserver-${Date.now()}.pprof`);
  return apiServerCpuProfile(client, APISERVER_PROFILE_S).then(
    profile => {
      writeFileSync(file, profile);
      return `API server CPU profile, the first ${APISERVER_PROFILE_S} s from the first create: ${file} (go tool pprof -top ${file})`;
    },
    err => `API server CPU profile: none (${(err as Error).message})`,
  );
}

runBenchmark(main);

/**
 * Fault scenarios on the local system (issue 17), shared by the fault test
 * (a few dozen deployments) and the fault benchmark (hundreds): controllers
 * killed with SIGKILL while deployments converge, the API server restarted
 * during a stream of writes, the leader of two replicas killed. Each returns
 * what it measured and what it found; the pure functions below judge the
 * cluster's state and the controllers' logs.
 */
import {
  CustomResourceDefinitions,
  isAlreadyExists,
  isNotFound,
  KubeClient,
  type KubeObject,
  Leases,
  Namespaces,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  type ClusterClientOptions,
  DefaultClusterClient,
} from '@runway-portal/plugin-runway-node';
import { readFile } from 'node:fs/promises';
import {
  type RunningSystem,
  type SystemService,
  waitServiceReady,
} from './system';
import {
  MODEL_DEPLOYMENTS,
  modelDeployment,
  type UpstreamKindRef,
  WORKLOADS,
  workloadOf,
} from './workloads';

interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
}

/** The parts of a ModelDeployment the scenarios read. */
export interface ModelDeploymentState extends KubeObject {
  status?: {
    phase?: string;
    observedGeneration?: number;
    conditions?: Condition[];
    provider?: { name?: string };
  };
}

const condition = (md: ModelDeploymentState, type: string) =>
  md.status?.conditions?.find(c => c.type === type);

export const isResourceCreated = (md: ModelDeploymentState) =>
  condition(md, 'ResourceCreated')?.status === 'True';

export const isRunning = (md: ModelDeploymentState) =>
  md.status?.phase === 'Running';

/**
 * Reconciled at its current generation: the core's status says so
 * (`status.observedGeneration`), its provider created the upstream object,
 * and it is not being deleted (a deletion ends with the object gone).
 */
export function isReconciled(md: ModelDeploymentState): boolean {
  const generation = md.metadata?.generation;
  const created = condition(md, 'ResourceCreated');
  return (
    !md.metadata?.deletionTimestamp &&
    md.status?.observedGeneration === generation &&
    created?.status === 'True' &&
    (created.observedGeneration === undefined ||
      created.observedGeneration === generation)
  );
}

/** What an upstream object is checked for: its kind and its owner ModelDeployment. */
export interface UpstreamObject {
  kind: string;
  name: string;
  ownerUid?: string;
}

export interface UpstreamAudit {
  /** Deployments without their provider's object, as `md-3 (Workspace)`. */
  missing: string[];
  /** Deployments with more than one, as `md-3: 2 Workspace`. */
  duplicated: string[];
  /** Upstream objects whose owner ModelDeployment is gone, as `Workspace md-3`. */
  orphans: string[];
}

/**
 * Exactly one object of its provider's kind per deployment, none whose
 * owner is gone. `expectedKind` names the kind a deployment's provider
 * creates (from its spec, so a wrong provider shows as missing).
 */
export function auditUpstream(
  deployments: ModelDeploymentState[],
  upstream: UpstreamObject[],
  expectedKind: (md: ModelDeploymentState) => string,
): UpstreamAudit {
  const live = new Map(deployments.map(md => [md.metadata?.uid ?? '', md]));
  const owned = new Map<string, number>();
  const orphans: string[] = [];
  for (const obj of upstream) {
    if (!obj.ownerUid) continue; // not a deployment's (e.g. created by hand)
    if (!live.has(obj.ownerUid)) {
      orphans.push(`${obj.kind} ${obj.name}`);
      continue;
    }
    const key = `${obj.ownerUid}/${obj.kind}`;
    owned.set(key, (owned.get(key) ?? 0) + 1);
  }
  const missing: string[] = [];
  const duplicated: string[] = [];
  for (const [uid, md] of live) {
    if (md.metadata?.deletionTimestamp) continue; // its objects go with it
    const kind = expectedKind(md);
    const count = owned.get(`${uid}/${kind}`) ?? 0;
    if (count === 0) missing.push(`${md.metadata?.name} (${kind})`);
    if (count > 1) duplicated.push(`${md.metadata?.name}: ${count} ${kind}`);
  }
  return { missing, duplicated, orphans };
}

/** The same deployments at the same generation, as their controllers saw them (names, generations, observed generations). */
export function sameDeployments(
  a: readonly ModelDeploymentState[],
  b: readonly ModelDeploymentState[],
): boolean {
  const key = (md: ModelDeploymentState) =>
    `${md.metadata?.name}@${md.metadata?.generation}/${md.status?.observedGeneration}`;
  const keys = (items: readonly ModelDeploymentState[]) =>
    items.map(key).sort().join(',');
  return keys(a) === keys(b);
}

export const auditClean = (audit: UpstreamAudit) =>
  audit.missing.length + audit.duplicated.length + audit.orphans.length === 0;

/** One replica's time as leader, in epoch ms (`to` Infinity while it still leads). */
export interface LeaderTerm {
  replica: string;
  from: number;
  to: number;
}

const TERM_ENDS = new Set([
  // A process starting in the same log: the one before it is gone.
  'waiting for the leader lease',
  'stopped leading',
  'released the leader lease',
  'leader lease lost, stopping all controllers at once',
]);

/**
 * A replica's terms as leader from its JSON log ('became leader' until it
 * stopped leading), with `kills` (epoch ms of each SIGKILL of it, which
 * leaves no line) ending the term that was open. Pure.
 */
export function leaderTerms(
  replica: string,
  logText: string,
  kills: readonly number[] = [],
): LeaderTerm[] {
  const events: Array<{ at: number; start: boolean }> = kills.map(at => ({
    at,
    start: false,
  }));
  for (const line of logText.split('\n')) {
    if (!line.startsWith('{')) continue;
    let record: { msg?: unknown; ts?: unknown };
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a line cut by SIGKILL
    }
    const at = Date.parse(String(record.ts));
    if (Number.isNaN(at)) continue;
    if (record.msg === 'became leader') events.push({ at, start: true });
    else if (TERM_ENDS.has(String(record.msg)))
      events.push({ at, start: false });
  }
  events.sort((a, b) => a.at - b.at);
  const terms: LeaderTerm[] = [];
  let open: number | undefined;
  for (const event of events) {
    if (event.start) {
      open ??= event.at;
    } else if (open !== undefined) {
      terms.push({ replica, from: open, to: event.at });
      open = undefined;
    }
  }
  if (open !== undefined) terms.push({ replica, from: open, to: Infinity });
  return terms;
}

/** Pairs of terms of different replicas that overlap in time, as `a [from, to) ∩ b [from, to)`. */
export function overlappingTerms(terms: readonly LeaderTerm[]): string[] {
  const found: string[] = [];
  const show = (t: LeaderTerm) =>
    `${t.replica} [${new Date(t.from).toISOString()}, ${
      Number.isFinite(t.to) ? new Date(t.to).toISOString() : 'now'
    })`;
  for (let i = 0; i < terms.length; i++) {
    for (let j = i + 1; j < terms.length; j++) {
      const [a, b] = [terms[i], terms[j]];
      if (a.from < b.to && b.from < a.to) found.push(`${show(a)} ∩ ${show(b)}`);
    }
  }
  return found;
}

/** The deployment's index in the round robin (`md-<i>`). */
export const indexOf = (md: KubeObject) =>
  Number(md.metadata?.name?.slice('md-'.length));

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns a value; the error says what did not happen. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err; // the API server may be down
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${
          lastError ? ` (last error: ${(lastError as Error).message})` : ''
        }`,
      );
    await sleep(everyMs);
  }
}

/** The admin's view of one namespace of a local cluster, for the scenarios. */
export class FaultProbe {
  private upstreamTypes?: Array<{ ref: UpstreamKindRef; rt: ResourceType }>;

  constructor(
    readonly system: RunningSystem,
    readonly admin: KubeClient,
    readonly namespace: string,
    readonly log: (line: string) => void = () => {},
  ) {}

  get cluster(): string {
    return this.system.clusters[0].name;
  }

  /** The processes of `name` in the cluster (several with replicas). */
  services(name: string): SystemService[] {
    return this.system.services.filter(
      s => s.cluster === this.cluster && s.name === name,
    );
  }

  async createNamespace(): Promise<void> {
    try {
      await this.admin.create(Namespaces, {
        metadata: { name: this.namespace },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err; // a benchmark's second round
    }
  }

  async deployments(): Promise<ModelDeploymentState[]> {
    return (
      await this.admin.list<ModelDeploymentState>(MODEL_DEPLOYMENTS, {
        namespace: this.namespace,
      })
    ).items;
  }

  /** Each provider's kind at the version the cluster's CRD stores. */
  private async types(): Promise<
    Array<{ ref: UpstreamKindRef; rt: ResourceType }>
  > {
    this.upstreamTypes ??= await Promise.all(
      WORKLOADS.map(async ({ upstream: ref }) => {
        const crd = await this.admin.get<
          KubeObject & {
            spec: { versions: Array<{ name: string; storage?: boolean }> };
          }
        >(CustomResourceDefinitions, { name: `${ref.plural}.${ref.group}` });
        const version = crd.spec.versions.find(v => v.storage)?.name;
        if (!version)
          throw new Error(
            `CRD ${ref.plural}.${ref.group} has no storage version: install the upstream CRDs (e2e/simulators/upstream-crds)`,
          );
        return { ref, rt: { ...ref, version, namespaced: true } };
      }),
    );
    return this.upstreamTypes;
  }

  /** Every object of the providers' kinds in the namespace, with its owner ModelDeployment. */
  async upstreamObjects(): Promise<UpstreamObject[]> {
    const lists = await Promise.all(
      (
        await this.types()
      ).map(async ({ ref, rt }) =>
        (
          await this.admin.list(rt, { namespace: this.namespace })
        ).items.map(obj => ({
          kind: ref.kind,
          name: obj.metadata?.name ?? '',
          ownerUid: obj.metadata?.ownerReferences?.find(
            o => o.kind === 'ModelDeployment',
          )?.uid,
        })),
      ),
    );
    return lists.flat();
  }

  async audit(): Promise<{
    deployments: ModelDeploymentState[];
    audit: UpstreamAudit;
  }> {
    const [deployments, upstream] = await Promise.all([
      this.deployments(),
      this.upstreamObjects(),
    ]);
    return {
      deployments,
      audit: auditUpstream(
        deployments,
        upstream,
        md => workloadOf(indexOf(md)).upstream.kind,
      ),
    };
  }

  /** Creates deployment `i` (the round robin's spec), retrying while the API server refuses or is down. */
  async create(i: number, timeoutMs = 60_000): Promise<void> {
    await this.retrying(`create md-${i}`, timeoutMs, async () => {
      try {
        await this.admin.create(
          MODEL_DEPLOYMENTS,
          modelDeployment(i, this.namespace) as KubeObject,
        );
      } catch (err) {
        // A create that landed before the connection broke.
        if (!isAlreadyExists(err)) throw err;
      }
    });
  }

  /** A spec change (a new generation) to deployment `i`: its env names `revision`. */
  async update(i: number, revision: number, timeoutMs = 60_000) {
    await this.retrying(`update md-${i}`, timeoutMs, () =>
      this.admin.patch(
        MODEL_DEPLOYMENTS,
        { namespace: this.namespace, name: `md-${i}` },
        {
          spec: { env: [{ name: 'FAULT_REVISION', value: String(revision) }] },
        },
        'merge',
      ),
    );
  }

  async delete(i: number, timeoutMs = 60_000): Promise<void> {
    await this.retrying(`delete md-${i}`, timeoutMs, async () => {
      try {
        await this.admin.delete(MODEL_DEPLOYMENTS, {
          namespace: this.namespace,
          name: `md-${i}`,
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    });
  }

  private async retrying(
    what: string,
    timeoutMs: number,
    write: () => Promise<unknown>,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await write();
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(
            `${what} failed for ${Math.round(timeoutMs / 1000)} s: ${
              (err as Error).message
            }`,
          );
        await sleep(200);
      }
    }
  }

  /** Every SIGKILL this probe sent, by process (a killed leader's term ends there: its log cannot say). */
  readonly kills = new Map<SystemService, number[]>();

  /** Leader terms of every process of `name`, from their logs and the SIGKILLs sent to them. */
  async terms(name: string): Promise<LeaderTerm[]> {
    const kills = this.kills;
    const services = this.services(name);
    const terms = await Promise.all(
      services.map(async s =>
        leaderTerms(
          s.logPath,
          await readFile(s.logPath, 'utf8'),
          kills.get(s) ?? [],
        ),
      ),
    );
    return terms.flat();
  }
}

/**
 * Runs `work(i)` for 0..count-1, `concurrency` at a time (provider-shared's
 * `inParallel` is a dev dependency here: the benchmarks' and tests' only).
 */
async function inParallel(
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

/** SIGKILL; `restart`: the system restarts it, as the kubelet would. Returns when it was gone. */
async function crash(
  service: SystemService,
  kills: Map<SystemService, number[]>,
  restart: boolean,
): Promise<number> {
  await service.kill({ restart });
  const at = Date.now(); // after the exit: it wrote nothing later
  kills.set(service, [...(kills.get(service) ?? []), at]);
  return at;
}

export interface SigkillLoopOptions {
  /** Deployments created while the kills go on. */
  count: number;
  /** SIGKILLs in all: the core, then each provider, round robin. */
  kills: number;
  /** Between two kills. */
  intervalMs: number;
  /** Every `deleteEvery`-th deployment is deleted during the kills (0: none). */
  deleteEvery: number;
  timeoutMs: number;
}

export interface SigkillLoopResult {
  kills: number;
  killed: string[];
  deleted: number;
  /** From the last kill until every deployment has ResourceCreated and the audit is clean. */
  convergeMs: number;
  /** From the last kill until every deployment is Running. */
  runningMs: number;
  audit: UpstreamAudit;
  /** Leader terms of one controller's processes that overlapped (must be none). */
  overlaps: string[];
}

/** The controllers a SIGKILL loop kills: the core, then each provider. */
const KILLED = (names: string[]) =>
  names.filter(n => n === 'core' || n.startsWith('provider-'));

/**
 * Creates `count` deployments (and deletes some) while the core and the
 * providers are killed with SIGKILL and restarted, then waits until every
 * deployment converges with exactly one upstream object and no orphans.
 */
export async function sigkillLoop(
  probe: FaultProbe,
  options: SigkillLoopOptions,
): Promise<SigkillLoopResult> {
  const names = KILLED([
    ...new Set(
      probe.system.services
        .filter(s => s.cluster === probe.cluster)
        .map(s => s.name),
    ),
  ]);
  const kills = probe.kills;
  const deleted = new Set<number>();
  const writes = (async () => {
    await inParallel(options.count, 8, i => probe.create(i));
    if (options.deleteEvery > 0) {
      for (let i = 0; i < options.count; i += options.deleteEvery) {
        await probe.delete(i);
        deleted.add(i);
      }
    }
  })();
  let lastKill = 0;
  const killed: string[] = [];
  for (let k = 0; k < options.kills; k++) {
    const name = names[k % names.length];
    for (const service of probe.services(name)) {
      lastKill = await crash(service, kills, true);
      killed.push(name);
    }
    probe.log(`SIGKILL ${k + 1}/${options.kills}: ${name}, restarted`);
    await sleep(options.intervalMs);
  }
  await writes;
  const converged = await waitFor(
    `all ${
      options.count - deleted.size
    } deployments to have ResourceCreated with one upstream object each, ${
      deleted.size
    } deleted, no orphans`,
    async () => {
      const { deployments, audit } = await probe.audit();
      const gone = deployments.filter(md => deleted.has(indexOf(md)));
      return deployments.length === options.count - deleted.size &&
        gone.length === 0 &&
        deployments.every(isResourceCreated) &&
        auditClean(audit)
        ? audit
        : undefined;
    },
    options.timeoutMs,
    500,
  );
  const convergeMs = Date.now() - lastKill;
  probe.log(`converged ${convergeMs} ms after the last SIGKILL`);
  await waitFor(
    'every deployment to be Running',
    async () =>
      (await probe.deployments()).every(isRunning) ? true : undefined,
    options.timeoutMs,
    500,
  );
  const runningMs = Date.now() - lastKill;
  const overlaps = (
    await Promise.all(names.map(name => probe.terms(name)))
  ).flatMap(overlappingTerms);
  return {
    kills: options.kills,
    killed,
    deleted: deleted.size,
    convergeMs,
    runningMs,
    audit: converged,
    overlaps,
  };
}

export interface ApiRestartOptions {
  /** Deployments created (and converged) before the stream starts. */
  count: number;
  /** How long the control plane stays down (etcd kept). */
  downMs: number;
  /** Writes in the burst right after the API server answers again. */
  burst: number;
  timeoutMs: number;
  /**
   * Another cache of the deployments (e.g. the portal backend's): once every
   * write is reconciled, polled until it answers what the API server holds;
   * the time from the API server answering is reported.
   */
  cache?: (namespace: string) => Promise<ModelDeploymentState[]>;
}

export interface ApiRestartResult {
  /** Control plane stopped → answering again. */
  downMs: number;
  /** API server answering → the last write reconciled (every deployment at its generation, deletions gone). */
  recoveryMs: number;
  /** API server answering → `cache` answering what the API server holds. */
  cacheRecoveryMs?: number;
  writes: number;
  /** Attempts refused while the API server was down (each retried). */
  failedAttempts: number;
}

/**
 * Creates, updates and deletes deployments in a stream, stops the control
 * plane (etcd kept) in the middle of it, starts it again, writes a burst
 * at once, and measures how long after the API server answers every write
 * is reconciled: the controllers must re-establish their watches alone.
 */
export async function apiServerRestart(
  probe: FaultProbe,
  options: ApiRestartOptions,
): Promise<ApiRestartResult> {
  const cluster = probe.system.clusters[0];
  await inParallel(options.count, 8, i => probe.create(i));
  await waitFor(
    `the ${options.count} deployments to be reconciled before the restart`,
    async () => {
      const items = await probe.deployments();
      return items.length === options.count && items.every(isReconciled)
        ? true
        : undefined;
    },
    options.timeoutMs,
  );
  let next = options.count;
  let revision = 0;
  let writes = 0;
  let failedAttempts = 0;
  const deleted = new Set<number>();
  const live = () =>
    Array.from({ length: next }, (_, i) => i).filter(i => !deleted.has(i));
  /** The n-th write of the stream: a create, an update or a delete, in turn (bookkept before it is sent). */
  const nthWrite = (n: number): ((timeoutMs: number) => Promise<void>) => {
    writes++;
    if (n % 3 === 0) {
      const i = next++;
      return t => probe.create(i, t);
    }
    const targets = live();
    const target = targets[(n * 7) % targets.length];
    if (n % 3 === 1) {
      const r = ++revision;
      return t => probe.update(target, r, t);
    }
    deleted.add(target);
    return t => probe.delete(target, t);
  };
  let streaming = true;
  /** The write that failed when the API server went away, sent again once it answers. */
  let pending: ((timeoutMs: number) => Promise<void>) | undefined;
  const stream = (async () => {
    for (let n = 0; streaming; n++) {
      const send = nthWrite(n);
      for (;;) {
        try {
          await send(0);
          break;
        } catch {
          failedAttempts++; // the API server is down: try again, as a client would
          if (!streaming) {
            pending = send;
            break;
          }
          await sleep(100);
        }
      }
      await sleep(100);
    }
  })();
  await sleep(2000);
  const stoppedAt = Date.now();
  await cluster.stopControlPlane();
  probe.log('control plane stopped (etcd kept)');
  await sleep(options.downMs);
  await cluster.startControlPlane();
  const upAt = Date.now();
  streaming = false;
  await stream;
  probe.log(`API server answering after ${upAt - stoppedAt} ms down`);
  // Writes the controllers can only see through watches made after the restart.
  await pending?.(30_000);
  for (let n = 0; n < options.burst; n++) await nthWrite(n)(30_000);
  await waitFor(
    'every deployment to be reconciled at its generation and every deletion to finish after the restart',
    async () => {
      const items = await probe.deployments();
      return items.length === next - deleted.size &&
        items.every(md => !deleted.has(indexOf(md)) && isReconciled(md))
        ? true
        : undefined;
    },
    options.timeoutMs,
    100,
  );
  const recoveryMs = Date.now() - upAt;
  let cacheRecoveryMs: number | undefined;
  if (options.cache) {
    const cache = options.cache;
    await waitFor(
      "the other cache to answer the API server's deployments",
      async () => {
        const [truth, cached] = await Promise.all([
          probe.deployments(),
          cache(probe.namespace),
        ]);
        return sameDeployments(truth, cached) ? true : undefined;
      },
      options.timeoutMs,
      100,
    );
    cacheRecoveryMs = Date.now() - upAt;
  }
  return {
    downMs: upAt - stoppedAt,
    recoveryMs,
    cacheRecoveryMs,
    writes,
    failedAttempts,
  };
}

export interface HandoverResult {
  /** SIGKILL of the leader → the new object reconciled by the standby. */
  handoverMs: number;
  /** SIGKILL of the leader → the standby's 'became leader' line. */
  electedMs: number;
  overlaps: string[];
  leaseTransitions: number;
}

/** The Lease a controller leads with (`<program>-leader`), found by its holder in the logs. */
async function leaderOf(
  probe: FaultProbe,
  name: string,
): Promise<{ leader: SystemService; standby: SystemService[] }> {
  return waitFor(
    `one process of ${name} to lead`,
    async () => {
      const services = probe.services(name).filter(s => !s.service.exit);
      const leading = (
        await Promise.all(
          services.map(async s =>
            leaderTerms(s.logPath, await readFile(s.logPath, 'utf8')).some(
              t => !Number.isFinite(t.to),
            )
              ? s
              : undefined,
          ),
        )
      ).filter((s): s is SystemService => !!s);
      // A restarted process's log holds its predecessor's open term too: the newest start leads.
      const leader = leading.length === 1 ? leading[0] : undefined;
      return leader
        ? { leader, standby: services.filter(s => s !== leader) }
        : undefined;
    },
    60_000,
  );
}

/**
 * With two processes of `name` (one more started as a replica if needed),
 * kills the leader with SIGKILL (its pod gone: not restarted meanwhile),
 * creates deployment `index` at once, and measures until the standby has
 * reconciled it (`reconciled` judges the deployment by what that controller
 * writes). Then starts the killed one again, as the next standby.
 */
export async function leaderHandover(
  probe: FaultProbe,
  options: {
    name: string;
    lease: string;
    leaseNamespace: string;
    index: number;
    reconciled: (md: ModelDeploymentState) => boolean;
    timeoutMs: number;
  },
): Promise<HandoverResult> {
  if (probe.services(options.name).length < 2)
    await probe.system.startReplica(probe.cluster, options.name);
  // A standby restarted by an earlier round must be warm (caches synced) before the leader goes.
  await Promise.all(probe.services(options.name).map(s => waitServiceReady(s)));
  const { leader } = await leaderOf(probe, options.name);
  const before = await probe.admin.get<
    KubeObject & { spec?: { leaseTransitions?: number } }
  >(Leases, { namespace: options.leaseNamespace, name: options.lease });
  const kills = probe.kills;
  const killedAt = Date.now();
  // Its pod is gone: restarted at once, it would find the lease still its own and keep it.
  await crash(leader, kills, false);
  await probe.create(options.index);
  await waitFor(
    `md-${options.index} to be reconciled by the standby ${options.name}`,
    async () => {
      const md = await probe.admin.get<ModelDeploymentState>(
        MODEL_DEPLOYMENTS,
        { namespace: probe.namespace, name: `md-${options.index}` },
      );
      return options.reconciled(md) ? true : undefined;
    },
    options.timeoutMs,
    100,
  );
  const handoverMs = Date.now() - killedAt;
  const terms = await probe.terms(options.name);
  const elected = terms
    .filter(t => t.from > killedAt)
    .map(t => t.from - killedAt);
  const after = await probe.admin.get<
    KubeObject & { spec?: { leaseTransitions?: number } }
  >(Leases, { namespace: options.leaseNamespace, name: options.lease });
  leader.restart(); // back as the next standby
  return {
    handoverMs,
    electedMs: elected.length > 0 ? Math.min(...elected) : NaN,
    overlaps: overlappingTerms(terms),
    leaseTransitions:
      (after.spec?.leaseTransitions ?? 0) -
      (before.spec?.leaseTransitions ?? 0),
  };
}

const quietLogger: ClusterClientOptions['logger'] = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => quietLogger,
};

/**
 * The portal backend's cache of one local cluster (plugin-runway-node's
 * DefaultClusterClient, as the backend runs it, with the portal's account):
 * `list` answers from its watch-backed informers.
 */
export function backendCache(
  system: RunningSystem,
  logger: ClusterClientOptions['logger'] = quietLogger,
): {
  list(namespace: string): Promise<ModelDeploymentState[]>;
  close(): Promise<void>;
} {
  const portal = system.portalClusters?.[0];
  if (!portal)
    throw new Error(
      'the system has no local cluster for the portal: start it with clusters and without app-config.local.yaml clusters (honourLocalConfig: false)',
    );
  const client = new DefaultClusterClient({
    clusters: [
      {
        name: portal.name,
        url: portal.url,
        auth: { type: 'serviceAccount', token: portal.serviceAccountToken },
        caData: portal.caData,
        skipTLSVerify: false,
        configPath: 'e2e/system faults',
      },
    ],
    problems: [],
    requestTimeoutMs: 10_000,
    logger,
  });
  return {
    async list(namespace) {
      const answer = await client.list('deployments', { namespace });
      return answer.items.map(i => i.object as ModelDeploymentState);
    },
    close: () => client.stop(),
  };
}

/** The controllers the hand-over is measured for, with their Lease and what their reconcile of a new deployment writes. */
export const HANDOVER_CONTROLLERS = [
  {
    name: 'core',
    lease: 'airunway-core-leader',
    // The core's own write: it chose a provider.
    reconciled: (md: ModelDeploymentState) =>
      md.status?.conditions?.some(
        c => c.type === 'ProviderSelected' && c.status === 'True',
      ) ?? false,
  },
  {
    name: 'provider-kaito',
    lease: 'kaito-provider-leader',
    reconciled: isResourceCreated,
  },
] as const;

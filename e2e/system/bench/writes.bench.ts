/**
 * Every write to a ModelDeployment, one line each (issue 21: "one status
 * write per owner per transition"): one deployment per provider on the
 * local system, watched from its create until it is Running, each change
 * printed with the manager that made it (from `managedFields`) and what it
 * changed (labels, annotations, finalizers, phase, conditions). Then the
 * Events about it. Not a timing: it shows which writes a run pays for.
 *
 *   yarn workspace @runway-portal/e2e-system bench:writes
 *
 * Environment: STEP_DELAY_MS (simulated operators' step, default 1000),
 * TIMEOUT_S (default 120).
 */
import {
  Events,
  KubeClient,
  type KubeObject,
  Namespaces,
  type WatchEvent,
} from '@runway-portal/controller-runtime';
import type { Condition } from '@runway-portal/plugin-runway-common';
import { ModelDeployments } from '@runway-portal/provider-shared';
import type { ModelDeploymentObject } from '@runway-portal/provider-shared/testing';
import { modelDeployment, WORKLOADS } from '../src/workloads';
import { envNumber } from './env';
import { progress, withBenchSystem } from './system';

const STEP_DELAY_MS = envNumber('STEP_DELAY_MS', 1000);
const TIMEOUT_MS = envNumber('TIMEOUT_S', 120) * 1000;
const NS = 'writes';

interface ManagedField {
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: string;
}

/**
 * Who made a write: the managedFields entries that differ from the version
 * before (an entry's time has only second resolution, so the newest entry
 * can be an earlier writer of the same second); the newest one for a create.
 */
function writerOf(before: KubeObject | undefined, after: KubeObject): string {
  const entries = (o: KubeObject | undefined) =>
    ((o?.metadata?.managedFields ?? []) as ManagedField[]).map(e =>
      JSON.stringify(e),
    );
  const was = new Set(entries(before));
  const changed = ((after.metadata?.managedFields ?? []) as ManagedField[])
    .filter(e => !was.has(JSON.stringify(e)))
    .sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''));
  const label = (e: ManagedField) =>
    `${e.manager}${e.subresource ? ` (${e.subresource})` : ''}`;
  if (changed.length > 0) return changed.map(label).join(' + ');
  return before ? '? (no managedFields entry changed)' : '?';
}

/** What changed between two versions of a deployment, as short phrases. */
function describeChange(
  before: ModelDeploymentObject | undefined,
  after: ModelDeploymentObject,
): string[] {
  if (!before) return ['created'];
  const out: string[] = [];
  const json = (v: unknown) => JSON.stringify(v ?? null);
  if (json(before.spec) !== json(after.spec)) out.push('spec');
  for (const key of ['labels', 'annotations', 'finalizers'] as const) {
    if (json(before.metadata?.[key]) !== json(after.metadata?.[key]))
      out.push(key);
  }
  if (before.status?.message !== after.status?.message)
    out.push(`message "${after.status?.message ?? ''}"`);
  if (before.status?.phase !== after.status?.phase)
    out.push(`phase ${before.status?.phase ?? '-'} → ${after.status?.phase}`);
  const conditions = (o: ModelDeploymentObject) =>
    new Map(
      ((o.status?.conditions ?? []) as Condition[]).map(c => [c.type, c]),
    );
  const was = conditions(before);
  for (const [type, c] of conditions(after)) {
    const old = was.get(type);
    if (!old || old.status !== c.status || old.reason !== c.reason)
      out.push(`${type}=${c.status} (${c.reason})`);
    else if (old.message !== c.message)
      out.push(`${type} message "${c.message ?? ''}"`);
  }
  const {
    conditions: _a,
    phase: _b,
    message: _m,
    ...restBefore
  } = before.status ?? {};
  const {
    conditions: _c,
    phase: _d,
    message: _n,
    ...restAfter
  } = after.status ?? {};
  for (const key of new Set([
    ...Object.keys(restBefore),
    ...Object.keys(restAfter),
  ])) {
    if (
      json((restBefore as Record<string, unknown>)[key]) !==
      json((restAfter as Record<string, unknown>)[key])
    )
      out.push(`status.${key}`);
  }
  if (out.length === 0) {
    // Say exactly what changed: a write the phrases above miss may be one that changes nothing.
    const flat = (v: unknown, at = '', into = new Map<string, string>()) => {
      if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v as object))
          flat(
            x,
            `${at}.${Array.isArray(v) ? (x as Condition)?.type ?? k : k}`,
            into,
          );
      else into.set(at, json(v));
      return into;
    };
    const a = flat({ status: before.status, metadata: before.metadata });
    const b = flat({ status: after.status, metadata: after.metadata });
    const changed = [...new Set([...a.keys(), ...b.keys()])].filter(
      k => a.get(k) !== b.get(k) && !k.startsWith('.metadata.resourceVersion'),
    );
    out.push(
      `only ${changed
        .map(k =>
          k.replace(
            /\.metadata\.managedFields\.(\d+)\..*/,
            '.metadata.managedFields[$1]',
          ),
        )
        .filter((k, i, all) => all.indexOf(k) === i)
        .join(', ')}`,
    );
  }
  return out;
}

async function main() {
  await withBenchSystem(
    { cluster: 'bench-writes', deployments: 8, stepDelayMs: STEP_DELAY_MS },
    async system => {
      const client = new KubeClient(system.clusters[0].kubeConfig());
      await client.create(Namespaces, { metadata: { name: NS } });
      const last = new Map<string, ModelDeploymentObject>();
      const lines = new Map<string, string[]>();
      const running = new Set<string>();
      const abort = new AbortController();
      const start = performance.now();
      const watching = client
        .watch<ModelDeploymentObject>(
          ModelDeployments,
          { namespace: NS, signal: abort.signal },
          (event: WatchEvent<ModelDeploymentObject>) => {
            if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
            const md = event.object;
            const name = md.metadata!.name!;
            const at = ((performance.now() - start) / 1000).toFixed(2);
            const list = lines.get(name) ?? [];
            list.push(
              `  ${at.padStart(6)} s  ${writerOf(last.get(name), md).padEnd(
                36,
              )} ${describeChange(last.get(name), md).join(', ')}`,
            );
            lines.set(name, list);
            last.set(name, md);
            if (md.status?.phase === 'Running') running.add(name);
          },
        )
        .catch(err => {
          if (!abort.signal.aborted) throw err;
        });
      await new Promise(r => setTimeout(r, 500));
      for (const [i, w] of WORKLOADS.entries())
        await client.create(ModelDeployments, {
          ...modelDeployment(i, NS, w.spec),
          metadata: { name: w.provider, namespace: NS },
        });
      progress(`created ${WORKLOADS.length}, waiting until all are Running`);
      const deadline = Date.now() + TIMEOUT_MS;
      while (running.size < WORKLOADS.length && Date.now() < deadline)
        await new Promise(r => setTimeout(r, 250));
      // Late writes after Running (status settling) belong to the run too.
      await new Promise(r => setTimeout(r, 3000));
      abort.abort();
      await watching;
      const events = (
        await client.list<KubeObject & { involvedObject?: { name?: string } }>(
          Events,
          { namespace: NS },
        )
      ).items;
      const out: string[] = [];
      for (const w of WORKLOADS) {
        const list = lines.get(w.provider) ?? [];
        const mine = events.filter(e => e.involvedObject?.name === w.provider);
        out.push(
          `${w.provider}: ${list.length - 1} writes after the create until ${
            running.has(w.provider) ? 'Running' : 'the timeout'
          }, ${mine.length} Events (${mine
            .map(e => (e as { reason?: string }).reason)
            .join(', ')})`,
          ...list,
        );
      }
      process.stdout.write(`${out.join('\n')}\n`);
      client.close();
    },
  );
}

main().catch(err => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

/**
 * Install and upgrade: server-side apply of a plan, phase by phase, as the
 * CLI's own field manager. The decisions (order, what changed) are pure
 * functions; this file is the loop that talks to the API server.
 */
import {
  CustomResourceDefinitions,
  isNotFound,
  type KubeClient,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { FIELD_MANAGER } from '../bundles/catalog';
import {
  describeObject,
  type Phase,
  type PlannedObject,
} from '../bundles/plan';
import { CliError, explainKubeError } from '../errors';
import {
  crdEstablished,
  type CrdObject,
  Deployments,
  deploymentReady,
  type DeploymentObject,
  getOrUndefined,
  InferenceProviderConfigs,
  probeWebhooks,
  liveEndpoints,
  serverVersion,
  sleep,
  webhookServices,
  type WebhookConfigObject,
} from './kube';
import type { Reporter } from './reporter';

export type Action =
  | 'created'
  | 'changed'
  | 'unchanged'
  | 'deleted'
  | 'absent'
  | 'kept'
  | 'orphaned';

export interface ObjectResult {
  object: string;
  action: Action;
  phase?: Phase;
}

export interface ApplyOptions {
  /** Server-side dry run: nothing is stored. */
  dryRun?: boolean;
  /** Wait until Deployments are available and providers report ready. */
  wait?: boolean;
  /** Take over fields another field manager owns. */
  forceConflicts?: boolean;
  /** Bound of each wait (CRDs, webhook Service, webhook answer, --wait). */
  timeoutMs?: number;
  namespace: string;
  /** Provider registrations (InferenceProviderConfig names) to wait for with --wait. */
  providers?: string[];
  /** Poll interval of waits (tests shorten it). */
  pollMs?: number;
}

/** What the API server stores that an apply never sets; ignored when comparing. */
function comparable(object: KubeObject | undefined): unknown {
  if (!object) return undefined;
  const { status: _status, ...rest } = object as KubeObject & {
    status?: unknown;
  };
  const {
    managedFields: _m,
    resourceVersion: _r,
    generation: _g,
    ...meta
  } = rest.metadata ?? {};
  return { ...rest, metadata: meta };
}

/**
 * created / changed / unchanged, from the object before and what the apply
 * answered, by content: a controller may write the status (and so the
 * resourceVersion) between our read and our apply.
 */
export function actionOf(
  before: KubeObject | undefined,
  after: KubeObject,
): Action {
  if (!before) return 'created';
  return JSON.stringify(comparable(before)) ===
    JSON.stringify(comparable(after))
    ? 'unchanged'
    : 'changed';
}

/** One line per object: the plan before applying. */
export function planLines(plan: PlannedObject[]): string[] {
  const titles: Record<Phase, string> = {
    namespace: 'namespace',
    crd: 'CRDs (waited until Established)',
    workload: 'controllers',
    webhook: 'webhook configurations (after their Service answers)',
  };
  const lines: string[] = [];
  for (const phase of Object.keys(titles) as Phase[]) {
    const objects = plan.filter(p => p.phase === phase);
    if (objects.length === 0) continue;
    lines.push(`  ${titles[phase]}:`);
    for (const p of objects) lines.push(`    - ${describeObject(p.object)}`);
  }
  return lines;
}

export function summary(results: ObjectResult[]): string {
  const counts = new Map<Action, number>();
  for (const r of results)
    counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  return (
    [...counts.entries()].map(([a, n]) => `${n} ${a}`).join(', ') ||
    'nothing to do'
  );
}

async function poll<T>(
  what: string,
  timeoutMs: number,
  pollMs: number,
  reporter: Reporter,
  check: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    const elapsed = Date.now() - start;
    if (elapsed > timeoutMs) return undefined;
    reporter.progress(`  waiting for ${what} (${Math.round(elapsed / 1000)}s)`);
    await sleep(pollMs);
  }
}

interface Resolved {
  planned: PlannedObject;
  rt: ResourceType;
}

/** Fails before anything is written when the user may not create or patch a kind the plan holds. */
async function checkAccess(
  client: KubeClient,
  items: Resolved[],
  verbs: string[],
): Promise<void> {
  const seen = new Set<string>();
  const denied: string[] = [];
  for (const { rt, planned } of items) {
    const namespace = rt.namespaced
      ? planned.object.metadata?.namespace
      : undefined;
    for (const verb of verbs) {
      const key = `${verb} ${rt.plural}.${rt.group} ${namespace ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const review = await client.request<{ status?: { allowed?: boolean } }>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: {
              group: rt.group,
              resource: rt.plural,
              verb,
              namespace,
            },
          },
        },
      });
      if (!review.status?.allowed)
        denied.push(
          `${verb} ${rt.plural}${rt.group ? `.${rt.group}` : ''}${
            namespace ? ` in ${namespace}` : ''
          }`,
        );
    }
  }
  if (denied.length > 0) {
    throw new CliError(
      'no permission',
      `you may not ${denied.slice(0, 4).join('; ')}${
        denied.length > 4 ? ` (and ${denied.length - 4} more)` : ''
      }: ask a cluster admin (installing Runway needs cluster-admin); nothing was applied`,
    );
  }
}

/**
 * A server-side dry run of every object before the first write, so a
 * conflict or an invalid object stops the install with nothing applied.
 * Objects in a namespace that does not exist yet are checked when applied.
 */
async function preflight(
  client: KubeClient,
  items: Resolved[],
  options: ApplyOptions,
): Promise<void> {
  for (const { planned, rt } of items) {
    try {
      await client.apply(rt, planned.object, {
        fieldManager: FIELD_MANAGER,
        force: options.forceConflicts,
        dryRun: true,
      });
    } catch (err) {
      if (isNotFound(err)) continue;
      const explained = explainKubeError(
        err,
        `apply ${describeObject(planned.object)}`,
        client.server,
      );
      throw new CliError(
        explained.cause,
        `${explained.message.slice(
          explained.cause.length + 2,
        )}; nothing was applied`,
      );
    }
  }
}

export async function resolveAll(
  client: KubeClient,
  plan: PlannedObject[],
): Promise<Resolved[]> {
  const out: Resolved[] = [];
  for (const planned of plan) {
    try {
      out.push({
        planned,
        rt: await client.resolve(
          planned.object.apiVersion!,
          planned.object.kind!,
        ),
      });
    } catch (err) {
      if (err instanceof Error && /does not serve kind/.test(err.message)) {
        throw new CliError(
          'bad input',
          `${describeObject(planned.object)}: ${err.message}`,
        );
      }
      throw explainKubeError(
        err,
        `look up ${planned.object.kind}`,
        client.server,
      );
    }
  }
  return out;
}

/**
 * Applies `plan` in phase order and returns what happened to each object.
 * Throws a CliError with a named cause; webhook configurations are applied
 * only once their Service has a ready endpoint, and removed again when they
 * do not answer.
 */
export async function applyPlan(
  client: KubeClient,
  plan: PlannedObject[],
  options: ApplyOptions,
  reporter: Reporter,
): Promise<ObjectResult[]> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const pollMs = options.pollMs ?? 1000;
  const dryRun = options.dryRun ?? false;
  try {
    await serverVersion(client);
  } catch (err) {
    throw explainKubeError(err, 'read /version', client.server);
  }
  const resolved = await resolveAll(client, plan);
  await checkAccess(client, resolved, ['create', 'patch']);
  if (!dryRun) await preflight(client, resolved, options);

  const results: ObjectResult[] = [];
  const applyOne = async ({ planned, rt }: Resolved) => {
    const key = {
      namespace: rt.namespaced ? planned.object.metadata?.namespace : undefined,
      name: planned.object.metadata!.name!,
    };
    const what = `apply ${describeObject(planned.object)}`;
    try {
      const before = await getOrUndefined(client, rt, key);
      const after = await client.apply(rt, planned.object, {
        fieldManager: FIELD_MANAGER,
        force: options.forceConflicts,
        dryRun,
      });
      results.push({
        object: describeObject(planned.object),
        action: actionOf(before, after),
        phase: planned.phase,
      });
    } catch (err) {
      // A dry run into a namespace that does not exist yet: it would be created first.
      if (dryRun && isNotFound(err) && planned.phase !== 'namespace') {
        results.push({
          object: describeObject(planned.object),
          action: 'created',
          phase: planned.phase,
        });
        return;
      }
      throw explainKubeError(err, what, client.server);
    }
  };

  for (const phase of ['namespace', 'crd', 'workload'] as const) {
    const items = resolved.filter(r => r.planned.phase === phase);
    for (const item of items) await applyOne(item);
    if (phase === 'crd' && !dryRun) {
      for (const { planned } of items) {
        const name = planned.object.metadata!.name!;
        const ok = await poll(
          `CRD ${name} to be Established`,
          timeoutMs,
          pollMs,
          reporter,
          async () =>
            crdEstablished(
              await getOrUndefined<CrdObject>(
                client,
                CustomResourceDefinitions,
                { name },
              ),
            )
              ? true
              : undefined,
        );
        if (!ok)
          throw new CliError(
            'crd not established',
            `CRD ${name} is not Established after ${
              timeoutMs / 1000
            }s: kubectl describe crd ${name}`,
          );
      }
    }
  }

  const webhooks = resolved.filter(r => r.planned.phase === 'webhook');
  if (webhooks.length > 0)
    await applyWebhooks(
      client,
      webhooks,
      { ...options, timeoutMs, pollMs, dryRun },
      reporter,
      results,
      applyOne,
    );

  if (options.wait && !dryRun)
    await waitReady(client, plan, { ...options, timeoutMs, pollMs }, reporter);
  return results;
}

async function applyWebhooks(
  client: KubeClient,
  webhooks: Resolved[],
  options: ApplyOptions & {
    timeoutMs: number;
    pollMs: number;
    dryRun: boolean;
  },
  reporter: Reporter,
  results: ObjectResult[],
  applyOne: (r: Resolved) => Promise<void>,
): Promise<void> {
  const services = new Map<string, { namespace: string; name: string }>();
  for (const { planned } of webhooks) {
    for (const svc of webhookServices(planned.object as WebhookConfigObject))
      services.set(`${svc.namespace}/${svc.name}`, svc);
  }
  if (!options.dryRun) {
    for (const [id, svc] of services) {
      const ok = await poll(
        `an endpoint of Service ${id}`,
        options.timeoutMs,
        options.pollMs,
        reporter,
        async () =>
          (await liveEndpoints(client, svc.namespace, svc.name)) > 0
            ? true
            : undefined,
      );
      if (!ok) {
        throw new CliError(
          'webhook not answering',
          `Service ${id} has no endpoint after ${
            options.timeoutMs / 1000
          }s, so its webhook configurations were not registered (they would refuse every write): check kubectl -n ${
            svc.namespace
          } get pods, then run the install again`,
        );
      }
    }
  }
  for (const item of webhooks) await applyOne(item);
  if (options.dryRun) return;
  for (const { planned, rt } of webhooks) {
    let last = '';
    const ok = await poll(
      `webhook ${planned.object.metadata?.name} to answer`,
      options.timeoutMs,
      options.pollMs,
      reporter,
      async () => {
        const probe = await probeWebhooks(
          client,
          planned.object as WebhookConfigObject,
          options.namespace,
        );
        last = probe.message;
        return probe.answered ? true : undefined;
      },
    );
    if (!ok) {
      // Never leave a webhook that points at nothing: it would refuse every write of its kinds.
      for (const w of webhooks) {
        try {
          await client.delete(w.rt, { name: w.planned.object.metadata!.name! });
        } catch (err) {
          if (!isNotFound(err))
            throw explainKubeError(
              err,
              `remove ${describeObject(w.planned.object)}`,
              client.server,
            );
        }
        const r = results.find(
          x => x.object === describeObject(w.planned.object),
        );
        if (r) r.action = 'deleted';
      }
      throw new CliError(
        'webhook not answering',
        `${rt.kind} ${
          planned.object.metadata?.name
        } does not answer (${last}); the webhook configurations were removed again so writes are not refused: check the controller behind ${[
          ...services.keys(),
        ].join(', ')} (logs, certificates)`,
      );
    }
  }
}

/** --wait: every Deployment of the plan available, every provider's registration ready. */
export async function waitReady(
  client: KubeClient,
  plan: PlannedObject[],
  options: Pick<ApplyOptions, 'providers'> & {
    timeoutMs: number;
    pollMs: number;
  },
  reporter: Reporter,
): Promise<void> {
  for (const { object } of plan.filter(p => p.object.kind === 'Deployment')) {
    const key = {
      namespace: object.metadata!.namespace!,
      name: object.metadata!.name!,
    };
    const ok = await poll(
      `Deployment ${key.namespace}/${key.name} to be available`,
      options.timeoutMs,
      options.pollMs,
      reporter,
      async () =>
        deploymentReady(
          await getOrUndefined<DeploymentObject>(client, Deployments, key),
        )
          ? true
          : undefined,
    );
    if (!ok)
      throw new CliError(
        'not ready',
        `Deployment ${key.namespace}/${key.name} is not available after ${
          options.timeoutMs / 1000
        }s: kubectl -n ${key.namespace} describe deployment ${key.name}`,
      );
    reporter.line(`  ready: Deployment ${key.namespace}/${key.name}`);
  }
  for (const name of options.providers ?? []) {
    const ok = await poll(
      `provider ${name} to report ready`,
      options.timeoutMs,
      options.pollMs,
      reporter,
      async () => {
        const ipc = await getOrUndefined<
          KubeObject & { status?: { ready?: boolean } }
        >(client, InferenceProviderConfigs, { name });
        return ipc?.status?.ready ? true : undefined;
      },
    );
    if (!ok) {
      throw new CliError(
        'not ready',
        `provider ${name} has not reported ready in InferenceProviderConfig ${name} after ${
          options.timeoutMs / 1000
        }s: runway doctor says why`,
      );
    }
    reporter.line(`  ready: provider ${name}`);
  }
}

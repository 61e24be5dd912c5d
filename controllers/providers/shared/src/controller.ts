/**
 * The reconcile loop every provider controller runs, around a
 * ProviderDefinition's pure functions. Reads come from informer caches;
 * writes are server-side applies with the provider's own field manager.
 */
import {
  Applier,
  type Controller,
  CustomResourceDefinitions,
  type EventRecorder,
  Informer,
  isConflict,
  isNotFound,
  type KubeObject,
  type Logger,
  type Manager,
  OWNER_INDEX,
  byOwnerIndexer,
  keyOf,
  ownerIndexValue,
  ownerRequests,
  parseApiVersion,
  type Request,
  type ResourceType,
  type Result,
} from '@runway-portal/controller-runtime';
import {
  DEPLOYMENTS_API_VERSION,
  DEPLOYMENTS_GROUP,
  MANAGED_BY_LABEL,
  type ModelDeployment,
  type ModelDeploymentStatus,
  RECONCILE_PAUSED_ANNOTATION,
} from '@runway-portal/plugin-runway-common';
import { Counter } from 'prom-client';
import {
  crdName,
  crdNotInstalledMessage,
  detectApiVersion,
  schemaHash,
} from './crdVersion';
import { type ProviderDefinition, TransformError } from './definition';
import { desiredObjects, MANAGED_BY_VALUE } from './desired';
import { applyDecision } from './drift';
import { checkProviderInput } from './plan';
import { Registration } from './registration';
import { ModelDeployments } from './resources';
import {
  applyFailedStatus,
  applyFailure,
  deployedStatus,
  incompatibleStatus,
  notCreatedStatus,
  providerNeedsWork,
  type StatusContext,
  statusUpToDate,
} from './status';

/** @public */
export interface ProviderControllerOptions {
  /** How long deletion waits for the upstream resource before removing the finalizer anyway; default 5 min. */
  finalizerTimeoutMs?: number;
  /** How often the registration's lastHeartbeat is renewed; default 1 min. */
  heartbeatIntervalMs?: number;
  maxConcurrentReconciles?: number;
  /** Clock (tests). */
  now?: () => Date;
}

/** @public */
export const DEFAULT_FINALIZER_TIMEOUT_MS = 5 * 60_000;
/** @public */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 60_000;
/**
 * Parallel reconciles, twice the core's 16: a provider's first reconcile waits
 * on up to five writes in a row (llm-d: finalizer, upstream resource, helpers,
 * RoleBindings, status) where the core's waits on two, and with 16 llm-d fell
 * 30 s behind the core during a burst of 1,000 deployments.
 */
export const DEFAULT_PROVIDER_WORKERS = 32;

/** The field manager of a provider's writes (status fields of seed 001's ownership table). @public */
export function providerFieldManager(name: string): string {
  return `airunway-provider-${name}`;
}

/** The finalizer a provider puts on its deployments. @public */
export function providerFinalizer(name: string): string {
  return `airunway.ai/provider-${name}`;
}

/** Extra kinds are watched only where they carry the managed-by label: never every ConfigMap of the cluster. */
const MANAGED_SELECTOR = {
  labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`,
};

/** The same metric the core reports its failures in (seed 000 §9). */
export const RECONCILIATION_ERRORS = 'airunway_reconciliation_errors_total';

const FINALIZER_TIMEOUT_MESSAGE =
  'Finalizer removed after timeout, provider resource may be orphaned';

/** Wires a provider into a Manager: call `setup()` before `mgr.start()`. @public */
export class ProviderController {
  readonly fieldManager: string;
  readonly finalizer: string;
  private readonly applier: Applier;
  private readonly events: EventRecorder;
  private readonly logger: Logger;
  private readonly registration: Registration;
  private readonly mdInformer: Informer<KubeObject>;
  private readonly crdInformer: Informer<KubeObject>;
  private readonly timeoutMs: number;
  private readonly now: () => Date;
  private controller?: Controller;
  private apiVersion?: string;
  private schemaHash?: string;
  private upstreamRelease?: string;
  private upstream?: { informer: Informer<KubeObject>; rt: ResourceType };
  /** Seed 000 §9's error counter, in the manager's registry (scraped with controller-runtime's). */
  readonly errors: Counter<'provider' | 'error_type'>;

  constructor(
    private readonly mgr: Manager,
    private readonly definition: ProviderDefinition,
    private readonly options: ProviderControllerOptions = {},
  ) {
    this.fieldManager = providerFieldManager(definition.name);
    this.finalizer = providerFinalizer(definition.name);
    this.applier = mgr.applier(this.fieldManager);
    this.events = mgr.eventRecorder(`${definition.name}-provider`);
    this.logger = mgr.logger.child({ provider: definition.name });
    this.timeoutMs = options.finalizerTimeoutMs ?? DEFAULT_FINALIZER_TIMEOUT_MS;
    this.now = options.now ?? (() => new Date());
    this.registration = new Registration(
      mgr.client,
      definition,
      this.fieldManager,
      this.logger,
      {
        intervalMs:
          options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
        now: this.now,
      },
    );
    const registry = mgr.metrics.registry;
    this.errors =
      (registry.getSingleMetric(RECONCILIATION_ERRORS) as
        | Counter<'provider' | 'error_type'>
        | undefined) ??
      new Counter({
        name: RECONCILIATION_ERRORS,
        help: 'Failed provider reconciles, by provider and error type (ApplyFailed: the API server did not take an upstream object)',
        labelNames: ['provider', 'error_type'] as const,
        registers: [registry],
      });
    this.mdInformer = mgr.informers.informerFor(ModelDeployments);
    this.crdInformer = mgr.informers.informerFor(CustomResourceDefinitions, {
      fieldSelector: `metadata.name=${crdName(definition.upstream)}`,
    });
  }

  /** The upstream apiVersion in use, once its CRD is installed. */
  upstreamApiVersion(): string | undefined {
    return this.apiVersion;
  }

  setup(): void {
    const relevant = (obj: KubeObject) =>
      this.isMine(obj) || this.hasFinalizer(obj);
    let builder = this.mgr
      .controller()
      .named(`${this.definition.name}-provider`)
      .for(ModelDeployments, {
        predicates: [
          {
            create: relevant,
            update: (old, obj) => relevant(old) || relevant(obj),
            delete: () => false,
          },
        ],
      })
      .replayFirst(providerNeedsWork)
      .withOptions({
        maxConcurrentReconciles:
          this.options.maxConcurrentReconciles ??
          this.definition.maxConcurrentReconciles ??
          DEFAULT_PROVIDER_WORKERS,
      });
    for (const rt of this.definition.extraKinds ?? [])
      builder = builder.owns(rt, { selector: MANAGED_SELECTOR });
    this.controller = builder.complete((req, ctx) =>
      this.reconcile(req, ctx.logger),
    );

    const onCrd = () => this.onCrdChange();
    this.crdInformer.addEventHandler({
      add: onCrd,
      update: onCrd,
      delete: onCrd,
    });
    void this.registration.start();
    this.mgr.addReadyCheck('provider-registered', () =>
      this.registration.registered(),
    );
  }

  /** Stops the heartbeat and the upstream informer (the manager stops everything else). */
  async stop(): Promise<void> {
    this.registration.stop();
    await this.upstream?.informer.stop();
  }

  // ---- upstream CRD -----------------------------------------------------------

  private onCrdChange(): void {
    const crd = this.crdInformer.store.list()[0];
    const detected = detectApiVersion(this.definition.upstream, crd);
    const hash = detected ? schemaHash(crd, detected) : undefined;
    this.upstreamRelease =
      detected && crd ? this.definition.upstreamRelease?.(crd) : undefined;
    if (detected === this.apiVersion) {
      // Same version, maybe a new schema: report it.
      if (hash !== this.schemaHash)
        this.registration.setUpstreamVersion(detected, hash);
      this.schemaHash = hash;
      return;
    }
    this.schemaHash = hash;
    this.logger.info('upstream CRD version changed', {
      from: this.apiVersion ?? 'none',
      to: detected ?? 'none',
    });
    if (!detected)
      this.logger.warn(crdNotInstalledMessage(this.definition.name));
    this.apiVersion = detected;
    void this.upstream?.informer.stop();
    this.upstream = undefined;
    if (detected) {
      const { group, version } = parseApiVersion(detected);
      const { kind, plural } = this.definition.upstream;
      const rt: ResourceType = {
        group,
        version,
        kind,
        plural,
        namespaced: true,
      };
      const informer = new Informer<KubeObject>(this.mgr.client, rt, {
        logger: this.logger,
      });
      informer.addIndexer(OWNER_INDEX, byOwnerIndexer);
      const enqueue = (obj: KubeObject) => {
        for (const r of ownerRequests(obj, {
          group: DEPLOYMENTS_GROUP,
          kind: 'ModelDeployment',
        }))
          this.controller?.enqueue(r);
      };
      informer.addEventHandler({
        add: enqueue,
        update: (_o, obj) => enqueue(obj),
        delete: enqueue,
      });
      informer.start();
      this.upstream = { informer, rt };
    }
    this.registration.setUpstreamVersion(detected, hash);
    for (const md of this.mdInformer.store.list()) {
      if (this.isMine(md) || this.hasFinalizer(md)) {
        this.controller?.enqueue({
          namespace: md.metadata?.namespace,
          name: md.metadata!.name!,
        });
      }
    }
  }

  // ---- reconcile ----------------------------------------------------------------

  private isMine(obj: KubeObject): boolean {
    return (
      (obj as unknown as ModelDeployment).status?.provider?.name ===
      this.definition.name
    );
  }

  private hasFinalizer(obj: KubeObject): boolean {
    return obj.metadata?.finalizers?.includes(this.finalizer) ?? false;
  }

  /** Every object of this provider owned by the deployment, found through the owner indexes. */
  private owned(md: KubeObject): Array<{ obj: KubeObject; rt: ResourceType }> {
    const value = ownerIndexValue(
      {
        apiVersion: DEPLOYMENTS_API_VERSION,
        kind: 'ModelDeployment',
        name: md.metadata!.name!,
      },
      md.metadata?.namespace,
    );
    const found: Array<{ obj: KubeObject; rt: ResourceType }> = [];
    if (this.upstream) {
      for (const obj of this.upstream.informer.store.byIndex(
        OWNER_INDEX,
        value,
      ))
        found.push({ obj, rt: this.upstream.rt });
    }
    for (const rt of this.definition.extraKinds ?? []) {
      for (const obj of this.mgr.informers
        .informerFor(rt, MANAGED_SELECTOR)
        .store.byIndex(OWNER_INDEX, value))
        found.push({ obj, rt });
    }
    return found.filter(({ obj }) =>
      obj.metadata?.ownerReferences?.some(r => r.uid === md.metadata?.uid),
    );
  }

  private liveOf(obj: KubeObject, primary: boolean): KubeObject | undefined {
    const key = keyOf({
      namespace: obj.metadata?.namespace,
      name: obj.metadata!.name!,
    });
    if (primary) return this.upstream?.informer.store.get(key);
    const rt = (this.definition.extraKinds ?? []).find(
      k => k.kind === obj.kind,
    );
    return rt
      ? this.mgr.informers.informerFor(rt, MANAGED_SELECTOR).store.get(key)
      : undefined;
  }

  async reconcile(req: Request, logger: Logger): Promise<Result | void> {
    const cached = this.mdInformer.store.get(keyOf(req)) as unknown as
      | ModelDeployment
      | undefined;
    if (!cached) return undefined;
    const md = {
      apiVersion: DEPLOYMENTS_API_VERSION,
      kind: 'ModelDeployment',
      ...cached,
    } as ModelDeployment & KubeObject;
    if (!this.isMine(md)) {
      // Switched to another provider (or never ours): let go of what we created.
      if (this.hasFinalizer(md)) return this.cleanUp(md, logger);
      return undefined;
    }
    // Deletion wins over the pause: a paused deployment that is deleted is still cleaned up.
    if (md.metadata?.deletionTimestamp) return this.cleanUp(md, logger);
    if (md.metadata?.annotations?.[RECONCILE_PAUSED_ANNOTATION] === 'true')
      return undefined;
    if (!this.hasFinalizer(md)) await this.setFinalizer(md, true);

    const ctx: StatusContext = {
      previous: md.status?.conditions ?? [],
      now: this.now().toISOString(),
      generation: md.metadata?.generation,
    };
    // The checks the portal's preview runs too (plan.ts): one implementation, the loop's order.
    const check = checkProviderInput(this.definition, md, this.apiVersion);
    const { resolved, problem } = check;
    if (problem?.reason === 'Incompatible')
      return this.writeStatus(md, incompatibleStatus(ctx, problem.messages));
    for (const note of check.unknownOverrides)
      this.events.event(md, 'Warning', 'UnknownOverride', note);
    if (problem)
      return this.writeStatus(
        md,
        notCreatedStatus(ctx, problem.phase, problem.reason, problem.message),
      );

    // Until the upstream cache is filled, "not there" could mean "not listed yet".
    if (!this.upstream?.informer.hasSynced()) return { requeueAfterMs: 200 };

    let desired: KubeObject[];
    try {
      const transformCtx = {
        apiVersion: check.apiVersion,
        upstreamRelease: this.upstreamRelease,
      };
      const inputs = await this.definition.prepare?.(resolved, transformCtx);
      const result = desiredObjects(this.definition, md, {
        ...transformCtx,
        ...(inputs ? { inputs } : {}),
      });
      desired = result.objects;
      for (const w of result.warnings)
        this.events.event(md, 'Warning', 'TransformWarning', w);
    } catch (err) {
      if (!(err instanceof TransformError)) throw err;
      return this.writeStatus(
        md,
        notCreatedStatus(ctx, 'Failed', 'InvalidSpec', err.message),
      );
    }

    const [primary, ...helpers] = desired;
    const primaryBefore = this.liveOf(primary, true);
    const primaryLabel = `${primary.kind} '${primary.metadata!.name}'`;
    if (applyDecision(primary, primaryBefore) === 'recreate') {
      this.events.event(
        md,
        'Warning',
        'IdentityChanged',
        `Identity fields changed: deleting and recreating ${primaryLabel}`,
      );
      await this.deleteObject(this.upstream!.rt, primary);
      await this.writeStatus(
        md,
        notCreatedStatus(
          ctx,
          'Deploying',
          'Recreating',
          `Identity fields changed: recreating ${primaryLabel}`,
        ),
      );
      // The delete event of the old object brings us back; poll in case it lingers.
      return { requeueAfterMs: 2000 };
    }
    const first = await this.applyOne(md, primary, primaryBefore, logger);
    if ('failed' in first)
      return this.applyFailed(md, ctx, first.failed, primaryBefore, logger);
    const primaryLive = first.current;
    const resource = { kind: primary.kind!, name: primary.metadata!.name! };
    // One event per deployment, for its upstream resource (seed 000 §9): helpers are not the transition.
    if (first.created)
      this.events.event(
        md,
        'Normal',
        'ResourceCreated',
        `Created ${primaryLabel}`,
      );

    // Just created: say so while the helpers are applied, not after them. They can take
    // seconds (each of llm-d's Services waits in the API server's ClusterIP allocator,
    // which allocates one at a time for the whole cluster); the status after them is
    // written only if it says more.
    const announced =
      first.created && helpers.length > 0
        ? deployedStatus(
            ctx,
            resource,
            this.definition.mapStatus(resolved, primaryLive ?? primary, []),
          )
        : undefined;
    const [, applied] = await Promise.all([
      announced && this.writeStatus(md, announced),
      this.applyHelpers(md, helpers, logger),
    ]);
    const known = announced ?? md.status;
    if ('failed' in applied)
      return this.applyFailed(
        md,
        ctx,
        applied.failed,
        primaryLive,
        logger,
        known,
      );
    const extrasLive = applied.live;

    // Helpers the deployment no longer needs (e.g. a ConfigMap once its flags are gone).
    const wanted = new Set(desired.map(o => `${o.kind}/${o.metadata!.name}`));
    for (const { obj, rt } of this.owned(md)) {
      if (
        rt !== this.upstream?.rt &&
        !wanted.has(`${rt.kind}/${obj.metadata!.name}`)
      )
        await this.deleteObject(rt, obj);
    }

    const mapped = this.definition.mapStatus(
      resolved,
      primaryLive ?? primary,
      extrasLive,
    );
    const status = deployedStatus(ctx, resource, mapped);
    if (mapped.phase === 'Failed' && md.status?.phase !== 'Failed') {
      this.events.event(
        md,
        'Warning',
        'ProviderError',
        `Provider resource in error state: ${mapped.message}`,
      );
    }
    return this.writeStatus(md, status, known);
  }

  /**
   * Applies the helper objects at once (llm-d has eight), so a reconcile waits
   * two round trips, not one per object. RoleBindings last: the API server
   * checks a binding against its Role, which must exist. Returns what is live
   * afterwards, in the order of `helpers`, or the first failure.
   */
  private async applyHelpers(
    md: ModelDeployment & KubeObject,
    helpers: KubeObject[],
    logger: Logger,
  ): Promise<
    { live: KubeObject[] } | { failed: { label: string; err: unknown } }
  > {
    const live: KubeObject[] = [];
    for (const stage of [
      helpers.filter(o => o.kind !== 'RoleBinding'),
      helpers.filter(o => o.kind === 'RoleBinding'),
    ]) {
      const outcomes = await Promise.all(
        stage.map(obj =>
          this.applyOne(md, obj, this.liveOf(obj, false), logger),
        ),
      );
      for (const [i, outcome] of outcomes.entries()) {
        if ('failed' in outcome) return outcome;
        live[helpers.indexOf(stage[i])] = outcome.current ?? stage[i];
      }
    }
    return { live };
  }

  /**
   * Applies one desired object unless the live one already has it. Returns
   * what is live afterwards, or the failure (the caller reports it).
   */
  private async applyOne(
    md: ModelDeployment & KubeObject,
    obj: KubeObject,
    live: KubeObject | undefined,
    logger: Logger,
  ): Promise<
    | { current: KubeObject | undefined; created: boolean }
    | { failed: { label: string; err: unknown } }
  > {
    const decision = applyDecision(obj, live);
    const label = `${obj.kind} '${obj.metadata!.name}'`;
    if (decision === 'none') return { current: live, created: false };
    if (decision === 'drift') {
      this.events.event(
        md,
        'Warning',
        'DriftDetected',
        `Provider resource was modified directly, reconciling ${label}`,
      );
    }
    try {
      const current = await this.applier.apply(obj, { force: true });
      logger.debug('applied', { object: label, decision });
      return { current, created: decision === 'create' };
    } catch (err) {
      return { failed: { label, err } };
    }
  }

  /**
   * An apply the API server did not take: say so in the status, retry with
   * backoff, delete nothing. `known` is the provider's status as last written
   * (by default the cached one).
   */
  private async applyFailed(
    md: ModelDeployment & KubeObject,
    ctx: StatusContext,
    { label, err }: { label: string; err: unknown },
    upstream: KubeObject | undefined,
    logger: Logger,
    known: ModelDeploymentStatus | undefined = md.status,
  ): Promise<Result> {
    const upstreamExists = upstream !== undefined;
    const failure = applyFailure(label, err, upstreamExists);
    // Handled (reported in the status and retried), so controller-runtime's error count never sees it.
    this.errors.inc({
      provider: this.definition.name,
      error_type: 'ApplyFailed',
    });
    logger.warn('apply failed', { object: label, error: err });
    if (known?.message !== failure.message)
      this.events.event(md, 'Warning', 'ProviderError', failure.message);
    await this.writeStatus(
      md,
      applyFailedStatus(ctx, failure, known, upstreamExists),
      known,
    );
    return { requeue: true };
  }

  /** Writes the provider's status unless `live` (by default the cached one) already shows it. */
  private async writeStatus(
    md: ModelDeployment & KubeObject,
    status: ModelDeploymentStatus,
    live: ModelDeploymentStatus | undefined = md.status,
  ): Promise<void> {
    if (statusUpToDate(status, live)) return;
    await this.applier.applyStatus({
      apiVersion: DEPLOYMENTS_API_VERSION,
      kind: 'ModelDeployment',
      metadata: { name: md.metadata!.name, namespace: md.metadata!.namespace },
      status,
    });
  }

  private async setFinalizer(md: KubeObject, present: boolean): Promise<void> {
    try {
      // The client directly, not the Applier: the Applier strips the uid, which here
      // makes the apply fail instead of creating a new object when this one is gone.
      await this.mgr.client.apply(
        ModelDeployments,
        {
          apiVersion: DEPLOYMENTS_API_VERSION,
          kind: 'ModelDeployment',
          metadata: {
            name: md.metadata!.name,
            namespace: md.metadata!.namespace,
            uid: md.metadata!.uid,
            ...(present ? { finalizers: [this.finalizer] } : {}),
          },
        },
        { fieldManager: this.fieldManager },
      );
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  private async deleteObject(rt: ResourceType, obj: KubeObject): Promise<void> {
    try {
      await this.mgr.client.delete(
        rt,
        { namespace: obj.metadata?.namespace, name: obj.metadata!.name! },
        { propagationPolicy: 'Background' },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * Deletion (or a switch to another provider): delete what we created and
   * drop the finalizer once it is gone, or after the timeout with a warning.
   */
  private async cleanUp(
    md: ModelDeployment & KubeObject,
    logger: Logger,
  ): Promise<Result | void> {
    const owned = this.owned(md);
    if (owned.length === 0) {
      await this.setFinalizer(md, false);
      return undefined;
    }
    for (const { obj, rt } of owned) {
      if (!obj.metadata?.deletionTimestamp) await this.deleteObject(rt, obj);
    }
    const since =
      Date.parse(md.metadata?.deletionTimestamp ?? '') || this.cleanupStart(md);
    const elapsed = this.now().getTime() - since;
    if (elapsed >= this.timeoutMs) {
      logger.warn('finalizer timeout: provider resources may be orphaned', {
        resources: owned.map(o => `${o.obj.kind}/${o.obj.metadata?.name}`),
      });
      this.events.event(
        md,
        'Warning',
        'FinalizerTimeout',
        FINALIZER_TIMEOUT_MESSAGE,
      );
      await this.setFinalizer(md, false);
      return undefined;
    }
    return {
      requeueAfterMs: Math.max(100, Math.min(this.timeoutMs - elapsed, 5_000)),
    };
  }

  private readonly cleanupStarts = new Map<string, number>();

  /** When a provider switch started cleaning up (there is no deletionTimestamp then). */
  private cleanupStart(md: KubeObject): number {
    const uid = md.metadata!.uid!;
    const start = this.cleanupStarts.get(uid) ?? this.now().getTime();
    this.cleanupStarts.set(uid, start);
    return start;
  }
}

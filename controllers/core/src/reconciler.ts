/**
 * The core controller: a thin loop around `decide`. It reads the
 * ModelDeployment and the InferenceProviderConfigs from shared caches, looks
 * up the token Secret (existence only), runs the gateway step (`GatewayStep`:
 * InferencePool, endpoint picker, HTTPRoute), and writes what `decide`
 * returns with the core's own field manager.
 */
import {
  annotationsChanged,
  generationChanged,
  keyOf,
  labelsChanged,
  type Manager,
  or,
  type KubeObject,
  type Predicate,
  type Reconciler,
  type ResourceType,
  secretExists,
} from '@runway-portal/controller-runtime';
import {
  type InferenceProviderConfig as ProviderConfig,
  MODEL_DEPLOYMENTS_RESOURCE,
  type ModelDeployment as Deployment,
  PROVIDER_CONFIGS_RESOURCE,
  selectDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  CORE_FIELD_MANAGER,
  type CoreStatus,
  decide,
  type GatewayResult,
  isPaused,
  OBSERVED_IDENTITY_ANNOTATION,
  PROVIDER_LABEL,
} from './decide';
import {
  decideDeletion,
  DEFAULT_FINALIZER_TIMEOUT_MS,
  DeletionStep,
} from './deletion';
import {
  DEFAULT_HEARTBEAT_TIMEOUT_MS,
  heartbeatStale,
  withStaleProvidersUnready,
} from './liveness';
import { GATEWAY_RECHECK_MS, GatewayStep } from './gateway';
import { fingerprint } from './fingerprint';
import { GatewayCrdCheck, GatewayList } from './lookups';
import { CoreMetrics } from './metrics';

/** The generated types, as objects the runtime's caches hold. */
type ModelDeployment = Deployment & KubeObject;
type InferenceProviderConfig = ProviderConfig & KubeObject;

// Where the kinds are served: runway-common's, from the CRD definitions.
export const ModelDeployments: ResourceType = MODEL_DEPLOYMENTS_RESOURCE;
export const InferenceProviderConfigs: ResourceType = PROVIDER_CONFIGS_RESOURCE;

export interface CoreControllerOptions {
  /** Parallel reconciles; default 16 (each mostly waits on the API server). */
  maxConcurrentReconciles?: number;
  /** How long the gateway CRD lookup is cached; default 30 s. */
  gatewayCheckTtlMs?: number;
  /** The Gateway to route through (--gateway-name/--gateway-namespace); unset: the labelled, else the only one. */
  explicitGateway?: { name: string; namespace: string };
  /** Look up the token Secret for SecretNotFound (--check-secrets); default true. false: no Secret is ever read. */
  checkSecrets?: boolean;
  /** How long a deletion waits for a provider that is not running (--finalizer-timeout); default 5 min. */
  finalizerTimeoutMs?: number;
  /** A provider whose heartbeat is older counts as not running (--provider-heartbeat-timeout); default 3 min. */
  providerHeartbeatTimeoutMs?: number;
}

/** Whether the live status already shows every field the core wants, and nothing it would release. */
export function coreStatusUpToDate(
  desired: CoreStatus,
  live: ModelDeployment['status'],
): boolean {
  const same = (a: unknown, b: unknown) =>
    JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (
    !same(
      desired.engine,
      live?.engine && {
        type: live.engine.type,
        selectedReason: live.engine.selectedReason,
      },
    )
  )
    return false;
  const liveProvider = live?.provider?.name
    ? { name: live.provider.name, selectedReason: live.provider.selectedReason }
    : undefined;
  if (!same(desired.provider, liveProvider)) return false;
  if (
    desired.phase &&
    (desired.phase !== live?.phase || desired.message !== live?.message)
  )
    return false;
  if (desired.observedGeneration !== live?.observedGeneration) return false;
  const gateway = (g: CoreStatus['gateway']) =>
    g && [
      g.endpoint,
      g.modelName,
      g.gatewayNamespace,
      (g.apiFormats ?? []).join(','),
    ];
  if (!same(gateway(desired.gateway), gateway(live?.gateway))) return false;
  const liveConditions = live?.conditions ?? [];
  return desired.conditions.every(want =>
    same(
      want,
      liveConditions.find(c => c.type === want.type),
    ),
  );
}

function metadataUpToDate(
  md: ModelDeployment,
  labels: Record<string, string>,
  annotations: Record<string, string>,
): boolean {
  const liveLabels = md.metadata?.labels ?? {};
  const liveAnnotations = md.metadata?.annotations ?? {};
  return (
    liveLabels[PROVIDER_LABEL] === labels[PROVIDER_LABEL] &&
    liveAnnotations[OBSERVED_IDENTITY_ANNOTATION] ===
      annotations[OBSERVED_IDENTITY_ANNOTATION]
  );
}

/** The provider reporting (or moving) the model's Service: the gateway step waits for it. */
const endpointChanged: Predicate<ModelDeployment> = {
  update: (old, obj) =>
    JSON.stringify(old.status?.endpoint ?? null) !==
    JSON.stringify(obj.status?.endpoint ?? null),
};

/**
 * The model server now runs, so its Service is there by now: the gateway step looks
 * again at once instead of at its next recheck (GATEWAY_RECHECK_MS) when it had not
 * found the Service yet.
 */
const becameRunning: Predicate<ModelDeployment> = {
  update: (old, obj) =>
    old.status?.phase !== 'Running' && obj.status?.phase === 'Running',
};

/** Keeps what the deployment shows when the gateway step could not run (the core would otherwise drop it). */
function liveGatewayResult(md: ModelDeployment): GatewayResult {
  const c = md.status?.conditions?.find(x => x.type === 'GatewayReady');
  return {
    outcome: c && {
      status: c.status === 'True' ? 'True' : 'False',
      reason: c.reason as never,
      message: c.message ?? '',
    },
    status: md.status?.gateway,
  };
}

/** Every change of a deployment being deleted (finalizers coming off) is looked at. */
const deleting: Predicate<ModelDeployment> = {
  update: (_old, obj) => Boolean(obj.metadata?.deletionTimestamp),
};

/**
 * Provider changes that can alter a selection or validation: spec edits, readiness and the upstream CRD,
 * and a heartbeat that resumes after it had turned stale; not ordinary heartbeats.
 */
const providerSelectionChanged = (
  heartbeatTimeoutMs: number,
): Predicate<InferenceProviderConfig> => ({
  update: (old, obj) =>
    old.metadata?.generation !== obj.metadata?.generation ||
    old.status?.ready !== obj.status?.ready ||
    old.status?.upstreamCRDVersion !== obj.status?.upstreamCRDVersion ||
    heartbeatStale(old, Date.now(), heartbeatTimeoutMs) !==
      heartbeatStale(obj, Date.now(), heartbeatTimeoutMs),
});

export function registerCoreController(
  mgr: Manager,
  options: CoreControllerOptions = {},
) {
  const deployments =
    mgr.informers.informerFor<ModelDeployment>(ModelDeployments);
  const providers = mgr.informers.informerFor<InferenceProviderConfig>(
    InferenceProviderConfigs,
  );
  const applier = mgr.applier(CORE_FIELD_MANAGER);
  const events = mgr.eventRecorder(CORE_FIELD_MANAGER);
  const gatewayStep = new GatewayStep(
    mgr.client,
    applier,
    new GatewayCrdCheck(mgr.client, options.gatewayCheckTtlMs),
    new GatewayList(mgr.client),
    { explicitGateway: options.explicitGateway },
  );
  const metrics = new CoreMetrics(mgr.metrics.registry, () =>
    deployments.store.list(),
  );
  const deletion = new DeletionStep(
    mgr.client,
    ModelDeployments,
    CORE_FIELD_MANAGER,
    events,
    mgr.logger,
  );
  const heartbeatTimeoutMs =
    options.providerHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
  // What this process applied last per key (a digest): a status it released (phase) is written again only when needed.
  const lastApplied = new Map<string, string>();

  const reconcile: Reconciler = async request => {
    const key = keyOf(request);
    const md = deployments.store.get(key);
    if (!md) {
      lastApplied.delete(key);
      gatewayStep.forget(key);
      return {};
    }
    const started = process.hrtime.bigint();
    let providerLabel = md.status?.provider?.name ?? 'none';
    try {
      const namespace = md.metadata?.namespace ?? 'default';
      const secretName =
        options.checkSecrets === false
          ? undefined
          : md.spec?.secrets?.huggingFaceToken;
      const registered = providers.store.list();
      // Deleting (paused or not): Terminating, and the finalizer of a provider that is not running removed after the timeout.
      const deleted = decideDeletion({
        md,
        providers: registered,
        now: Date.now(),
        finalizerTimeoutMs:
          options.finalizerTimeoutMs ?? DEFAULT_FINALIZER_TIMEOUT_MS,
        heartbeatTimeoutMs,
      });
      if (deleted) {
        await deletion.run(md, deleted);
        return deleted.requeueAfterMs === undefined
          ? {}
          : { requeueAfterMs: deleted.requeueAfterMs };
      }
      // A provider whose controller stopped beating is not ready for selection.
      const selectable = withStaleProvidersUnready(
        registered,
        Date.now(),
        heartbeatTimeoutMs,
      );
      const selection = selectDeployment(md, selectable);
      // Deleting: garbage collection removes the gateway objects with the deployment. Paused: nothing is written.
      let gateway: { result: GatewayResult; requeueAfterMs?: number } = {
        result: {},
      };
      if (!md.metadata?.deletionTimestamp && !isPaused(md)) {
        try {
          // The provider this reconcile hands the deployment to: on its first reconcile the status
          // does not name one yet, and GatewayReady would wait "for a provider to be selected"
          // beside ProviderSelected=True (and take one more status write to catch up).
          const handedTo = selection.handedTo ?? md.status?.provider;
          const provider = registered.find(
            p => p.metadata?.name === handedTo?.name,
          );
          gateway = await gatewayStep.run(
            key,
            handedTo?.name === md.status?.provider?.name
              ? md
              : { ...md, status: { ...md.status, provider: handedTo } },
            provider,
          );
        } catch (err) {
          // A failed lookup must not hold back selection: keep what the deployment shows and look again.
          metrics.reconcileErrors.inc({
            provider: providerLabel,
            error_type: 'gateway',
          });
          mgr.logger.warn(
            'gateway step failed; keeping GatewayReady as it is',
            { key, error: (err as Error)?.message ?? String(err) },
          );
          gateway = {
            result: liveGatewayResult(md),
            requeueAfterMs: GATEWAY_RECHECK_MS,
          };
        }
      }
      const failed = gateway.result.outcome?.reason;
      if (
        failed === 'InferencePoolFailed' ||
        failed === 'EPPFailed' ||
        failed === 'HTTPRouteFailed'
      ) {
        metrics.reconcileErrors.inc({
          provider: providerLabel,
          error_type: failed,
        });
      }
      const decision = decide({
        md,
        providers: selectable,
        selection,
        secretExists: secretName
          ? await secretExists(mgr.client, namespace, secretName, 'the core')
          : undefined,
        gateway: gateway.result,
        now: new Date().toISOString(),
      });
      if (decision.action === 'skip') return {};
      providerLabel = decision.status.provider?.name ?? 'none';

      const identity = { name: md.metadata!.name, namespace };
      // Before the status: a provider acts once the status names it, and then it must
      // already see the provider label it propagates, or it applies every object twice.
      // (This reconcile, re-triggered by the label, reads the status it wrote from the
      // cache: informers read their own writes.)
      if (!metadataUpToDate(md, decision.labels, decision.annotations)) {
        await applier.apply(
          {
            apiVersion: md.apiVersion,
            kind: md.kind,
            metadata: {
              ...identity,
              labels: decision.labels,
              annotations: decision.annotations,
            },
          },
          // The core is the authority for this label and annotation, even if a user set them by hand.
          { force: true },
        );
      }
      const statusDigest = fingerprint(decision.status);
      if (
        lastApplied.get(key) !== statusDigest ||
        !coreStatusUpToDate(decision.status, md.status)
      ) {
        await applier.applyStatus(
          {
            apiVersion: md.apiVersion,
            kind: md.kind,
            metadata: identity,
            status: decision.status,
          },
          // Force: phase/message are shared with the provider, which owns them once it acts.
          { force: true },
        );
        lastApplied.set(key, statusDigest);
      }
      for (const e of decision.events) {
        events.event(md, e.type, e.reason, e.message);
        if (e.reason === 'ProviderSelected' && decision.status.provider) {
          metrics.providerSelection.inc({
            provider: decision.status.provider.name,
            reason: decision.status.provider.selectedReason,
          });
        }
      }
      const requeues = [decision.requeueAfterMs, gateway.requeueAfterMs].filter(
        (ms): ms is number => ms !== undefined,
      );
      return requeues.length > 0
        ? { requeueAfterMs: Math.min(...requeues) }
        : {};
    } catch (err) {
      metrics.reconcileErrors.inc({
        provider: providerLabel,
        error_type: (err as Error)?.name ?? 'Error',
      });
      throw err;
    } finally {
      metrics.reconcileDuration.observe(
        { provider: providerLabel },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
  };

  const controller = mgr
    .controller()
    .named('modeldeployment-core')
    .for<ModelDeployment>(ModelDeployments, {
      predicates: [
        or(
          generationChanged,
          annotationsChanged,
          labelsChanged,
          endpointChanged,
          becameRunning,
          deleting,
        ),
      ],
    })
    .watches<InferenceProviderConfig>(
      InferenceProviderConfigs,
      () =>
        deployments.store.list().map(md => ({
          namespace: md.metadata?.namespace,
          name: md.metadata!.name!,
        })),
      {
        predicates: [providerSelectionChanged(heartbeatTimeoutMs)],
      },
    )
    .withOptions({
      maxConcurrentReconciles: options.maxConcurrentReconciles ?? 16,
    })
    .complete(reconcile);
  return { controller, deployments, providers, metrics };
}

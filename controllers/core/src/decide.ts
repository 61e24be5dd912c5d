/**
 * What the core controller decides for one ModelDeployment: a pure function
 * of the object, the registered InferenceProviderConfig objects, whether
 * the token Secret exists, and the outcome of the gateway step (planned by
 * runway-common's `planGateway`, carried out by the reconciler). It returns the status fields the core owns
 * (seed 001/002 ownership table), the metadata it records on the object,
 * and the events to emit. The reconciler only reads, calls this, and writes.
 */
import {
  CONDITION_TYPES,
  type Condition,
  type DeploymentSelection,
  DEPLOYMENTS_GROUP,
  type EngineType,
  engineSelectedCondition,
  type GatewayOutcome,
  type GatewayReadyReason,
  gatewayReadyCondition,
  type GatewayStatus,
  type Identity,
  IDENTITY_FIELDS,
  type IdentityField,
  OBSERVED_IDENTITY_ANNOTATION,
  type InferenceProviderConfig,
  type ModelDeployment,
  providerSelectedCondition,
  RECONCILE_PAUSED_ANNOTATION,
  selectDeployment,
  validatedCondition,
} from '@runway-portal/plugin-runway-common';

// The identity bookkeeping is part of runway-common's selection pipeline (the preview runs it too).
export {
  OBSERVED_IDENTITY_ANNOTATION,
  parseIdentity,
  type Identity,
  type IdentityField,
} from '@runway-portal/plugin-runway-common';

/** The core's field manager (seed 001: "Core controller" rows). */
export const CORE_FIELD_MANAGER = 'airunway-core';
/** The selected provider, as a label: providers can watch only their deployments with a label selector. */
export const PROVIDER_LABEL = `${DEPLOYMENTS_GROUP}/provider`;
/** How often a missing Secret is looked for again (Secrets are not watched: the core may not list them). */
export const SECRET_RECHECK_MS = 30_000;

/** What the gateway step came to (the reconciler plans it with `planGateway` and applies it). */
export interface GatewayResult {
  /** GatewayReady to report; undefined: none (gateway disabled on a cluster without the CRDs). */
  outcome?: GatewayOutcome;
  /** status.gateway, only once configured (left out, server-side apply removes the core's earlier one). */
  status?: GatewayStatus;
}

export interface CoreInput {
  md: ModelDeployment;
  providers: InferenceProviderConfig[];
  /** Whether `spec.secrets.huggingFaceToken` exists; undefined when not looked up. */
  secretExists?: boolean;
  gateway: GatewayResult;
  /** RFC 3339, for conditions that change now. */
  now: string;
  /** `selectDeployment(md, providers)` when the caller computed it already (the gateway step needs its provider). */
  selection?: DeploymentSelection;
}

export interface CoreEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** The status fields the core owns: applied with CORE_FIELD_MANAGER, nothing else. */
export interface CoreStatus {
  engine?: { type: EngineType; selectedReason: string };
  provider?: { name: string; selectedReason: string };
  /** Only while the core holds back a deployment no provider has (invalid spec, no engine, no provider). */
  phase?: 'Pending';
  message?: string;
  gateway?: GatewayStatus;
  conditions: Condition[];
  observedGeneration?: number;
}

export type CoreDecision =
  | { action: 'skip'; why: 'paused' | 'deleting' }
  | {
      action: 'write';
      status: CoreStatus;
      /** Metadata the core owns on the ModelDeployment. */
      labels: Record<string, string>;
      annotations: Record<string, string>;
      events: CoreEvent[];
      identityChanges: Array<{
        field: IdentityField;
        from?: string;
        to?: string;
      }>;
      requeueAfterMs?: number;
    };

/** GatewayReady reasons that mean something is wrong (a warning event), not just "not yet". */
export const GATEWAY_FAILURES: ReadonlySet<string> =
  new Set<GatewayReadyReason>([
    'NoGateway',
    'InferencePoolFailed',
    'EPPFailed',
    'HTTPRouteFailed',
  ]);

/** Keeps a condition's lastTransitionTime when its status did not change. */
function keepTransitionTime(
  next: Condition,
  previous: Condition[] | undefined,
): Condition {
  const old = previous?.find(c => c.type === next.type);
  return old && old.status === next.status && old.lastTransitionTime
    ? { ...next, lastTransitionTime: old.lastTransitionTime }
    : next;
}

export function isPaused(md: ModelDeployment): boolean {
  return md.metadata?.annotations?.[RECONCILE_PAUSED_ANNOTATION] === 'true';
}

function falseCondition(
  type: string,
  reason: string,
  message: string,
  context: { observedGeneration?: number; lastTransitionTime: string },
): Condition {
  return {
    type,
    status: 'False',
    reason,
    message,
    lastTransitionTime: context.lastTransitionTime,
    ...(context.observedGeneration === undefined
      ? {}
      : { observedGeneration: context.observedGeneration }),
  };
}

/**
 * Decides the core's status for `input.md`. Selection is pinned once made:
 * an auto-selected engine or provider is kept until an identity field
 * (seed 000 §4.11) changes, which also emits a warning event, because the
 * provider then deletes and recreates its resource.
 */
export function decide(input: CoreInput): CoreDecision {
  const { md, providers, now } = input;
  if (md.metadata?.deletionTimestamp)
    return { action: 'skip', why: 'deleting' };
  if (isPaused(md)) return { action: 'skip', why: 'paused' };

  const generation = md.metadata?.generation;
  const context = { observedGeneration: generation, lastTransitionTime: now };
  const previous = md.status?.conditions;
  const events: CoreEvent[] = [];
  const conditions: Condition[] = [];
  const add = (c: Condition | undefined) =>
    c && conditions.push(keepTransitionTime(c, previous));

  // Defaults, engine and provider: runway-common's pipeline, the same one the portal's preview shows.
  const selection = input.selection ?? selectDeployment(md, providers);
  const {
    validation,
    engine,
    provider,
    identity: currentIdentity,
    recordedIdentity: recorded,
    identityMoved,
  } = selection;
  add(validatedCondition(validation, context));

  const status: CoreStatus = {
    conditions,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  const blockers: string[] = [];
  if (!validation.valid)
    blockers.push(`Validation failed: ${conditions[0].message}`);
  add(engineSelectedCondition(engine, context));
  if (engine.ok)
    status.engine = { type: engine.engine, selectedReason: engine.reason };
  else blockers.push(engine.reason);

  if (!provider) {
    add(
      falseCondition(
        CONDITION_TYPES.ProviderSelected,
        'EngineNotSelected',
        'No provider selected: the engine could not be resolved (see EngineSelected)',
        context,
      ),
    );
  } else if (!provider.ok) {
    add(providerSelectedCondition(provider, context));
    blockers.push(provider.reason);
  } else if (selection.heldBack === 'ValidationFailed') {
    add(
      falseCondition(
        CONDITION_TYPES.ProviderSelected,
        'ValidationFailed',
        'No provider selected: the spec is not valid (see Validated)',
        context,
      ),
    );
  } else {
    add(providerSelectedCondition(provider, context));
    status.provider = selection.handedTo;
  }
  if (input.gateway.outcome)
    add(gatewayReadyCondition(input.gateway.outcome, context));
  if (input.gateway.status) status.gateway = input.gateway.status;

  // Phase and message belong to the provider once it has the deployment (seed 001): the core
  // writes them only while no provider does, so the two never fight over them.
  if (blockers.length > 0 && !status.provider) {
    status.phase = 'Pending';
    status.message = blockers.join('; ');
  }

  // Events: a new provider choice, identity changes, a missing Secret.
  // Compared as resolved: an auto-selected engine or provider counts as the old value.
  const resolvedBefore: Identity = {
    ...recorded,
    'engine.type': recorded?.['engine.type'] ?? md.status?.engine?.type,
    'provider.name': recorded?.['provider.name'] ?? md.status?.provider?.name,
  };
  const resolvedAfter: Identity = {
    ...currentIdentity,
    'engine.type': status.engine?.type,
    'provider.name': status.provider?.name,
  };
  const identityChanges = identityMoved
    ? IDENTITY_FIELDS.filter(
        f => (resolvedBefore[f] ?? '') !== (resolvedAfter[f] ?? ''),
      ).map(field => ({
        field,
        from: resolvedBefore[field],
        to: resolvedAfter[field],
      }))
    : [];
  if (identityChanges.length > 0) {
    const what = identityChanges
      .map(
        c =>
          `spec.${c.field} changed from ${c.from ?? '(unset)'} to ${
            c.to ?? '(unset)'
          }`,
      )
      .join('; ');
    events.push({
      type: 'Warning',
      reason: 'IdentityFieldChanged',
      message: `${what}: the provider resource is deleted and recreated (brief downtime)`,
    });
  }
  if (status.provider && status.provider.name !== md.status?.provider?.name) {
    events.push({
      type: 'Normal',
      reason: 'ProviderSelected',
      message: `Selected provider '${status.provider.name}': ${status.provider.selectedReason}`,
    });
  }
  // Gateway: an event when routing starts or breaks (on the change only, not every reconcile).
  const gatewayOutcome = input.gateway.outcome;
  const previousGateway = previous?.find(
    c => c.type === CONDITION_TYPES.GatewayReady,
  );
  if (gatewayOutcome && gatewayOutcome.reason !== previousGateway?.reason) {
    if (gatewayOutcome.reason === 'GatewayConfigured')
      events.push({
        type: 'Normal',
        reason: 'GatewayConfigured',
        message: gatewayOutcome.message,
      });
    if (GATEWAY_FAILURES.has(gatewayOutcome.reason))
      events.push({
        type: 'Warning',
        reason: gatewayOutcome.reason,
        message: gatewayOutcome.message,
      });
  }

  let requeueAfterMs: number | undefined;
  const secret = selection.spec.secrets?.huggingFaceToken;
  if (secret && input.secretExists === false) {
    events.push({
      type: 'Warning',
      reason: 'SecretNotFound',
      message: `Secret '${secret}' not found in namespace '${
        md.metadata?.namespace ?? 'default'
      }'`,
    });
    requeueAfterMs = SECRET_RECHECK_MS;
  }

  // Record the identity only once acted on: a blocked deployment has nothing to recreate.
  const annotations: Record<string, string> = {};
  const labels: Record<string, string> = {};
  if (status.provider) {
    annotations[OBSERVED_IDENTITY_ANNOTATION] = JSON.stringify(
      Object.fromEntries(
        IDENTITY_FIELDS.filter(f => currentIdentity[f] !== undefined).map(f => [
          f,
          currentIdentity[f],
        ]),
      ),
    );
    labels[PROVIDER_LABEL] = status.provider.name;
  }
  return {
    action: 'write',
    status,
    labels,
    annotations,
    events,
    identityChanges,
    requeueAfterMs,
  };
}

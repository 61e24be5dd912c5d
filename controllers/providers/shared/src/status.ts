/**
 * The status fields a provider controller owns (seed 001/002 ownership
 * table): phase, message, replicas, endpoint, provider.resourceName/Kind and
 * the conditions ProviderCompatible, ResourceCreated and Ready. Each outcome
 * of a reconcile is one pure function returning exactly those fields, so a
 * server-side apply with the provider's field manager removes what an
 * earlier outcome set and this one does not.
 */
import { KubeApiError } from '@runway-portal/controller-runtime';
import {
  CONDITION_TYPES,
  type DeploymentPhase,
  type ModelDeploymentStatus,
} from '@runway-portal/plugin-runway-common';
import type { MappedStatus } from './definition';
import { containsDesired } from './drift';

type Condition = NonNullable<ModelDeploymentStatus['conditions']>[number];

/** Conditions the provider writes; the others belong to the core. @public */
export const PROVIDER_CONDITIONS = [
  CONDITION_TYPES.ProviderCompatible,
  CONDITION_TYPES.ResourceCreated,
  CONDITION_TYPES.Ready,
] as const;

/**
 * Which deployments a provider starting to lead reconciles first when it
 * replays its cache: being deleted, or a spec its ProviderCompatible
 * condition (written by every outcome) has not seen yet. The core's
 * `status.observedGeneration` cannot tell: the core writes it before the
 * provider acts.
 */
export function providerNeedsWork(md: {
  metadata?: { generation?: number; deletionTimestamp?: string };
  status?: {
    conditions?: Array<{ type: string; observedGeneration?: number }>;
  };
}): boolean {
  if (md.metadata?.deletionTimestamp) return true;
  const seen = md.status?.conditions?.find(
    c => c.type === CONDITION_TYPES.ProviderCompatible,
  );
  return seen?.observedGeneration !== md.metadata?.generation;
}

/** @public */
export interface StatusContext {
  /** The deployment's current conditions (to keep lastTransitionTime when nothing changed). */
  previous: Condition[];
  /** RFC 3339 "now". */
  now: string;
  generation?: number;
}

function condition(
  ctx: StatusContext,
  type: string,
  ok: boolean,
  reason: string,
  message: string,
): Condition {
  const status = ok ? 'True' : 'False';
  const before = ctx.previous.find(c => c.type === type);
  return {
    type,
    status,
    reason,
    message,
    lastTransitionTime:
      before?.status === status && before.lastTransitionTime
        ? before.lastTransitionTime
        : ctx.now,
    ...(ctx.generation === undefined
      ? {}
      : { observedGeneration: ctx.generation }),
  };
}

/** The provider rejects the configuration (seed 000 section 8 provider table). @public */
export function incompatibleStatus(
  ctx: StatusContext,
  messages: string[],
): ModelDeploymentStatus {
  const message = messages.join('; ');
  return {
    phase: 'Failed',
    message,
    conditions: [
      condition(
        ctx,
        CONDITION_TYPES.ProviderCompatible,
        false,
        'Incompatible',
        message,
      ),
    ],
  };
}

/** Compatible, but the upstream resource could not be created (missing CRD, bad overrides, apply error...). @public */
export function notCreatedStatus(
  ctx: StatusContext,
  phase: DeploymentPhase,
  reason: string,
  message: string,
): ModelDeploymentStatus {
  return {
    phase,
    message,
    conditions: [
      condition(
        ctx,
        CONDITION_TYPES.ProviderCompatible,
        true,
        'Compatible',
        'Configuration is compatible with the provider',
      ),
      condition(ctx, CONDITION_TYPES.ResourceCreated, false, reason, message),
      condition(ctx, CONDITION_TYPES.Ready, false, reason, message),
    ],
  };
}

/** Reason of `ResourceCreated`/`Ready` when the API server did not take an upstream object. @public */
export const APPLY_FAILED_REASON = 'ApplyFailed';

/** Phase and message of a deployment whose upstream object could not be applied. @public */
export interface ApplyFailure {
  phase: DeploymentPhase;
  message: string;
  /** The server rejected the object as it is (it will not succeed unchanged), as opposed to a failure worth retrying as is. */
  rejected: boolean;
}

/**
 * What the status says when applying `label` (e.g. `Workspace 'x'`) failed.
 * A rejection (400 bad request, 403 forbidden, 404, 422 invalid, or a field
 * of the wrong type for the schema, which server-side apply answers with
 * 500) fails the deployment: the object, the spec or the provider's RBAC
 * must change. A conflict (409), throttling (429), server error (5xx),
 * timeout or network error is retried as is: `Deploying` when the upstream object exists (its
 * update is pending), `Pending` before it was ever created. Either way the
 * loop retries with backoff and deletes nothing.
 *
 * @public
 */
export function applyFailure(
  label: string,
  err: unknown,
  upstreamExists: boolean,
): ApplyFailure {
  const rejected = isRejection(err);
  const detail = failureDetail(err);
  if (rejected)
    return {
      phase: 'Failed',
      message: `Applying ${label} failed: ${detail}`,
      rejected,
    };
  return {
    phase: upstreamExists ? 'Deploying' : 'Pending',
    message: `Applying ${label} failed, retrying: ${detail}`,
    rejected,
  };
}

function isRejection(err: unknown): boolean {
  if (!(err instanceof KubeApiError)) return false;
  const { code } = err;
  if (code >= 400 && code < 500) return code !== 409 && code !== 429;
  // Server-side apply answers 500 when the object does not fit the schema's types.
  return (
    code === 500 &&
    /failed to create typed patch object/.test(err.status.message ?? '')
  );
}

/**
 * The status after a failed apply. When the upstream object exists, what is
 * still true of it stays (its name and kind, replicas, endpoint), so readers
 * such as the core's gateway routing do not drop a model that still serves.
 *
 * @public
 */
export function applyFailedStatus(
  ctx: StatusContext,
  failure: ApplyFailure,
  previous: ModelDeploymentStatus | undefined,
  upstreamExists: boolean,
): ModelDeploymentStatus {
  const status = notCreatedStatus(
    ctx,
    failure.phase,
    APPLY_FAILED_REASON,
    failure.message,
  );
  if (!upstreamExists || !previous) return status;
  const { provider, replicas, endpoint } = previous;
  return {
    ...status,
    ...(provider?.resourceName
      ? {
          provider: {
            resourceName: provider.resourceName,
            resourceKind: provider.resourceKind,
          },
        }
      : {}),
    ...(replicas ? { replicas } : {}),
    ...(endpoint ? { endpoint } : {}),
  };
}

/** The server's code, reason and message, or the error's message (timeouts, network). */
function failureDetail(err: unknown): string {
  if (err instanceof KubeApiError) {
    const reason = err.status.reason ? ` ${err.status.reason}` : '';
    return `${err.code}${reason}: ${err.status.message ?? err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The upstream resource exists; its status mapped to the unified one. @public */
export function deployedStatus(
  ctx: StatusContext,
  resource: { kind: string; name: string },
  mapped: MappedStatus,
): ModelDeploymentStatus {
  return {
    phase: mapped.phase,
    message: mapped.message,
    provider: { resourceName: resource.name, resourceKind: resource.kind },
    ...(mapped.replicas ? { replicas: mapped.replicas } : {}),
    ...(mapped.endpoint ? { endpoint: mapped.endpoint } : {}),
    conditions: [
      condition(
        ctx,
        CONDITION_TYPES.ProviderCompatible,
        true,
        'Compatible',
        'Configuration is compatible with the provider',
      ),
      condition(
        ctx,
        CONDITION_TYPES.ResourceCreated,
        true,
        'ResourceCreated',
        `Created ${resource.kind} '${resource.name}'`,
      ),
      condition(
        ctx,
        CONDITION_TYPES.Ready,
        mapped.ready,
        mapped.reason,
        mapped.message,
      ),
    ],
  };
}

const OWNED_FIELDS = ['phase', 'message', 'replicas', 'endpoint'] as const;

/**
 * Whether `live` already shows `desired` and nothing this provider would
 * remove: then no status write is needed (keeps 1,000 deployments cheap).
 *
 * @public
 */
export function statusUpToDate(
  desired: ModelDeploymentStatus,
  live: ModelDeploymentStatus | undefined,
): boolean {
  if (!live) return false;
  const { conditions: want = [], ...fields } = desired;
  if (!containsDesired(fields, live)) return false;
  for (const f of OWNED_FIELDS)
    if (desired[f] === undefined && live[f] !== undefined) return false;
  if (!desired.provider?.resourceName && live.provider?.resourceName)
    return false;
  const liveConditions = live.conditions ?? [];
  for (const type of PROVIDER_CONDITIONS) {
    const w = want.find(c => c.type === type);
    const l = liveConditions.find(c => c.type === type);
    if (!w && l) return false;
    if (w && !containsDesired(w, l)) return false;
  }
  return true;
}

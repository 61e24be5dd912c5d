/**
 * Deletion of a ModelDeployment as the core sees it. Providers remove their
 * own finalizer once their resources are gone (or after their own timeout),
 * but that timeout runs inside the provider process: with the provider
 * stopped, uninstalled or unready, nothing would ever remove it and the
 * deletion would hang. So the core, which always runs, enforces the same
 * timeout for a provider that is not running, and shows `Terminating`
 * while the deletion is in progress. `decideDeletion` is pure; `DeletionStep`
 * writes what it returns.
 */
import {
  type EventRecorder,
  isNotFound,
  type KubeClient,
  type KubeObject,
  type Logger,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  DEPLOYMENTS_GROUP,
  type InferenceProviderConfig,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { CoreEvent } from './decide';
import { formatDuration, providerLiveness } from './liveness';

/** Every provider's finalizer is `airunway.ai/provider-<name>` (controllers/providers/shared). */
export const PROVIDER_FINALIZER_PREFIX = `${DEPLOYMENTS_GROUP}/provider-`;
/** The providers' own default: the core waits as long for a provider that is not running. */
export const DEFAULT_FINALIZER_TIMEOUT_MS = 5 * 60_000;
export interface DeletionInput {
  md: ModelDeployment;
  providers: readonly InferenceProviderConfig[];
  /** Milliseconds since the epoch. */
  now: number;
  finalizerTimeoutMs: number;
  heartbeatTimeoutMs: number;
}

export interface DeletionDecision {
  /** Written with a merge patch (never server-side apply, which would release the core's other status fields). */
  status: { phase: 'Terminating'; message: string };
  /** Provider finalizers whose provider is not running and whose timeout has passed. */
  removeFinalizers: string[];
  events: CoreEvent[];
  requeueAfterMs?: number;
}

/** What the core does for a deployment being deleted; undefined when it is not being deleted. */
export function decideDeletion(
  input: DeletionInput,
): DeletionDecision | undefined {
  const { md, providers, now, finalizerTimeoutMs, heartbeatTimeoutMs } = input;
  const deletionTimestamp = md.metadata?.deletionTimestamp;
  if (!deletionTimestamp) return undefined;
  const elapsed = now - (Date.parse(deletionTimestamp) || now);
  const finalizers = md.metadata?.finalizers ?? [];
  const removeFinalizers: string[] = [];
  const events: CoreEvent[] = [];
  const waiting: string[] = [];
  let requeueAfterMs: number | undefined;
  for (const finalizer of finalizers) {
    if (!finalizer.startsWith(PROVIDER_FINALIZER_PREFIX)) {
      waiting.push(`finalizer ${finalizer}`);
      continue;
    }
    const name = finalizer.slice(PROVIDER_FINALIZER_PREFIX.length);
    const liveness = providerLiveness(name, providers, now, heartbeatTimeoutMs);
    if (liveness.live) {
      // A running provider enforces its own timeout; look again in case it stops meanwhile.
      waiting.push(`provider '${name}' to delete its resources`);
      requeueAfterMs = Math.min(
        requeueAfterMs ?? Infinity,
        (liveness.staleInMs ?? heartbeatTimeoutMs) + 1000,
      );
    } else if (elapsed >= finalizerTimeoutMs) {
      removeFinalizers.push(finalizer);
      events.push({
        type: 'Warning',
        reason: 'FinalizerTimeout',
        message: `Finalizer ${finalizer} removed after ${formatDuration(
          finalizerTimeoutMs,
        )}: ${
          liveness.why
        }; its resources may be orphaned (delete them by hand)`,
      });
    } else {
      const left = finalizerTimeoutMs - elapsed;
      waiting.push(
        `${liveness.why}; finalizer ${finalizer} is removed in ${formatDuration(
          left,
        )} unless it comes back`,
      );
      // One second late at most: the deletion timestamp has whole seconds.
      requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, left + 1000);
    }
  }
  const message =
    waiting.length > 0
      ? `Deleting: waiting for ${waiting.join('; ')}`
      : 'Deleting';
  return {
    status: { phase: 'Terminating', message },
    removeFinalizers,
    events,
    ...(requeueAfterMs === undefined ? {} : { requeueAfterMs }),
  };
}

/** Carries out a `DeletionDecision` (the reconciler's loop part). */
export class DeletionStep {
  constructor(
    private readonly client: KubeClient,
    private readonly rt: ResourceType,
    private readonly fieldManager: string,
    private readonly events: EventRecorder,
    private readonly logger: Logger,
  ) {}

  async run(
    md: ModelDeployment & KubeObject,
    decision: DeletionDecision,
  ): Promise<void> {
    const key = { namespace: md.metadata!.namespace, name: md.metadata!.name! };
    const live = md.status;
    if (
      live?.phase !== decision.status.phase ||
      live?.message !== decision.status.message
    ) {
      try {
        await this.client.patch(
          this.rt,
          key,
          { status: decision.status },
          'merge',
          { subresource: 'status', fieldManager: this.fieldManager },
        );
      } catch (err) {
        if (isNotFound(err)) return; // deleted meanwhile: nothing left to do
        throw err;
      }
    }
    if (decision.removeFinalizers.length > 0) {
      const finalizers = md.metadata?.finalizers ?? [];
      // The test ops make the patch fail (and the reconcile retry) if the object or its finalizers changed meanwhile.
      await this.client.patch(
        this.rt,
        key,
        [
          { op: 'test', path: '/metadata/uid', value: md.metadata!.uid },
          { op: 'test', path: '/metadata/finalizers', value: finalizers },
          {
            op: 'replace',
            path: '/metadata/finalizers',
            value: finalizers.filter(
              f => !decision.removeFinalizers.includes(f),
            ),
          },
        ],
        'json',
        { fieldManager: this.fieldManager },
      );
      this.logger.warn('removed finalizers of providers that are not running', {
        key: `${key.namespace}/${key.name}`,
        finalizers: decision.removeFinalizers,
      });
    }
    for (const e of decision.events)
      this.events.event(md, e.type, e.reason, e.message);
  }
}

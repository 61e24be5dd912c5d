/**
 * Pushes cluster changes to browsers with Backstage signals, so pages update
 * without polling. A message says which kind changed where (cluster and
 * namespace), not what: the page then reads through the API, which checks
 * the user's permissions. Bursts (a relist, a rollout) are coalesced into
 * one message per kind, cluster and namespace per window.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { SignalsService } from '@backstage/plugin-signals-node';
import type {
  ClusterClient,
  ResourceChange,
} from '@runway-portal/plugin-runway-node';
import {
  type RunwaySignal,
  runwaySignalChannel,
} from '@runway-portal/plugin-runway-common';

/** Groups changes by kind, cluster and namespace, in order of first appearance. Pure. */
export function coalesce(changes: ResourceChange[]): RunwaySignal[] {
  const groups = new Map<string, RunwaySignal>();
  for (const c of changes) {
    const key = `${c.kind}|${c.cluster}|${c.namespace}`;
    const group = groups.get(key);
    if (group) {
      group.changes += 1;
      group.eventsOnly = group.eventsOnly && c.event;
    } else {
      groups.set(key, {
        kind: c.kind,
        cluster: c.cluster,
        namespace: c.namespace,
        changes: 1,
        eventsOnly: c.event,
      });
    }
  }
  return [...groups.values()];
}

/** Starts forwarding; returns a stop function. */
export function forwardChangesToSignals(options: {
  clusterClient: ClusterClient;
  signals: SignalsService;
  logger: LoggerService;
  /** Coalescing window; default 100 ms. */
  windowMs?: number;
}): () => void {
  const windowMs = options.windowMs ?? 100;
  let pending: ResourceChange[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    for (const signal of coalesce(batch)) {
      options.signals
        .publish({
          recipients: { type: 'broadcast' },
          channel: runwaySignalChannel(signal.kind),
          message: { ...signal },
        })
        .catch(err =>
          options.logger.warn(
            `could not publish a runway signal: ${
              err instanceof Error ? err.message : String(err)
            }`,
          ),
        );
    }
  };
  const unsubscribe = options.clusterClient.onChange(change => {
    pending.push(change);
    timer ??= setTimeout(flush, windowMs);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}

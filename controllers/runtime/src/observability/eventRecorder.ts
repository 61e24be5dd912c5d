import os from 'node:os';
import { KubeClient } from '../kube/client';
import { isNotFound } from '../kube/errors';
import { Events } from '../kube/wellKnown';
import type { KubeObject } from '../kube/types';
import {
  EventAggregator,
  eventAggregationKey,
  EventRecord,
  EventType,
  SeenEvent,
  validateEvent,
} from './eventAggregation';
import { Logger, silentLogger } from './logger';

/** @public */
export interface EventRecorderOptions {
  /** `source.component` / `reportingComponent`, e.g. `runway-core`. */
  component: string;
  instance?: string;
  logger?: Logger;
  /** Repeats within this window bump the count of one Event; default 10 min. */
  windowMs?: number;
}

/**
 * Writes core/v1 Events about objects. Repeats of the same event update the
 * count and lastTimestamp of the Event already written instead of creating
 * new ones. Recording never throws and never blocks a reconcile: failures
 * are logged.
 *
 * @public
 */
export class EventRecorder {
  private readonly aggregator: EventAggregator;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly logger: Logger;
  private readonly instance: string;

  constructor(
    private readonly client: KubeClient,
    private readonly options: EventRecorderOptions,
  ) {
    if (!options.component)
      throw new Error(
        'EventRecorder needs a component name: set options.component',
      );
    this.aggregator = new EventAggregator(options.windowMs);
    this.logger = (options.logger ?? silentLogger).child({
      component: options.component,
    });
    this.instance = options.instance ?? os.hostname();
  }

  event(
    involved: KubeObject,
    type: EventType,
    reason: string,
    message: string,
  ): void {
    const record: EventRecord = {
      involved,
      type,
      reason,
      message: message.slice(0, 1024),
    };
    const problem = validateEvent(record);
    if (problem) {
      this.logger.error('event dropped', { problem });
      return;
    }
    const key = eventAggregationKey(this.options.component, record);
    const decision = this.aggregator.observe(key, record, new Date());
    // Writes for one key run in order so counts never go backwards.
    const previous = this.pending.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => this.write(record, decision.action, decision.seen))
      .catch(err =>
        this.logger.warn('could not write event', { reason, error: err }),
      )
      .finally(() => {
        if (this.pending.get(key) === next) this.pending.delete(key);
      });
    this.pending.set(key, next);
  }

  /** Waits for every event write in flight (shutdown, tests). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
  }

  private async write(
    e: EventRecord,
    action: 'create' | 'update',
    seen: SeenEvent,
  ): Promise<void> {
    const lastTimestamp = new Date(seen.lastSeenMs).toISOString();
    if (action === 'update') {
      try {
        await this.client.patch(
          Events,
          { namespace: seen.namespace, name: seen.name },
          { count: seen.count, lastTimestamp },
          'merge',
        );
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // It expired in the cluster: write it again under the same name.
      }
    }
    const m = e.involved.metadata!;
    await this.client.create(Events, {
      metadata: { name: seen.name, namespace: seen.namespace },
      involvedObject: {
        apiVersion: e.involved.apiVersion,
        kind: e.involved.kind,
        name: m.name,
        namespace: m.namespace,
        uid: m.uid,
        resourceVersion: m.resourceVersion,
      },
      type: e.type,
      reason: e.reason,
      message: e.message,
      count: seen.count,
      firstTimestamp: seen.firstTimestamp,
      lastTimestamp,
      source: { component: this.options.component, host: this.instance },
      reportingComponent: this.options.component,
      reportingInstance: this.instance,
    });
  }
}

import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { InformerMetrics } from '../cache/informer';
import type { WorkQueueMetrics } from '../queue/workQueue';

/** @public */
export type ReconcileResultLabel =
  | 'success'
  | 'error'
  | 'requeue'
  | 'requeue_after';

/**
 * The metrics controller-runtime exposes, with the same names, in one
 * registry per manager (so two managers in one process do not collide).
 *
 * @public
 */
export class ControllerMetrics {
  readonly registry = new Registry();
  readonly reconcileTotal = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers: [this.registry],
  });
  readonly reconcileErrors = new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers: [this.registry],
  });
  readonly reconcileTime = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: [
      0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
      0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7,
      8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
    ],
    registers: [this.registry],
  });
  readonly activeWorkers = new Gauge({
    name: 'controller_runtime_active_workers',
    help: 'Number of currently used workers per controller',
    labelNames: ['controller'] as const,
    registers: [this.registry],
  });
  readonly maxConcurrentReconciles = new Gauge({
    name: 'controller_runtime_max_concurrent_reconciles',
    help: 'Maximum number of concurrent reconciles per controller',
    labelNames: ['controller'] as const,
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name', 'controller'] as const,
    registers: [this.registry],
  });
  readonly queueAdds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames: ['name', 'controller'] as const,
    registers: [this.registry],
  });
  readonly queueRetries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames: ['name', 'controller'] as const,
    registers: [this.registry],
  });
  readonly queueDuration = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames: ['name', 'controller'] as const,
    buckets: exponentialBuckets(1e-8, 10, 10),
    registers: [this.registry],
  });
  readonly workDuration = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes',
    labelNames: ['name', 'controller'] as const,
    buckets: exponentialBuckets(1e-8, 10, 10),
    registers: [this.registry],
  });
  readonly leaderStatus = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master',
    labelNames: ['name'] as const,
    registers: [this.registry],
  });
  readonly informerRestarts = new Counter({
    name: 'runway_informer_restarts_total',
    help: 'List/watch restarts per resource type and reason (gone, error, silent)',
    labelNames: ['resource', 'reason'] as const,
    registers: [this.registry],
  });
  readonly informerListedItems = new Gauge({
    name: 'runway_informer_listed_items',
    help: 'Objects returned by the last full list per resource type',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly webhookRequests = new Counter({
    name: 'controller_runtime_webhook_requests_total',
    help: 'Total number of admission and conversion requests by HTTP status code',
    labelNames: ['webhook', 'code'] as const,
    registers: [this.registry],
  });
  readonly webhookLatency = new Histogram({
    name: 'controller_runtime_webhook_latency_seconds',
    help: 'Histogram of the latency of processing admission and conversion requests',
    labelNames: ['webhook'] as const,
    // Prometheus' defaults start at 5 ms, more than a whole call takes here: sub-millisecond buckets first.
    buckets: [
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
      0.25, 0.5, 1, 2.5, 5, 10,
    ],
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true)
      collectDefaultMetrics({ register: this.registry });
  }

  /** Work queue observer for the queue of `controller`. */
  queueMetrics(controller: string): WorkQueueMetrics {
    const labels = { name: controller, controller };
    return {
      added: () => this.queueAdds.inc(labels),
      depth: n => this.queueDepth.set(labels, n),
      taken: ms => this.queueDuration.observe(labels, ms / 1000),
      finished: ms => this.workDuration.observe(labels, ms / 1000),
      retried: () => this.queueRetries.inc(labels),
    };
  }

  informerMetrics(): InformerMetrics {
    return {
      restarted: (resource, reason) =>
        this.informerRestarts.inc({ resource, reason }),
      listed: (resource, items) =>
        this.informerListedItems.set({ resource }, items),
    };
  }

  /** Prometheus text format. */
  async render(): Promise<{ contentType: string; body: string }> {
    return {
      contentType: this.registry.contentType,
      body: await this.registry.metrics(),
    };
  }
}

function exponentialBuckets(
  start: number,
  factor: number,
  count: number,
): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

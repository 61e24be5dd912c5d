/**
 * The stack operator's own metrics, next to controller-runtime's in the
 * manager's registry. Per-stack gauges are computed at scrape time from the
 * informer cache: nothing to keep in sync.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Stack } from './objects';

export class StackMetrics {
  readonly configGeneration: Histogram<'result'>;
  readonly configUpdates: Counter<'namespace'>;
  readonly stacksByPhase: Gauge<'namespace' | 'phase'>;

  constructor(registry: Registry, stacks: () => Stack[]) {
    const registers = [registry];
    this.configGeneration = new Histogram({
      name: 'runway_stack_config_generation_seconds',
      help: 'Time to generate a stack config.yaml, by result (ok or the ConfigGenerated reason)',
      labelNames: ['result'],
      buckets: [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5,
      ],
      registers,
    });
    this.configUpdates = new Counter({
      name: 'runway_stack_config_updates_total',
      help: 'Deployments moved to a new config (a rollout), by namespace',
      labelNames: ['namespace'],
      registers,
    });
    this.stacksByPhase = new Gauge({
      name: 'runway_stacks',
      help: 'LlamaStackDistributions by namespace and phase',
      labelNames: ['namespace', 'phase'],
      registers,
      collect() {
        this.reset();
        for (const s of stacks()) {
          this.inc({
            namespace: s.metadata?.namespace ?? '',
            phase: s.status?.phase ?? 'Unknown',
          });
        }
      },
    });
  }
}

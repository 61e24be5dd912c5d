/**
 * Seed 000 §9 metrics, with the `airunway_` prefix, in the manager's
 * registry (next to controller-runtime's own). Per-deployment gauges are
 * computed at scrape time from the informer cache: nothing to keep in sync.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';

export interface PhaseCount {
  namespace: string;
  phase: string;
  count: number;
}

/** Deployments per namespace and phase ("Unknown" before anyone set a phase). */
export function countByPhase(deployments: ModelDeployment[]): PhaseCount[] {
  const counts = new Map<string, PhaseCount>();
  for (const md of deployments) {
    const namespace = md.metadata?.namespace ?? '';
    const phase = md.status?.phase ?? 'Unknown';
    const key = `${namespace}\u0000${phase}`;
    const entry = counts.get(key) ?? { namespace, phase, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

export class CoreMetrics {
  readonly reconcileDuration: Histogram<'provider'>;
  readonly reconcileErrors: Counter<'provider' | 'error_type'>;
  readonly providerSelection: Counter<'provider' | 'reason'>;
  readonly deploymentsByPhase: Gauge<'namespace' | 'phase'>;
  readonly deploymentReplicas: Gauge<'name' | 'namespace' | 'state'>;
  readonly deploymentPhase: Gauge<'name' | 'namespace' | 'phase'>;

  constructor(registry: Registry, deployments: () => ModelDeployment[]) {
    const registers = [registry];
    this.reconcileDuration = new Histogram({
      name: 'airunway_reconciliation_duration_seconds',
      help: 'Time of one core reconcile of a ModelDeployment, by selected provider',
      labelNames: ['provider'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'airunway_reconciliation_errors_total',
      help: 'Failed core reconciles, by selected provider and error type',
      labelNames: ['provider', 'error_type'] as const,
      registers,
    });
    this.providerSelection = new Counter({
      name: 'airunway_provider_selection',
      help: 'Provider selections made by the core, by provider and reason',
      labelNames: ['provider', 'reason'] as const,
      registers,
    });
    this.deploymentsByPhase = new Gauge({
      name: 'airunway_modeldeployment_total',
      help: 'ModelDeployments by namespace and phase',
      labelNames: ['namespace', 'phase'] as const,
      registers,
      collect() {
        this.reset();
        for (const c of countByPhase(deployments()))
          this.set({ namespace: c.namespace, phase: c.phase }, c.count);
      },
    });
    this.deploymentReplicas = new Gauge({
      name: 'airunway_deployment_replicas',
      help: 'Replicas of each ModelDeployment by state (desired, ready, available), as its provider reports them',
      labelNames: ['name', 'namespace', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const md of deployments()) {
          const labels = {
            name: md.metadata?.name ?? '',
            namespace: md.metadata?.namespace ?? '',
          };
          for (const state of ['desired', 'ready', 'available'] as const) {
            const value = md.status?.replicas?.[state];
            if (value !== undefined) this.set({ ...labels, state }, value);
          }
        }
      },
    });
    this.deploymentPhase = new Gauge({
      name: 'airunway_deployment_phase',
      help: 'Phase of each ModelDeployment (1 for its current phase)',
      labelNames: ['name', 'namespace', 'phase'] as const,
      registers,
      collect() {
        this.reset();
        for (const md of deployments()) {
          this.set(
            {
              name: md.metadata?.name ?? '',
              namespace: md.metadata?.namespace ?? '',
              phase: md.status?.phase ?? 'Unknown',
            },
            1,
          );
        }
      },
    });
  }
}

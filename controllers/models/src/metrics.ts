/**
 * The model operator's Prometheus metrics, next to controller-runtime's
 * (reconciles, queue, webhook) on the manager's registry.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { MODEL_PHASES } from '@runway-portal/plugin-runway-common';
import type { ModelObject } from './resources';

export class ModelMetrics {
  readonly downloadsStarted: Counter<'source'>;
  readonly downloadsSucceeded: Counter<'source'>;
  readonly downloadsFailed: Counter<'source'>;
  readonly downloadDuration: Histogram<'source' | 'result'>;
  readonly downloadedBytes: Counter<'source'>;
  readonly models: Gauge<'phase'>;

  constructor(registry: Registry, models: () => ModelObject[]) {
    const registers = [registry];
    this.downloadsStarted = new Counter({
      name: 'airunway_model_downloads_started_total',
      help: 'Download Jobs created (first attempts and recreations)',
      labelNames: ['source'],
      registers,
    });
    this.downloadsSucceeded = new Counter({
      name: 'airunway_model_downloads_succeeded_total',
      help: 'Downloads that finished (Model became Ready)',
      labelNames: ['source'],
      registers,
    });
    this.downloadsFailed = new Counter({
      name: 'airunway_model_downloads_failed_total',
      help: 'Downloads that failed for good (Model became Failed)',
      labelNames: ['source'],
      registers,
    });
    this.downloadDuration = new Histogram({
      name: 'airunway_model_download_duration_seconds',
      help: 'From the download Job start to its end',
      labelNames: ['source', 'result'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600, 7200],
      registers,
    });
    this.downloadedBytes = new Counter({
      name: 'airunway_model_downloaded_bytes_total',
      help: 'Bytes of finished downloads, as the downloader reported them',
      labelNames: ['source'],
      registers,
    });
    this.models = new Gauge({
      name: 'airunway_models',
      help: 'Models by phase',
      labelNames: ['phase'],
      registers,
      collect() {
        const counts = new Map<string, number>(MODEL_PHASES.map(p => [p, 0]));
        for (const m of models()) {
          const phase = m.status?.phase ?? 'Pending';
          counts.set(phase, (counts.get(phase) ?? 0) + 1);
        }
        for (const [phase, count] of counts) this.set({ phase }, count);
      },
    });
  }
}

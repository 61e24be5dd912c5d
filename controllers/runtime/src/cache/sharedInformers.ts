import { KubeClient } from '../kube/client';
import { ResourceType, resourceTypeId } from '../kube/resource';
import type { KubeObject } from '../kube/types';
import { Logger, silentLogger } from '../observability/logger';
import { byOwnerIndexer, OWNER_INDEX } from './indexers';
import { Informer, InformerMetrics, InformerOptions } from './informer';

export interface InformerSelector {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * Hands out one informer per resource type (and selector), however many
 * controllers ask for it: one list+watch per type per process. Every
 * informer carries the owner index, which `owns()` relies on.
 */
export class SharedInformerFactory {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private started = false;

  constructor(
    private readonly client: KubeClient,
    private readonly defaults: Omit<
      InformerOptions<KubeObject>,
      keyof InformerSelector
    > & {
      logger?: Logger;
      metrics?: InformerMetrics;
    } = {},
  ) {}

  informerFor<T extends KubeObject>(
    rt: ResourceType,
    selector: InformerSelector = {},
  ): Informer<T> {
    const id = [
      resourceTypeId(rt),
      selector.namespace ?? '',
      selector.labelSelector ?? '',
      selector.fieldSelector ?? '',
    ].join('|');
    let informer = this.informers.get(id);
    if (!informer) {
      informer = new Informer<KubeObject>(this.client, rt, {
        ...this.defaults,
        logger: this.defaults.logger ?? silentLogger,
        ...selector,
      });
      informer.addIndexer(OWNER_INDEX, byOwnerIndexer);
      this.informers.set(id, informer);
      if (this.started) informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  /** Starts every informer, now and any created later. */
  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  async waitForSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map(i => i.waitForSync()));
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every(i => i.hasSynced());
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map(i => i.stop()));
  }

  /** How many informers (watches) exist: one per type and selector. */
  count(): number {
    return this.informers.size;
  }
}

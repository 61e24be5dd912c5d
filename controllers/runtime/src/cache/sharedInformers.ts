import { KubeClient } from '../kube/client';
import { ResourceType, resourceTypeId } from '../kube/resource';
import type { KubeObject } from '../kube/types';
import { Logger, silentLogger } from '../observability/logger';
import { byOwnerIndexer, OWNER_INDEX } from './indexers';
import { Informer, InformerMetrics, InformerOptions } from './informer';
import type { CacheTransform } from './transform';

/** @public */
export interface InformerSelector {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** @public */
export interface SharedInformerOptions<T extends KubeObject = KubeObject> {
  /**
   * Keeps only what the controllers read of each cached object (see
   * `CacheTransform`). The informer is shared: every caller asking for the
   * same type and selector must pass the same function, or none after the
   * first one set it.
   */
  transform?: CacheTransform<T>;
}

/**
 * Hands out one informer per resource type (and selector), however many
 * controllers ask for it: one list+watch per type per process. Every
 * informer carries the owner index, which `owns()` relies on.
 *
 * @public
 */
export class SharedInformerFactory {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly transforms = new Map<string, CacheTransform>();
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
    options: SharedInformerOptions<T> = {},
  ): Informer<T> {
    const id = [
      resourceTypeId(rt),
      selector.namespace ?? '',
      selector.labelSelector ?? '',
      selector.fieldSelector ?? '',
    ].join('|');
    const transform = options.transform as CacheTransform | undefined;
    let informer = this.informers.get(id);
    if (informer) {
      const existing = this.transforms.get(id);
      if (transform && transform !== existing) {
        throw new Error(
          `the informer of ${resourceTypeId(rt)} (${JSON.stringify(
            selector,
          )}) ${
            existing
              ? 'has another transform'
              : 'was created without a transform'
          }: its objects are shared, so pass the same transform wherever it is requested, first included`,
        );
      }
    } else {
      informer = new Informer<KubeObject>(this.client, rt, {
        ...this.defaults,
        logger: this.defaults.logger ?? silentLogger,
        ...selector,
        transform,
      });
      informer.addIndexer(OWNER_INDEX, byOwnerIndexer);
      this.informers.set(id, informer);
      if (transform) this.transforms.set(id, transform);
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

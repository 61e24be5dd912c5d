import type {
  InformerSelector,
  SharedInformerFactory,
} from '../cache/sharedInformers';
import type { CacheTransform } from '../cache/transform';
import type { ReconnectSource } from '../kube/connectivity';
import type { ResourceType } from '../kube/resource';
import type { KubeObject } from '../kube/types';
import type { ControllerMetrics } from '../metrics/metrics';
import type { Logger } from '../observability/logger';
import {
  Controller,
  ControllerOptions,
  generationNotObserved,
  Reconciler,
  Source,
} from './controller';
import type { Predicate } from './predicates';
import { ownerRequests, Request, requestFor } from './requests';

/** What a builder needs from its manager. @public */
export interface ControllerHost {
  informers: SharedInformerFactory;
  metrics?: ControllerMetrics;
  logger?: Logger;
  /** The API server's reconnects after an outage (the manager's client). */
  reconnects?: ReconnectSource;
  /** Takes ownership of the controller (starts it when leading). */
  register(controller: Controller): void;
}

/** @public */
export interface WatchOptions<T extends KubeObject = KubeObject> {
  predicates?: Predicate<T>[];
  /** Restricts the informer (and so the watch) to a namespace or selector. */
  selector?: InformerSelector;
  /** What the shared informer keeps of each object (see `SharedInformerFactory.informerFor`). */
  transform?: CacheTransform<T>;
}

/** @public */
export interface OwnsOptions<T extends KubeObject = KubeObject>
  extends WatchOptions<T> {
  /** Also map non-controller owner references (default: controller owner only). */
  anyOwner?: boolean;
}

/**
 * Declares a controller the way controller-runtime's builder does:
 *
 *   mgr.controller()
 *     .for(ModelDeployments, { predicates: [generationChanged] })
 *     .owns(Deployments)
 *     .watches(ConfigMaps, cm => [...requests])
 *     .complete(reconcile);
 *
 * @public
 */
export class ControllerBuilder {
  private name?: string;
  private forType?: ResourceType;
  private readonly sources: Array<{
    rt: ResourceType;
    options: WatchOptions;
    map: (obj: KubeObject) => Request[];
    primary?: boolean;
  }> = [];
  private readonly globalPredicates: Predicate[] = [];
  private needsWork: (obj: KubeObject) => boolean = generationNotObserved;
  private options: Pick<
    ControllerOptions,
    'maxConcurrentReconciles' | 'rateLimiter'
  > = {};

  constructor(private readonly host: ControllerHost) {}

  /** The controller's name in logs and metrics; default: the `for` kind in lower case. */
  named(name: string): this {
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) {
      throw new Error(
        `controller name "${name}" is not valid: use lower-case letters, digits, "-" and ".", e.g. "modeldeployment"`,
      );
    }
    this.name = name;
    return this;
  }

  /** The primary type: each of its events enqueues the object itself. */
  for<T extends KubeObject>(
    rt: ResourceType,
    options: WatchOptions<T> = {},
  ): this {
    if (this.forType) {
      throw new Error(
        `for() was already called with ${this.forType.kind}: a controller has one primary type`,
      );
    }
    this.forType = rt;
    this.sources.unshift({
      rt,
      options: options as unknown as WatchOptions,
      map: requestFor,
      primary: true,
    });
    return this;
  }

  /** A type the controller creates: its events enqueue the controlling owner of the `for` type. */
  owns<T extends KubeObject>(
    rt: ResourceType,
    options: OwnsOptions<T> = {},
  ): this {
    this.sources.push({
      rt,
      options: options as unknown as WatchOptions,
      map: obj => {
        if (!this.forType) return [];
        return ownerRequests(obj, this.forType, !options.anyOwner);
      },
    });
    return this;
  }

  /** Any other type, mapped to requests by `map` (e.g. a ConfigMap to the objects that use it). */
  watches<T extends KubeObject>(
    rt: ResourceType,
    map: (obj: T) => Request[],
    options: WatchOptions<T> = {},
  ): this {
    this.sources.push({
      rt,
      options: options as unknown as WatchOptions,
      map: map as (obj: KubeObject) => Request[],
    });
    return this;
  }

  /** A predicate applied to every source. */
  withEventFilter<T extends KubeObject>(predicate: Predicate<T>): this {
    this.globalPredicates.push(predicate as Predicate);
    return this;
  }

  withOptions(
    options: Pick<ControllerOptions, 'maxConcurrentReconciles' | 'rateLimiter'>,
  ): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /**
   * Which primary objects a (re)starting controller reconciles first when it
   * replays its cache; the rest follow at low priority. Default
   * `generationNotObserved` (being deleted, no status, or spec changed
   * since the status was written).
   */
  replayFirst<T extends KubeObject>(needsWork: (obj: T) => boolean): this {
    this.needsWork = needsWork as (obj: KubeObject) => boolean;
    return this;
  }

  /** Builds the controller and hands it to the manager. */
  complete(reconciler: Reconciler): Controller {
    if (!this.forType) {
      throw new Error(
        'call for(<primary type>) before complete(): a controller needs a primary type',
      );
    }
    if (typeof reconciler !== 'function') {
      throw new Error(
        'complete() needs a reconcile function (request, ctx) => result',
      );
    }
    const sources: Source[] = this.sources.map(
      ({ rt, options, map, primary }) => ({
        informer: this.host.informers.informerFor(rt, options.selector, {
          transform: options.transform,
        }),
        predicates: [...this.globalPredicates, ...(options.predicates ?? [])],
        map,
        needsWork: primary ? this.needsWork : undefined,
      }),
    );
    const controller = new Controller(
      this.name ?? this.forType.kind.toLowerCase(),
      reconciler,
      sources,
      {
        ...this.options,
        logger: this.host.logger,
        metrics: this.host.metrics,
        reconnects: this.host.reconnects,
      },
    );
    this.host.register(controller);
    return controller;
  }
}

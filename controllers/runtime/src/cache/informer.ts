import { KubeClient } from '../kube/client';
import { isGone, KubeApiError, KubeConnectionError } from '../kube/errors';
import {
  apiVersionOf,
  keyOfObject,
  ResourceType,
  resourceTypeId,
} from '../kube/resource';
import type { KubeObject, Status, WatchEvent } from '../kube/types';
import { Logger, silentLogger } from '../observability/logger';
import { Backoff, sleep } from './backoff';
import { selectorsAdmit } from './selectors';
import { IndexFunc, Store } from './store';
import { type CacheTransform, trimForCache } from './transform';

/** @public */
export interface EventHandler<T extends KubeObject> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

/** @public */
export interface InformerMetrics {
  /** The list+watch loop restarted after `reason` (gone, error, silent). */
  restarted(resource: string, reason: 'gone' | 'error' | 'silent'): void;
  listed(resource: string, items: number): void;
}

/** @public */
export interface InformerOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page; default 500. */
  pageSize?: number;
  /** The server ends each watch after this long; default random 5-10 min. */
  watchTimeoutSeconds?: () => number;
  /**
   * A watch that sends neither an event nor a bookmark for this long is
   * considered dead and restarted. Measured on kube-apiserver 1.36: the
   * first bookmark of an idle watch comes after about 2 minutes, then one
   * every minute; so the default is 3 minutes.
   */
  silenceTimeoutMs?: number;
  /** Restart backoff after errors; default 800 ms doubling to 30 s. */
  backoff?: Backoff;
  /**
   * Whether `store.get` returns what this process wrote before the watch
   * delivers it (the client's `onWrite`); default true. Reconciles then do
   * not act on the state before their own write and write again.
   */
  readYourWrites?: boolean;
  /**
   * Applied to every object before it is cached, after `trimForCache`
   * (which always drops managedFields and the last-applied annotation).
   */
  transform?: CacheTransform<T>;
  logger?: Logger;
  metrics?: InformerMetrics;
}

/** Raised (as an abort reason) when a watch stays silent too long. @public */
export class WatchSilentError extends Error {
  readonly name = 'WatchSilentError';
}

/**
 * Keeps a Store in sync with the API server for one resource type and tells
 * handlers about every change. Unlike client-node's informer it never stops
 * by itself: it lists, watches from the list's resourceVersion with
 * bookmarks, relists on 410 Gone, and restarts with backoff after any other
 * error or a silent stream, until `stop()`.
 *
 * @public
 */
export class Informer<T extends KubeObject> {
  readonly store = new Store<T>();
  private readonly handlers = new Set<EventHandler<T>>();
  private readonly options: Required<
    Omit<
      InformerOptions<T>,
      | 'namespace'
      | 'labelSelector'
      | 'fieldSelector'
      | 'metrics'
      | 'readYourWrites'
    >
  > &
    InformerOptions<T>;
  private resourceVersion: string | undefined;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running?: Promise<void>;
  private readonly stopController = new AbortController();
  private readonly id: string;
  private unsubscribeWrites?: () => void;

  constructor(
    private readonly client: KubeClient,
    readonly resourceType: ResourceType,
    options: InformerOptions<T> = {},
  ) {
    if (options.pageSize !== undefined && !(options.pageSize >= 1)) {
      throw new Error(`pageSize must be at least 1, got ${options.pageSize}`);
    }
    if (
      options.silenceTimeoutMs !== undefined &&
      !(options.silenceTimeoutMs > 0)
    ) {
      throw new Error(
        `silenceTimeoutMs must be positive, got ${options.silenceTimeoutMs}`,
      );
    }
    this.id = resourceTypeId(resourceType);
    this.options = {
      pageSize: 500,
      watchTimeoutSeconds: () => 300 + Math.floor(Math.random() * 300),
      silenceTimeoutMs: 180_000,
      backoff: new Backoff(800, 30_000),
      logger: silentLogger,
      ...options,
      transform: options.transform
        ? (obj: T) => options.transform!(trimForCache(obj))
        : trimForCache,
    };
    this.options.logger = this.options.logger.child({ informer: this.id });
  }

  /**
   * Registers a handler. If the cache has synced already, the handler is
   * first told about every cached object as an add. Returns an unsubscribe.
   */
  addEventHandler(handler: EventHandler<T>): () => void {
    this.handlers.add(handler);
    if (this.synced) {
      for (const obj of newestFirst(this.store.list()))
        this.call(handler, 'add', obj);
    }
    return () => this.handlers.delete(handler);
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    this.store.addIndexer(name, fn);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list is in the cache (or when stopped). */
  waitForSync(): Promise<void> {
    if (this.synced || this.stopController.signal.aborted)
      return Promise.resolve();
    return new Promise(resolve => this.syncWaiters.push(resolve));
  }

  /** The resourceVersion the cache is at (of the last event or bookmark). */
  lastResourceVersion(): string | undefined {
    return this.resourceVersion;
  }

  start(): void {
    if (this.running || this.stopController.signal.aborted) return;
    if (this.options.readYourWrites !== false)
      this.unsubscribeWrites = this.client.onWrite((rt, obj) => {
        if (resourceTypeId(rt) === this.id) this.noteWritten(obj as T);
      });
    this.running = this.run();
  }

  /**
   * Lets `store.get` answer with an object this process just wrote, until
   * the watch delivers it. Only objects this informer would hold: its
   * namespace and selectors admit them, or, when a selector is too complex
   * to check here, the object is cached already.
   */
  noteWritten(obj: T): void {
    if (!this.synced) return;
    const typed = this.options.transform(this.withTypeMeta(obj));
    const admitted = selectorsAdmit(typed, this.options);
    if (admitted === false) return;
    if (admitted === undefined && !this.store.get(keyOfObject(typed))) return;
    this.store.noteWritten(typed);
  }

  async stop(): Promise<void> {
    this.unsubscribeWrites?.();
    this.stopController.abort(new Error('informer stopped'));
    this.releaseSyncWaiters();
    await this.running;
  }

  private async run(): Promise<void> {
    const { backoff, logger } = this.options;
    const stopped = this.stopController.signal;
    while (!stopped.aborted) {
      try {
        if (this.resourceVersion === undefined) {
          await this.relist();
          backoff.reset();
        }
        const startedAt = Date.now();
        const events = await this.watchOnce(); // ends when the server closes the stream
        // A stream that ends at once without a word would spin: slow down.
        if (events === 0 && Date.now() - startedAt < 1000) {
          await sleep(backoff.next(), stopped);
        }
      } catch (err) {
        if (stopped.aborted) break;
        if (isGone(err)) {
          logger.info('resourceVersion too old, listing again', {
            resourceVersion: this.resourceVersion,
          });
          this.options.metrics?.restarted(this.id, 'gone');
          this.resourceVersion = undefined;
          continue;
        }
        const reason = err instanceof WatchSilentError ? 'silent' : 'error';
        const { connectivity } = this.client;
        // Unreachable a moment ago but answering already: no reason to wait long.
        if (err instanceof KubeConnectionError && !connectivity.isDown()) {
          backoff.reset();
        }
        const delay = backoff.next();
        logger.warn('list/watch failed, restarting', {
          reason,
          error: err,
          retryInMs: delay,
        });
        this.options.metrics?.restarted(this.id, reason);
        // The backoff grows to 30 s during an outage; the server's return ends the wait at once.
        const reconnected = connectivity.reconnectSignal();
        await sleep(delay, AbortSignal.any([stopped, reconnected]));
        if (reconnected.aborted) backoff.reset();
      }
    }
  }

  private async relist(): Promise<void> {
    const { pageSize, transform, logger } = this.options;
    const items: T[] = [];
    let resourceVersion: string | undefined;
    let continueToken: string | undefined;
    let limit: number | undefined = pageSize;
    do {
      try {
        const page = await this.client.list<T>(this.resourceType, {
          namespace: this.options.namespace,
          labelSelector: this.options.labelSelector,
          fieldSelector: this.options.fieldSelector,
          limit,
          continue: continueToken,
          signal: this.stopController.signal,
        });
        // List items of built-in types come without apiVersion/kind; watch events have them.
        for (const item of page.items)
          items.push(transform(this.withTypeMeta(item)));
        resourceVersion = page.metadata.resourceVersion;
        continueToken = page.metadata.continue || undefined;
      } catch (err) {
        // The continue token expired mid-way: take one unpaginated list.
        if (!isGone(err) || continueToken === undefined) throw err;
        items.length = 0;
        continueToken = undefined;
        limit = undefined;
      }
    } while (continueToken);
    if (!resourceVersion) {
      throw new Error(`list of ${this.id} returned no resourceVersion`);
    }
    const diff = this.store.replace(items);
    this.resourceVersion = resourceVersion;
    this.options.metrics?.listed(this.id, items.length);
    logger.debug('listed', { items: items.length, resourceVersion });
    this.markSynced();
    for (const obj of diff.added) this.dispatch('add', obj);
    for (const { old, obj } of diff.updated) this.dispatch('update', obj, old);
    for (const obj of diff.deleted) this.dispatch('delete', obj);
  }

  /** Watches from the cached resourceVersion; returns how many events arrived. */
  private withTypeMeta(obj: T): T {
    if (obj.apiVersion && obj.kind) return obj;
    return {
      ...obj,
      apiVersion: apiVersionOf(this.resourceType),
      kind: this.resourceType.kind,
    };
  }

  private async watchOnce(): Promise<number> {
    const { silenceTimeoutMs, backoff } = this.options;
    const silence = new AbortController();
    // AbortSignal.any also covers a stop that happened before this point.
    const signal = AbortSignal.any([
      this.stopController.signal,
      silence.signal,
    ]);
    let silenceTimer: NodeJS.Timeout | undefined;
    const armSilenceTimer = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(
        () =>
          silence.abort(
            new WatchSilentError(
              `no event or bookmark within ${silenceTimeoutMs} ms`,
            ),
          ),
        silenceTimeoutMs,
      );
    };
    armSilenceTimer();
    let events = 0;
    try {
      await this.client.watch<T>(
        this.resourceType,
        {
          namespace: this.options.namespace,
          labelSelector: this.options.labelSelector,
          fieldSelector: this.options.fieldSelector,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: this.options.watchTimeoutSeconds(),
          signal,
          // The first successful request ends the backoff (client-go's reflector does the same).
          onConnected: () => backoff.reset(),
        },
        event => {
          events += 1;
          armSilenceTimer();
          backoff.reset();
          this.handleEvent(event);
        },
      );
      return events;
    } finally {
      clearTimeout(silenceTimer);
    }
  }

  private handleEvent(event: WatchEvent<T>): void {
    if (event.type === 'ERROR') {
      const status = event.object as unknown as Status;
      throw new KubeApiError('WATCH', this.id, status.code ?? 500, status);
    }
    const rv = event.object.metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') {
      if (rv) this.resourceVersion = rv;
      return;
    }
    const obj = this.options.transform(event.object);
    const key = keyOfObject(obj);
    if (event.type === 'DELETED') {
      this.store.delete(key);
      this.dispatch('delete', obj);
    } else {
      const old = this.store.upsert(obj);
      if (old) this.dispatch('update', obj, old);
      else this.dispatch('add', obj);
    }
    if (rv) this.resourceVersion = rv;
  }

  private dispatch(kind: 'add' | 'update' | 'delete', obj: T, old?: T): void {
    for (const handler of this.handlers) this.call(handler, kind, obj, old);
  }

  /** A throwing handler is logged; it never stops the informer or other handlers. */
  private call(
    handler: EventHandler<T>,
    kind: 'add' | 'update' | 'delete',
    obj: T,
    old?: T,
  ): void {
    try {
      if (kind === 'add') handler.add?.(obj);
      else if (kind === 'update') handler.update?.(old!, obj);
      else handler.delete?.(obj);
    } catch (err) {
      this.options.logger.error('event handler failed', {
        event: kind,
        error: err,
      });
    }
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.releaseSyncWaiters();
  }

  private releaseSyncWaiters(): void {
    const waiters = this.syncWaiters.splice(0);
    for (const w of waiters) w();
  }
}

/**
 * A late handler's replay order: the newest objects first (by
 * `creationTimestamp`, stable for equal ones), so that a controller starting
 * on a new leader reconciles what was created while no leader ran before
 * the hundreds of objects that were reconciled already.
 */
export function newestFirst<T extends KubeObject>(objects: readonly T[]): T[] {
  const created = (o: T) => o.metadata?.creationTimestamp ?? '';
  // ISO timestamps compare as strings; sort is stable for equal ones.
  return [...objects].sort((a, b) => created(b).localeCompare(created(a)));
}

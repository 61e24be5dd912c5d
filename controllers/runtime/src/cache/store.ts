import { keyOfObject } from '../kube/resource';
import type { KubeObject } from '../kube/types';

/** Returns the index values of an object (none, one or several). @public */
export type IndexFunc<T> = (obj: T) => string[];

/**
 * Whether resourceVersion `a` is newer than `b`. resourceVersions are
 * opaque, but the API server's are etcd revisions (decimal integers), which
 * client-go's mutation cache compares the same way; anything else is never
 * newer, so an unknown format only turns read-your-writes off.
 */
export function newerResourceVersion(a?: string, b?: string): boolean {
  if (!a || !/^\d+$/.test(a)) return false;
  if (b === undefined) return true;
  if (!/^\d+$/.test(b)) return false;
  return a.length !== b.length ? a.length > b.length : a > b;
}

/** How long a written object may stand in for the watch (it normally catches up in milliseconds). */
export const WRITTEN_TTL_MS = 30_000;

/** @public */
export interface ReplaceResult<T> {
  added: T[];
  updated: Array<{ old: T; obj: T }>;
  deleted: T[];
}

/**
 * The in-memory cache of one resource type: objects by `namespace/name`
 * plus any number of secondary indexes kept up to date on every change.
 * Objects in the store are shared: treat them as read-only.
 *
 * @public
 */
export class Store<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name -> index value -> keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** Objects this process wrote that the watch has not delivered yet (read-your-writes). */
  private readonly written = new Map<string, { obj: T; untilMs: number }>();

  get size(): number {
    return this.items.size;
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) {
      if (this.indexers.get(name) === fn) return;
      throw new Error(
        `an indexer named "${name}" already exists: pick another name`,
      );
    }
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, obj] of this.items) this.indexOne(name, fn, key, obj);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /**
   * The object at `key`: the newest of what the watch delivered and what
   * this process wrote itself (`noteWritten`), so a reconcile right after a
   * write does not act on the state before it and write again.
   */
  get(key: string): T | undefined {
    const cached = this.items.get(key);
    const written = this.written.get(key);
    if (!written) return cached;
    if (
      Date.now() < written.untilMs &&
      newerResourceVersion(
        written.obj.metadata?.resourceVersion,
        cached?.metadata?.resourceVersion,
      )
    )
      return written.obj;
    this.written.delete(key);
    return cached;
  }

  /**
   * Remembers the server's answer to a write of this process until the
   * watch delivers that version or a newer one (client-go's MutationCache).
   * Only `get` reads it; `list`, indexes and event handlers keep following
   * the watch, so predicates still see every change once.
   */
  noteWritten(obj: T, nowMs = Date.now()): void {
    const key = keyOfObject(obj);
    const rv = obj.metadata?.resourceVersion;
    if (
      !newerResourceVersion(rv, this.items.get(key)?.metadata?.resourceVersion)
    )
      return;
    const pending = this.written.get(key);
    if (
      pending &&
      !newerResourceVersion(rv, pending.obj.metadata?.resourceVersion)
    )
      return;
    this.written.set(key, { obj, untilMs: nowMs + WRITTEN_TTL_MS });
  }

  /** How many written objects wait for the watch (tests, metrics). */
  get pendingWrites(): number {
    return this.written.size;
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  /** Objects whose index `indexName` contains `value`. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index) {
      throw new Error(
        `no indexer named "${indexName}": add it with addIndexer before the informer starts`,
      );
    }
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys]
      .map(k => this.items.get(k))
      .filter((o): o is T => o !== undefined);
  }

  /** Inserts or replaces; returns the previous object. */
  upsert(obj: T): T | undefined {
    const key = keyOfObject(obj);
    const written = this.written.get(key);
    if (
      written &&
      !newerResourceVersion(
        written.obj.metadata?.resourceVersion,
        obj.metadata?.resourceVersion,
      )
    )
      this.written.delete(key);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) this.indexOne(name, fn, key, obj);
    return old;
  }

  /** Removes by key; returns what was there. */
  delete(key: string): T | undefined {
    this.written.delete(key);
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  /**
   * Makes the store hold exactly `objs` (after a list) and reports the
   * difference. Objects whose resourceVersion is unchanged are not updates.
   */
  replace(objs: T[]): ReplaceResult<T> {
    const result: ReplaceResult<T> = { added: [], updated: [], deleted: [] };
    const seen = new Set<string>();
    for (const obj of objs) {
      const key = keyOfObject(obj);
      seen.add(key);
      const old = this.items.get(key);
      if (!old) {
        this.upsert(obj);
        result.added.push(obj);
      } else if (
        old.metadata?.resourceVersion !== obj.metadata?.resourceVersion
      ) {
        this.upsert(obj);
        result.updated.push({ old, obj });
      }
    }
    for (const key of [...this.items.keys()]) {
      if (!seen.has(key)) result.deleted.push(this.delete(key)!);
    }
    return result;
  }

  private indexOne(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const index = this.indices.get(name)!;
    for (const value of safeIndex(fn, obj)) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const value of safeIndex(fn, obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}

/** An index function that throws must not break the cache: it indexes nothing. */
function safeIndex<T>(fn: IndexFunc<T>, obj: T): string[] {
  try {
    return fn(obj);
  } catch {
    return [];
  }
}

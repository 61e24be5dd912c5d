/**
 * Image config labels without blocking a reconcile: `lookup` answers at
 * once from memory and reads the registry in the background. Results are
 * kept per (image, who asks): the namespace and ServiceAccount whose pull
 * Secrets are the credentials (FR-027h), so one tenant's credentials never
 * answer another's lookup; the extracted configs are shared by image digest
 * (FR-027i), so a digest's config is read from the registry once. A failed
 * read is retried with backoff; a good result stays in use while a refresh
 * fails (a registry outage must not flip a running stack's base config).
 */
import type { RegistryCredential } from './image';
import {
  readImageConfig,
  type ImageConfigRead,
  type RegistryClientOptions,
} from './registry';

export type ImageConfigLookup =
  | { state: 'pending' }
  | {
      state: 'failed';
      message: string;
      /** When the next attempt starts (ms from now). */
      retryInMs: number;
    }
  | ({ state: 'read' } & ImageConfigRead);

/** A Map that forgets its least recently used entries beyond `max`. */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max)
      this.map.delete(this.map.keys().next().value as K);
  }
  get size() {
    return this.map.size;
  }
}

/** Delay before attempt `failures + 1`: `first`, doubling, at most `max`. Pure. */
export function retryDelay(failures: number, first: number, max: number) {
  return Math.min(first * 2 ** Math.min(Math.max(failures - 1, 0), 16), max);
}

type ReadFn = (
  image: string,
  credentials: readonly RegistryCredential[],
  known: (digest: string) => ImageConfigRead | undefined,
) => Promise<ImageConfigRead>;

export interface ImageConfigsOptions {
  registry?: RegistryClientOptions;
  /** The registry read (tests replace it); default `readImageConfig`. */
  read?: ReadFn;
  /** How long a good result is used before it is read again (a tag may move); default 5 min. */
  refreshMs?: number;
  /** First retry after a failure, doubling up to `maxRetryMs`; defaults 10 s and 5 min. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** Extracted configs kept, by digest; default 64. */
  maxConfigs?: number;
  /** (image, requester) results kept; default 256. */
  maxLookups?: number;
  now?: () => number;
  /** Called when a background read settles (a log line, a metric). */
  onSettled?: (
    image: string,
    requester: string,
    result: ImageConfigLookup,
  ) => void;
}

interface Entry {
  good?: ImageConfigRead;
  failure?: string;
  failures: number;
  /** When the last read settled; undefined before the first. */
  settledAt?: number;
  inflight?: Promise<void>;
}

export class ImageConfigs {
  private readonly byDigest: LruMap<string, ImageConfigRead>;
  private readonly lookups: LruMap<string, Entry>;
  private readonly read: ReadFn;
  private readonly now: () => number;

  constructor(private readonly options: ImageConfigsOptions = {}) {
    this.byDigest = new LruMap(options.maxConfigs ?? 64);
    this.lookups = new LruMap(options.maxLookups ?? 256);
    this.now = options.now ?? Date.now;
    this.read =
      options.read ??
      ((image, credentials, known) =>
        readImageConfig(image, credentials, options.registry, known));
  }

  private retryAt(entry: Entry) {
    return (
      (entry.settledAt ?? 0) +
      retryDelay(
        entry.failures,
        this.options.firstRetryMs ?? 10_000,
        this.options.maxRetryMs ?? 300_000,
      )
    );
  }

  /**
   * What is known about `image` for `requester` (`namespace/serviceAccount`),
   * starting a read when there is nothing yet or it is due. `credentials`
   * is called only when a read starts.
   */
  lookup(
    image: string,
    requester: string,
    credentials: () => Promise<readonly RegistryCredential[]>,
  ): ImageConfigLookup {
    const key = `${requester}\n${image}`;
    let entry = this.lookups.get(key);
    if (!entry) {
      entry = { failures: 0 };
      this.lookups.set(key, entry);
    }
    const now = this.now();
    const due =
      entry.settledAt === undefined ||
      (entry.failures > 0
        ? now >= this.retryAt(entry)
        : now >= entry.settledAt + (this.options.refreshMs ?? 300_000));
    if (due && !entry.inflight)
      this.start(entry, image, requester, credentials);
    return this.answer(entry);
  }

  /** Resolves when the read of `image` for `requester` in flight (if any) settles; for tests and shutdown. */
  async settled(image: string, requester: string): Promise<void> {
    await this.lookups.get(`${requester}\n${image}`)?.inflight;
  }

  private answer(entry: Entry): ImageConfigLookup {
    if (entry.good) return { state: 'read', ...entry.good };
    if (entry.failure !== undefined)
      return {
        state: 'failed',
        message: entry.failure,
        retryInMs: Math.max(0, this.retryAt(entry) - this.now()),
      };
    return { state: 'pending' };
  }

  private start(
    entry: Entry,
    image: string,
    requester: string,
    credentials: () => Promise<readonly RegistryCredential[]>,
  ) {
    const known = (digest: string) => this.byDigest.get(digest);
    entry.inflight = (async () => {
      try {
        const result = await this.read(image, await credentials(), known);
        this.byDigest.set(result.digest, result);
        entry.good = result;
        entry.failure = undefined;
        entry.failures = 0;
      } catch (err) {
        entry.failure = (err as Error)?.message ?? String(err);
        entry.failures++;
      } finally {
        entry.settledAt = this.now();
        entry.inflight = undefined;
      }
      this.options.onSettled?.(image, requester, this.answer(entry));
    })();
  }
}

/**
 * The watch-backed cache of one cluster. Informers (from the controller
 * runtime: list+watch with bookmarks, relist on 410, restart with backoff,
 * managedFields stripped) are started lazily, on the first read of a kind,
 * and then kept warm. Upstream objects are cached only when one of Runway's
 * kinds owns them; everything else of those kinds is reduced to a stub, and
 * kinds every namespace has many of (ConfigMaps, ServiceAccounts, RBAC) are
 * listed only where they carry Runway's managed-by labels.
 *
 * The cache also keeps, per resource type, whether it is failing and since
 * when: that is the data age and the per-cluster error of every answer.
 */
import {
  Informer,
  KubeClient,
  type KubeObject,
  type ListOptions,
  type KubeList,
  type Logger,
  type ResourceType,
  resourceTypeId,
  SharedInformerFactory,
  stripManagedFields,
  type WatchEvent,
  type WatchOptions,
} from '@runway-portal/controller-runtime';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  EVENTS,
  PROVIDER_CONFIGS,
  RUNWAY_GROUPS,
  type UpstreamKind,
} from '../kinds';
import {
  type ClusterError,
  type ClusterFreshness,
  type ClusterHealth,
  classifyClusterError,
  clusterHealth,
  freshnessOf,
  isNoAnswer,
  withTimeout,
} from './health';

/** What the cache knows about the list+watch of one resource type. */
interface WatchState {
  failingSince?: number;
  lastError?: unknown;
  /** The API group of the failing type. */
  group?: string;
  /** The failing type, for messages, e.g. `Model (models.airunway.ai/v1alpha1)`. */
  what?: string;
}

/**
 * A KubeClient that remembers, per resource type, whether its lists and
 * watches succeed: the informers use it, so their health becomes data.
 */
class ObservedKubeClient extends KubeClient {
  private readonly states = new Map<string, WatchState>();
  /** Called with every answer of the API server (success or an HTTP error), or `err` when none came. */
  contact: (err?: unknown) => void = () => {};
  private readonly failureListeners = new Set<(rt: ResourceType) => void>();
  private readonly healthListeners = new Set<(rt: ResourceType) => void>();

  /** Called whenever a list or watch of some type fails. */
  onFailure(listener: (rt: ResourceType) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** Called when a type's list or watch starts failing, and when it works again. */
  onHealthChange(listener: (rt: ResourceType) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  stateOf(rt: ResourceType): WatchState {
    return this.states.get(resourceTypeId(rt)) ?? {};
  }

  /** Every failing type's state (for the cluster's health). */
  failing(): WatchState[] {
    return [...this.states.values()].filter(s => s.failingSince !== undefined);
  }

  private ok(rt: ResourceType): void {
    this.contact();
    const state = this.states.get(resourceTypeId(rt));
    if (state?.failingSince !== undefined) {
      this.states.set(resourceTypeId(rt), {});
      for (const listener of this.healthListeners) listener(rt);
    }
  }

  private fail(rt: ResourceType, err: unknown, signal?: AbortSignal): void {
    if (signal?.aborted) return; // stopped on purpose
    const answered = typeof (err as { code?: number }).code === 'number';
    this.contact(answered ? undefined : err);
    if ((err as { code?: number }).code === 410) return; // too old: the informer lists again
    const id = resourceTypeId(rt);
    const prev = this.states.get(id);
    this.states.set(id, {
      failingSince: prev?.failingSince ?? Date.now(),
      lastError: err,
      group: rt.group,
      what: `${rt.kind} (${rt.group || 'core'}/${rt.version})`,
    });
    for (const listener of this.failureListeners) listener(rt);
    if (prev?.failingSince === undefined)
      for (const listener of this.healthListeners) listener(rt);
  }

  override async list<T extends KubeObject>(
    rt: ResourceType,
    opts: ListOptions = {},
  ): Promise<KubeList<T>> {
    try {
      const list = await super.list<T>(rt, opts);
      this.ok(rt);
      return list;
    } catch (err) {
      this.fail(rt, err, opts.signal);
      throw err;
    }
  }

  override async watch<T extends KubeObject>(
    rt: ResourceType,
    opts: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
  ): Promise<void> {
    try {
      // Accepted is working again, even if no event comes for a long while (a quiet kind).
      const observed: WatchOptions = {
        ...opts,
        onConnected: () => {
          this.ok(rt);
          opts.onConnected?.();
        },
      };
      await super.watch<T>(rt, observed, event => {
        this.ok(rt);
        onEvent(event);
      });
      this.ok(rt);
    } catch (err) {
      this.fail(rt, err, opts.signal);
      throw err;
    }
  }
}

/** A change seen by a watch of one of Runway's kinds (or of their events). */
export interface CacheChange {
  cluster: string;
  resourceType: ResourceType;
  type: 'added' | 'modified' | 'deleted';
  object: KubeObject;
}

export interface ClusterCacheOptions {
  name: string;
  kubeConfig: KubeConfig;
  /** Bound of every request and of the wait for a first sync. */
  requestTimeoutMs: number;
  logger: Logger;
  /** How long discovered upstream kinds are trusted before discovery runs again. */
  discoveryTtlMs?: number;
  /**
   * Time between health probes (`GET /apis/airunway.ai`: does the API server
   * answer, is Runway installed) while the cluster answers; default 5 s. While
   * it does not, the probe runs every second. This bounds how long a stopped
   * cluster can look current: probe interval + probe timeout (2 s).
   */
  healthProbeIntervalMs?: number;
}

/** The core group: a 404 on it means Runway's CRDs are not installed. */
const CORE_GROUP = 'airunway.ai';
const CORE_GROUP_PATH = `/apis/${CORE_GROUP}`;
const PROBE_TIMEOUT_MS = 2_000;
const DOWN_PROBE_INTERVAL_MS = 1_000;

/** A served upstream kind, and the label selectors it is watched with (all of its objects when unset). */
export interface UpstreamType {
  type: ResourceType;
  labelSelectors?: readonly string[];
}

export const INVOLVED_UID_INDEX = 'involved-uid';
const byInvolvedUid = (obj: KubeObject): string[] => {
  const uid = (obj as { involvedObject?: { uid?: string } }).involvedObject
    ?.uid;
  return uid ? [uid] : [];
};

export const OWNER_UID = 'runway-owner-uid';
const byOwnerUid = (obj: KubeObject): string[] =>
  (obj.metadata?.ownerReferences ?? []).map(r => r.uid);

/**
 * Keeps an upstream object only if one of Runway's kinds owns it; else a
 * stub with its key (and, for a Service, its selector: a resource's
 * endpoint Service, its operator's, says which pods are the resource's).
 */
export function keepOwnedOnly(obj: KubeObject): KubeObject {
  const owned = (obj.metadata?.ownerReferences ?? []).some(r =>
    RUNWAY_GROUPS.has(r.apiVersion.split('/')[0]),
  );
  if (owned) return stripManagedFields(obj);
  const selector = (obj.spec as { selector?: unknown } | undefined)?.selector;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: {
      name: obj.metadata?.name,
      namespace: obj.metadata?.namespace,
      resourceVersion: obj.metadata?.resourceVersion,
    },
    ...(obj.apiVersion === 'v1' && obj.kind === 'Service' && selector
      ? { spec: { selector } }
      : {}),
  };
}

function dedupeMessages(errors: ClusterError[]): ClusterError[] {
  return errors.filter(
    (e, i) => errors.findIndex(o => o.message === e.message) === i,
  );
}

export class ClusterCache {
  readonly name: string;
  /** For reads and writes of single requests. */
  readonly client: KubeClient;
  /** Only the informers use this one, so its record of failures is theirs alone. */
  private readonly watchClient: ObservedKubeClient;
  private readonly own: SharedInformerFactory;
  private readonly upstream: SharedInformerFactory;
  private readonly watched = new Set<string>();
  private readonly listeners = new Set<(change: CacheChange) => void>();
  private readonly discovered = new Map<
    string,
    { at: number; types: Promise<UpstreamType[]> }
  >();
  private readonly requestTimeoutMs: number;
  private readonly discoveryTtlMs: number;
  private readonly logger: Logger;
  // What the cache observed of the cluster as a whole (see clusterHealth).
  private lastSeen?: number;
  private downSince?: number;
  private downError?: ClusterError;
  private notInstalled = false;
  private lastState = '';
  private readonly healthListeners = new Set<(cluster: string) => void>();
  private readonly probeIntervalMs: number;
  private probeTimer?: NodeJS.Timeout;
  private stopped = false;
  /** The first probe's end: answers wait for it, so that they never say "ok" before anyone looked. */
  private readonly firstProbe: Promise<void>;

  constructor(options: ClusterCacheOptions) {
    this.name = options.name;
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.discoveryTtlMs = options.discoveryTtlMs ?? 5 * 60_000;
    this.logger = options.logger.child({ cluster: options.name });
    const clientOptions = {
      requestTimeoutMs: options.requestTimeoutMs,
      userAgent: 'runway-portal',
    };
    this.client = new KubeClient(options.kubeConfig, clientOptions);
    this.watchClient = new ObservedKubeClient(
      options.kubeConfig,
      clientOptions,
    );
    this.own = new SharedInformerFactory(this.watchClient, {
      logger: this.logger,
    });
    this.upstream = new SharedInformerFactory(this.watchClient, {
      logger: this.logger,
      transform: keepOwnedOnly,
    });
    // Informers created from now on start at once: the cache fills lazily.
    this.own.start();
    this.upstream.start();
    this.probeIntervalMs = options.healthProbeIntervalMs ?? 5_000;
    this.watchClient.contact = err => this.contact(err);
    this.watchClient.onHealthChange(() => this.healthChanged(true));
    this.firstProbe = this.probe();
  }

  /** An answer from the API server (no `err`), or a request that got none. */
  private contact(err?: unknown): void {
    const now = Date.now();
    if (err === undefined) {
      this.lastSeen = now;
      if (this.downSince !== undefined) {
        this.downSince = undefined;
        this.downError = undefined;
        this.healthChanged();
      }
      return;
    }
    const error = classifyClusterError(err, {
      cluster: this.name,
      what: 'its API',
    });
    if (!isNoAnswer(error)) return;
    this.downError = error;
    if (this.downSince === undefined) {
      this.downSince = now;
      this.healthChanged();
    }
  }

  /** One health probe, then the next one scheduled. */
  private async probe(): Promise<void> {
    try {
      const bound = Math.min(PROBE_TIMEOUT_MS, this.requestTimeoutMs);
      await withTimeout(this.name, bound, 'a probe', signal =>
        this.watchClient.request({
          method: 'GET',
          path: CORE_GROUP_PATH,
          signal,
        }),
      );
      this.setInstalled(true);
      this.contact();
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (typeof code === 'number') {
        if (code === 404) this.setInstalled(false);
        this.contact();
      } else {
        this.contact(err);
      }
    } finally {
      if (!this.stopped) {
        const next =
          this.downSince === undefined
            ? this.probeIntervalMs
            : Math.min(this.probeIntervalMs, DOWN_PROBE_INTERVAL_MS);
        this.probeTimer = setTimeout(() => void this.probe(), next);
        this.probeTimer.unref?.();
      }
    }
  }

  private setInstalled(installed: boolean): void {
    if (this.notInstalled === !installed) return;
    this.notInstalled = !installed;
    this.healthChanged();
  }

  /** Tells listeners when the cluster's state changed, or (`always`) when a watch's health did. */
  private healthChanged(always = false): void {
    const health = this.clusterHealth();
    const key = `${health.state}|${health.message}`;
    if (!always && key === this.lastState) return;
    this.lastState = key;
    for (const listener of this.healthListeners) {
      try {
        listener(this.name);
      } catch (err) {
        this.logger.error('health listener failed', { error: err });
      }
    }
  }

  /** The cluster's state from what the cache observed (see `clusterHealth`). */
  clusterHealth(): ClusterHealth {
    const failing = this.watchClient.failing();
    // A 404 listing one of the core group's kinds says it as well as the probe (whichever comes first).
    const coreMissing = failing.some(
      s =>
        s.group === CORE_GROUP &&
        (s.lastError as { code?: number }).code === 404,
    );
    const problems = failing
      .map(s =>
        classifyClusterError(s.lastError, {
          cluster: this.name,
          what: s.what ?? 'a kind',
          collection: true,
        }),
      )
      // No answer is the cluster's state; a kind not installed (an optional operator) is the answer's error.
      .filter(e => !isNoAnswer(e) && e.reason !== 'NotInstalled');
    const providers = this.informer(PROVIDER_CONFIGS);
    return clusterHealth({
      cluster: this.name,
      lastSeen: this.lastSeen,
      downSince: this.downSince,
      downError: this.downError,
      notInstalled: this.notInstalled || coreMissing,
      problems: dedupeMessages(problems),
      ...(providers.hasSynced()
        ? {
            providers: providers.store.list().map(p => ({
              name: p.metadata?.name ?? '',
              ready:
                (p.status as { ready?: boolean } | undefined)?.ready === true,
            })),
          }
        : {}),
    });
  }

  /** Waits until the first probe ended (at most `timeoutMs`; the probe itself is bounded too). */
  private async stateKnown(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.firstProbe,
      new Promise<void>(resolve => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Subscribes to changes of Runway's kinds and their events in this cluster. */
  onChange(listener: (change: CacheChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribes to this cluster's watches starting to fail or working again:
   * answers about the cluster change then although no object did.
   */
  onHealthChange(listener: (cluster: string) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  /** The informer of one of Runway's kinds (or providers), started on first use. */
  informer(
    rt: ResourceType,
    selector: { fieldSelector?: string } = {},
  ): Informer<KubeObject> {
    const informer = this.own.informerFor<KubeObject>(rt, selector);
    const id = `${resourceTypeId(rt)}|${selector.fieldSelector ?? ''}`;
    if (!this.watched.has(id)) {
      this.watched.add(id);
      if (rt.kind === EVENTS.kind)
        informer.addIndexer(INVOLVED_UID_INDEX, byInvolvedUid);
      // The first list of a lazily started informer is not news: only later changes are.
      // (The informer dispatches that list synchronously before sync waiters run.)
      let listed = false;
      informer.waitForSync().then(() => {
        listed = true;
      });
      informer.addEventHandler({
        add: obj => listed && this.emit(rt, 'added', obj),
        update: (_old, obj) => this.emit(rt, 'modified', obj),
        delete: obj => this.emit(rt, 'deleted', obj),
      });
    }
    return informer;
  }

  /** Events of objects of one kind (e.g. all ModelDeployment events), indexed by the object's uid. */
  eventsInformer(kind: string): Informer<KubeObject> {
    return this.informer(EVENTS, {
      fieldSelector: `involvedObject.kind=${kind}`,
    });
  }

  /**
   * An upstream kind's informers (owned objects only), indexed by owner uid:
   * one for the whole kind, or one per label selector when the kind is
   * watched only where it carries Runway's labels.
   */
  upstreamInformers(upstream: UpstreamType): Array<Informer<KubeObject>> {
    const selectors = upstream.labelSelectors ?? [undefined];
    return selectors.map(labelSelector => {
      const informer = this.upstream.informerFor<KubeObject>(
        upstream.type,
        labelSelector ? { labelSelector } : {},
      );
      if (!informer.store.hasIndexer(OWNER_UID))
        informer.addIndexer(OWNER_UID, byOwnerUid);
      return informer;
    });
  }

  /**
   * Waits until `informer` holds a full list, at most the bound, and no
   * longer than until its list or watch fails: a failing cluster is reported
   * at once instead of holding every answer for the whole bound. Returns
   * whether the informer is synced.
   */
  async waitForSync(
    informer: Informer<KubeObject>,
    timeoutMs = this.requestTimeoutMs,
  ): Promise<boolean> {
    // The answer also says the cluster's state: the first probe runs alongside, in the same bound.
    const known = this.stateKnown(timeoutMs);
    try {
      return await this.waitForList(informer, timeoutMs);
    } finally {
      await known;
    }
  }

  private async waitForList(
    informer: Informer<KubeObject>,
    timeoutMs: number,
  ): Promise<boolean> {
    if (informer.hasSynced()) return true;
    const id = resourceTypeId(informer.resourceType);
    if (
      this.watchClient.stateOf(informer.resourceType).failingSince !== undefined
    )
      return false;
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: (() => void) | undefined;
    const givenUp = new Promise<false>(resolve => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      unsubscribe = this.watchClient.onFailure(rt => {
        if (resourceTypeId(rt) === id) resolve(false);
      });
    });
    try {
      return await Promise.race([
        informer.waitForSync().then(() => informer.hasSynced()),
        givenUp,
      ]);
    } finally {
      clearTimeout(timer);
      unsubscribe?.();
    }
  }

  /** Freshness and, when failing or not synced, the error of one informer. */
  health(
    informer: Informer<KubeObject>,
    what: string,
    now = Date.now(),
  ): { freshness: ClusterFreshness; error?: ClusterError } {
    const state = this.watchClient.stateOf(informer.resourceType);
    const synced = informer.hasSynced();
    const freshness = freshnessOf(
      this.clusterHealth(),
      { cluster: this.name, synced, failingSince: state.failingSince },
      now,
    );
    if (state.failingSince !== undefined) {
      return {
        freshness,
        error: classifyClusterError(state.lastError, {
          cluster: this.name,
          what,
          collection: true,
        }),
      };
    }
    if (!synced) {
      return {
        freshness,
        error: {
          cluster: this.name,
          reason: 'Syncing',
          message: `cluster "${this.name}" has not finished listing ${what} yet; retry in a moment`,
        },
      };
    }
    return { freshness };
  }

  /**
   * The served resource types among `kinds`: core kinds as given, custom
   * kinds through discovery of their group's preferred version. Cached for
   * a while so that CRDs installed later are found.
   */
  async upstreamTypes(
    key: string,
    kinds: readonly UpstreamKind[],
  ): Promise<UpstreamType[]> {
    const cached = this.discovered.get(key);
    if (cached && Date.now() - cached.at < this.discoveryTtlMs)
      return cached.types;
    const types = Promise.all(
      kinds.map(async (k): Promise<UpstreamType | undefined> => {
        const type = await this.resolveUpstream(k);
        return (
          type && {
            type,
            ...(k.labelSelectors ? { labelSelectors: k.labelSelectors } : {}),
          }
        );
      }),
    ).then(list => list.filter((t): t is UpstreamType => t !== undefined));
    this.discovered.set(key, { at: Date.now(), types });
    types.catch(() => this.discovered.delete(key));
    return types;
  }

  private async resolveUpstream(
    k: UpstreamKind,
  ): Promise<ResourceType | undefined> {
    if (k.version && k.plural) {
      return {
        group: k.group,
        version: k.version,
        kind: k.kind,
        plural: k.plural,
        namespaced: true,
      };
    }
    try {
      const group = await withTimeout(
        this.name,
        this.requestTimeoutMs,
        `discovery of ${k.group}`,
        signal =>
          this.client.request<{ preferredVersion?: { version?: string } }>({
            method: 'GET',
            path: `/apis/${k.group}`,
            signal,
          }),
      );
      const version = group.preferredVersion?.version;
      if (!version) return undefined;
      return await this.client.resolve(`${k.group}/${version}`, k.kind);
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined; // not installed here
      if (err instanceof Error && /does not serve kind/.test(err.message))
        return undefined;
      throw err;
    }
  }

  private emit(
    rt: ResourceType,
    type: CacheChange['type'],
    object: KubeObject,
  ): void {
    for (const listener of this.listeners) {
      try {
        listener({ cluster: this.name, resourceType: rt, type, object });
      } catch (err) {
        this.logger.error('change listener failed', { error: err });
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.probeTimer);
    await Promise.all([this.own.stop(), this.upstream.stop()]);
    this.client.close();
    this.watchClient.close();
  }
}

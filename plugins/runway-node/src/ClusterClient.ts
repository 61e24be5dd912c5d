/**
 * One client over every configured cluster, shared by the REST API and the
 * scaffolder actions. Reads come from a watch-backed cache per cluster;
 * writes go to the API server with server-side apply under the portal's
 * field manager. Answers that span clusters carry per-cluster errors and the
 * age of each cluster's data, and never wait on a cluster longer than the
 * configured bound.
 *
 * Authorization of the calling user is the caller's job (the backend checks
 * Backstage permissions with the user's credentials); this client enforces
 * what configuration says: which clusters exist, and each cluster's
 * namespace allow-list.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
} from '@backstage/errors';
import {
  type KubeObject,
  type ResourceType,
  resourcePath,
} from '@runway-portal/controller-runtime';
import type {
  SecretNamesAnswer,
  StorageClassesAnswer,
  ApiCondition,
  ClusterAnswer,
  ClusterDescription,
  ClusterOverview,
  ClustersAnswer,
  DetailAnswer,
  GpuCapacity,
  InferenceProviderConfig,
  ListAnswer,
  ListedObject as ContractListedObject,
  ValidationIssue,
  WriteAnswer,
  DoctorReport,
} from '@runway-portal/plugin-runway-common';
import {
  ClusterCache,
  INVOLVED_UID_INDEX,
  OWNER_UID,
  type CacheChange,
  type UpstreamType,
} from './cluster/ClusterCache';
import {
  gpuCapacity,
  isGpuResource,
  type NodeLike,
  type PodLike,
} from './cluster/gpu';
import {
  type ClusterError,
  type ClusterFreshness,
  classifyClusterError,
  withTimeout,
} from './cluster/health';
import { runtimeLogger } from './cluster/logger';
import { ClusterDoctor, type DoctorOptions } from './cluster/doctor';
import { METADATA_LIST, storageClassSummaries } from './cluster/storageClasses';
import { summarizeProviders } from './cluster/providers';
import { kubeConfigFor } from './config/kubeConfigFor';
import type { ClusterConfigProblem, ClusterSpec } from './config/readClusters';
import {
  ClusterUnavailableError,
  ResourceInvalidError,
  toPortalError,
} from './errors';
import {
  EVENTS,
  KIND_INFO,
  NODES,
  PODS,
  PROVIDER_CONFIGS,
  type RunwayKind,
  resourceTypeOf,
  UPSTREAM_KINDS,
} from './kinds';
import { hasErrors, updateIssuesOf, validateResourceBody } from './validation';
import {
  type ChatRequest,
  dedupeIssues,
  isRecord,
  LOG_BYTES_MAX,
  type LogQuery,
  type PodsAnswer,
  type PodSummary,
} from '@runway-portal/plugin-runway-common';
import type { IncomingMessage } from 'node:http';
import {
  endpointServiceName,
  INJECTED_PODS_SELECTOR,
  podBelongs,
  podSelectors,
  podUsesModel,
  podSummary,
  sortPods,
} from './cluster/pods';
import { chatProxyPath, chatTarget, upstreamChatBody } from './cluster/chat';

/** The field manager of every write the portal makes. @public */
export const PORTAL_FIELD_MANAGER = 'runway-portal';

/** @public */
export interface ResourceRef {
  cluster: string;
  namespace: string;
  name: string;
}

// The answers are the REST contract's (runway-common), with this side's object type: the backend
// sends them as they are, so a change to the contract that this client does not follow fails `tsc`.

/** What every multi-cluster answer carries besides its data. */
export type {
  ClusterAnswer,
  ClusterDescription,
} from '@runway-portal/plugin-runway-common';

/** A resource and the cluster it is in. @public */
export type ListedObject = ContractListedObject<KubeObject>;

/** @public */
export type ListResult = ListAnswer<KubeObject>;

/** @public */
export interface ListOptions {
  /** Only these clusters (default all). */
  clusters?: string[];
  namespace?: string;
}

/** A resource with its conditions, its events and those of what it owns, and the objects it owns. @public */
export type ResourceDetail = DetailAnswer<KubeObject>;

export type { ClusterOverview } from '@runway-portal/plugin-runway-common';

/** @public */
export type OverviewResult = ClustersAnswer;

/** What a write returns: the object as the API server stored it (or would, in a dry run), and advice (the contract's write answer without what the route adds). @public */
export type WriteResult = Pick<WriteAnswer<KubeObject>, 'object' | 'warnings'>;

/** @public */
export interface WriteOptions {
  /** Server-side dry run: everything is checked, nothing is stored. */
  dryRun?: boolean;
}

/** @public */
export interface UpdateOptions extends WriteOptions {
  /** Take over fields other writers own instead of failing with a conflict. */
  force?: boolean;
}

/** A change in a cluster, as much as anyone may see without reading the object. @public */
export interface ResourceChange {
  cluster: string;
  kind: RunwayKind;
  namespace: string;
  /** `health`: the cluster became unreachable or reachable again; no object changed. */
  type: 'added' | 'modified' | 'deleted' | 'health';
  /** True when the change is to one of the resource's events, not to the resource. */
  event: boolean;
}

/** @public */
export interface ClusterClient {
  /** The configured clusters that can be used. */
  listClusters(): ClusterDescription[];
  /** Health, providers and GPU capacity of the clusters. */
  overview(options?: { clusters?: string[] }): Promise<OverviewResult>;
  list(kind: RunwayKind, options?: ListOptions): Promise<ListResult>;
  get(kind: RunwayKind, ref: ResourceRef): Promise<ResourceDetail>;
  /** Checks a body with runway-common; returns every issue (errors block writes). */
  validate(
    kind: RunwayKind,
    body: unknown,
    target?: { namespace?: string; name?: string },
  ): ValidationIssue[];
  create(
    kind: RunwayKind,
    cluster: string,
    body: unknown,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  update(
    kind: RunwayKind,
    ref: ResourceRef,
    body: unknown,
    options?: UpdateOptions,
  ): Promise<WriteResult>;
  delete(kind: RunwayKind, ref: ResourceRef): Promise<void>;
  /** Provider registrations of one cluster, from the cache. */
  providerConfigs(cluster: string): Promise<KubeObject[]>;
  /**
   * The doctor's checks of a cluster as last run in the background; with
   * `refresh`, run now (or join the run in progress).
   */
  doctor(
    cluster: string,
    options?: { refresh?: boolean },
  ): Promise<DoctorReport>;
  /** The cluster's StorageClasses, the default first (read from the API server). */
  storageClasses(cluster: string): Promise<StorageClassesAnswer>;
  /** The names of a namespace's Secrets: a metadata-only list, so no Secret value ever reaches the portal. */
  secretNames(cluster: string, namespace: string): Promise<SecretNamesAnswer>;
  /** Called for every change of a deployment, model or stack (or their events) in a watched cluster. */
  onChange(listener: (change: ResourceChange) => void): () => void;
  /**
   * The resource's pods, found by label (its endpoint Service's selector, its
   * workloads', from the watch cache), listed live.
   */
  resourcePods(
    kind: RunwayKind,
    ref: ResourceRef,
    onStep?: (step: string) => void,
  ): Promise<PodsAnswer>;
  /**
   * The resource's log as the Logs tab opens it, in one call: its pods, and
   * the first pod's log (its first container unless `query.container`) when
   * it has a pod; `error` when that log cannot be read (the pods are still
   * known).
   */
  resourceLog(
    kind: RunwayKind,
    ref: ResourceRef,
    query: LogQuery,
    options?: PodLogOptions,
  ): Promise<ResourceLogStream>;
  /**
   * One container's log of one of the resource's pods, read with the
   * portal's credentials: the open response (the caller bounds and ends it).
   * A pod that is not the resource's is refused before anything is read.
   */
  podLog(
    kind: RunwayKind,
    ref: ResourceRef,
    pod: string,
    query: LogQuery,
    options?: PodLogOptions,
  ): Promise<PodLogStream>;
  /**
   * "Try it": sends a chat request to a Running deployment's Service through
   * the API server's service proxy (`services/proxy`, the portal's
   * credentials) with the model it serves and `stream: true`: the open
   * response (server-sent events; the caller bounds and ends it). A
   * deployment that is not Running is refused (409) before anything is sent.
   */
  chat(
    ref: ResourceRef,
    request: ChatRequest,
    signal?: AbortSignal,
  ): Promise<ChatStream>;
}

/** An open chat answer: the model it was asked of and the model server's response, as proxied. @public */
export interface ChatStream {
  model: string;
  stream: IncomingMessage;
}

/** @public */
export interface PodLogOptions {
  /** Ends the read (the client went). */
  signal?: AbortSignal;
  /**
   * Called as each step ends, with its name (the backend's `Server-Timing`):
   * `resolve` (the resource's pod selectors, from the cache), `pod` (the pod
   * read and checked to be the resource's) or `pods` (the resource's pods
   * listed), `open` (the API server answered `pods/log`).
   */
  onStep?: (step: string) => void;
}

/** The resource's pods and, when it has one, its first pod's open log (see `resourceLog`). @public */
export interface ResourceLogStream {
  pods: PodsAnswer;
  pod?: string;
  container?: string;
  stream?: IncomingMessage;
  /** Why the first pod's log could not be opened (the portal's error, as `podLog` throws it). */
  error?: Error;
}

/** An open pod log: the container read and the API server's response (text, one line per entry). @public */
export interface PodLogStream {
  container: string;
  stream: IncomingMessage;
}

/** @public */
export interface ClusterClientOptions {
  clusters: ClusterSpec[];
  problems: ClusterConfigProblem[];
  requestTimeoutMs: number;
  logger: LoggerService;
  /** How long a cluster's GPU capacity is reused; default 10 s. */
  gpuCacheTtlMs?: number;
  /** Time between health probes of each cluster; default 5 s (see ClusterCacheOptions). */
  healthProbeIntervalMs?: number;
  /** The doctor's background runs (interval, bound, the controllers' namespace); see cluster/doctor.ts. */
  doctor?: DoctorOptions;
}

function eventTime(e: KubeObject): string {
  const x = e as {
    lastTimestamp?: string;
    eventTime?: string;
    firstTimestamp?: string;
  };
  return (
    x.lastTimestamp ??
    x.eventTime ??
    x.firstTimestamp ??
    e.metadata?.creationTimestamp ??
    ''
  );
}

/** What the portal sends: the user's object without fields the API server owns. @public */
export function toApplyBody(body: Record<string, unknown>): KubeObject {
  const { status: _status, ...rest } = body;
  const metadata = isRecord(rest.metadata) ? { ...rest.metadata } : {};
  for (const key of [
    'uid',
    'creationTimestamp',
    'generation',
    'managedFields',
    'selfLink',
    'deletionTimestamp',
  ]) {
    delete metadata[key];
  }
  return { ...rest, metadata } as KubeObject;
}

function throwIfInvalid(kind: string, issues: ValidationIssue[]): void {
  if (!hasErrors(issues)) return;
  const errors = issues.filter(i => i.severity === 'error');
  throw new ResourceInvalidError(
    `the ${kind} is not valid: ${errors
      .map(i => `${i.path}: ${i.message}`)
      .join('; ')}`,
    issues,
  );
}

const SERVICES: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'services',
  kind: 'Service',
  namespaced: true,
};

/**
 * The API server's answers about a log in the user's terms: 400 is what the
 * kubelet says (no previous container, container not started yet), a 5xx
 * from the log proxy means the pod's node does not serve logs now.
 */
function logError(err: unknown, ctx: { cluster: string; what: string }): Error {
  const code = (err as { code?: number }).code;
  const detail =
    (err as { status?: { message?: string } }).status?.message ??
    (err instanceof Error ? err.message : String(err));
  if (code === 400) {
    return new InputError(
      `no log yet: cluster "${ctx.cluster}" cannot give ${ctx.what}: ${detail}`,
    );
  }
  if (code !== undefined && code >= 500) {
    return new ClusterUnavailableError(
      `the node of the pod did not serve ${ctx.what} (cluster "${ctx.cluster}" answered ${code}: ${detail}); the pod may not have started yet, or its node is unreachable`,
      ctx.cluster,
      'Error',
    );
  }
  return toPortalError(err, ctx);
}

/** A failed chat request: the model server's or the proxy's own answer, named. */
function chatError(
  err: unknown,
  ctx: { cluster: string; what: string },
): Error {
  const code = (err as { code?: number }).code;
  const detail =
    (err as { status?: { message?: string } }).status?.message ??
    (err instanceof Error ? err.message : String(err));
  if (code === 400 || code === 422) {
    return new InputError(
      `the model server refused the request: ${ctx.what} answered ${code}: ${detail}`,
    );
  }
  if (code !== undefined && code >= 500) {
    return new ClusterUnavailableError(
      `${ctx.what} did not answer (cluster "${ctx.cluster}" answered ${code}: ${detail}); the model server may still be starting or have no ready pod`,
      ctx.cluster,
      'Error',
    );
  }
  return toPortalError(err, ctx);
}

/** @public */
export class DefaultClusterClient implements ClusterClient {
  private readonly specs = new Map<string, ClusterSpec>();
  private readonly caches = new Map<string, ClusterCache>();
  private readonly broken = new Map<string, string>();
  private readonly listeners = new Set<(change: ResourceChange) => void>();
  private readonly gpuCache = new Map<
    string,
    { at: number; value: Promise<GpuCapacity[]> }
  >();
  /** The last capacity each cluster answered: an unreachable cluster's card shows it, marked stale. */
  private readonly lastGpus = new Map<string, GpuCapacity[]>();
  private readonly requestTimeoutMs: number;
  private readonly gpuCacheTtlMs: number;
  private readonly logger: LoggerService;
  private readonly doctorRunner: ClusterDoctor;

  constructor(options: ClusterClientOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.gpuCacheTtlMs = options.gpuCacheTtlMs ?? 10_000;
    this.logger = options.logger;
    for (const problem of options.problems) {
      this.logger.warn(
        `runway cluster configuration: ${problem.path}: ${problem.message}`,
      );
      if (
        problem.cluster &&
        !options.clusters.some(c => c.name === problem.cluster)
      ) {
        this.broken.set(problem.cluster, `${problem.path}: ${problem.message}`);
      }
    }
    for (const spec of options.clusters) {
      try {
        const cache = new ClusterCache({
          name: spec.name,
          kubeConfig: kubeConfigFor(spec),
          requestTimeoutMs: this.requestTimeoutMs,
          logger: runtimeLogger(this.logger),
          healthProbeIntervalMs: options.healthProbeIntervalMs,
        });
        cache.onChange(change => this.forward(change));
        cache.onHealthChange(cluster => this.forwardHealth(cluster));
        this.specs.set(spec.name, spec);
        this.caches.set(spec.name, cache);
      } catch (err) {
        const message = `${spec.configPath}: ${
          err instanceof Error ? err.message : String(err)
        }`;
        this.logger.warn(`runway cluster configuration: ${message}`);
        this.broken.set(spec.name, message);
      }
    }
    this.doctorRunner = new ClusterDoctor(
      () => new Map([...this.caches].map(([name, c]) => [name, c.client])),
      {
        ...options.doctor,
        onError: (cluster, message) =>
          this.logger.debug(`runway doctor, cluster ${cluster}: ${message}`),
      },
    );
    this.doctorRunner.start();
  }

  listClusters(): ClusterDescription[] {
    return [...this.specs.values()].map(s => ({
      name: s.name,
      title: s.title ?? s.name,
      ...(s.namespaces ? { namespaces: s.namespaces } : {}),
    }));
  }

  onChange(listener: (change: ResourceChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- reads -----------------------------------------------------------------

  async list(kind: RunwayKind, options: ListOptions = {}): Promise<ListResult> {
    const info = KIND_INFO[kind];
    const rt = resourceTypeOf(info);
    const { targets, errors } = this.targets(options.clusters);
    const clusters: ClusterFreshness[] = [];
    const items: ListedObject[] = [];
    await Promise.all(
      targets.map(async cache => {
        const informer = cache.informer(rt);
        await cache.waitForSync(informer);
        const health = cache.health(
          informer,
          `${info.kind} (${rt.group}/${rt.version})`,
        );
        clusters.push(health.freshness);
        if (health.error) errors.push(health.error);
        if (!informer.hasSynced()) return;
        for (const object of informer.store.list()) {
          const ns = object.metadata?.namespace ?? '';
          if (options.namespace && ns !== options.namespace) continue;
          if (!this.namespaceAllowed(cache.name, ns)) continue;
          items.push({ cluster: cache.name, object });
        }
      }),
    );
    return { items, ...this.ordered(clusters, errors) };
  }

  async get(kind: RunwayKind, ref: ResourceRef): Promise<ResourceDetail> {
    const info = KIND_INFO[kind];
    const cache = this.cacheFor(ref.cluster);
    this.assertNamespaceAllowed(ref.cluster, ref.namespace);
    // One bound for the whole answer, shared by the steps below.
    const deadline = Date.now() + this.requestTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    const { object, health } = await this.resourceObject(
      cache,
      kind,
      ref,
      left,
    );
    const errors: ClusterError[] = health.error ? [health.error] : [];

    const uid = object.metadata?.uid ?? '';
    const [ownEvents, owned] = await Promise.all([
      this.cachedEvents(cache, info.kind, uid, errors, left),
      this.ownedObjects(cache, kind, uid, errors, left),
    ]);
    const ownedEvents = await this.liveEvents(
      cache,
      ref.namespace,
      owned,
      errors,
      left,
    );
    const events = [...ownEvents, ...ownedEvents].sort((a, b) =>
      eventTime(b).localeCompare(eventTime(a)),
    );
    const status = isRecord(object.status) ? object.status : {};
    return {
      cluster: ref.cluster,
      object,
      conditions: Array.isArray(status.conditions)
        ? (status.conditions.filter(isRecord) as ApiCondition[])
        : [],
      events,
      owned,
      clusters: [health.freshness],
      errors,
    };
  }

  /** The resource from the watch cache, or one bounded read while the cache is not synced; NotFoundError when it does not exist. */
  private async resourceObject(
    cache: ClusterCache,
    kind: RunwayKind,
    ref: ResourceRef,
    left: () => number,
  ) {
    const info = KIND_INFO[kind];
    const rt = resourceTypeOf(info);
    const what = `${info.kind} ${ref.namespace}/${ref.name}`;
    const informer = cache.informer(rt);
    await cache.waitForSync(informer, left());
    const health = cache.health(
      informer,
      `${info.kind} (${rt.group}/${rt.version})`,
    );
    let object = informer.hasSynced()
      ? informer.store.get(`${ref.namespace}/${ref.name}`)
      : undefined;
    if (!informer.hasSynced()) {
      // No cache yet: one bounded read, so a detail page works while the list is still loading.
      try {
        object = await withTimeout(ref.cluster, left(), what, signal =>
          cache.client.request<KubeObject>({
            method: 'GET',
            path: resourcePath(rt, {
              namespace: ref.namespace,
              name: ref.name,
            }),
            signal,
          }),
        );
      } catch (err) {
        throw toPortalError(err, { cluster: ref.cluster, what });
      }
    }
    if (!object)
      throw new NotFoundError(`${what} not found in cluster "${ref.cluster}"`);
    return { object, health };
  }

  async providerConfigs(cluster: string): Promise<KubeObject[]> {
    const cache = this.cacheFor(cluster);
    const informer = cache.informer(PROVIDER_CONFIGS);
    await cache.waitForSync(informer);
    const health = cache.health(
      informer,
      'InferenceProviderConfig (airunway.ai/v1alpha1)',
    );
    if (!informer.hasSynced()) {
      throw new ClusterUnavailableError(
        health.error?.message ?? `cluster "${cluster}" is not synced`,
        cluster,
        health.error?.reason ?? 'Syncing',
      );
    }
    return informer.store.list();
  }

  async doctor(
    cluster: string,
    options: { refresh?: boolean } = {},
  ): Promise<DoctorReport> {
    this.cacheFor(cluster);
    if (options.refresh) return this.doctorRunner.run(cluster);
    return this.doctorRunner.report(cluster)!;
  }

  async storageClasses(cluster: string): Promise<StorageClassesAnswer> {
    const cache = this.cacheFor(cluster);
    const list = await this.direct(cluster, 'its storage classes', signal =>
      cache.client.request<{ items?: KubeObject[] }>({
        method: 'GET',
        path: '/apis/storage.k8s.io/v1/storageclasses',
        signal,
      }),
    );
    return { cluster, items: storageClassSummaries(list.items ?? []) };
  }

  async secretNames(
    cluster: string,
    namespace: string,
  ): Promise<SecretNamesAnswer> {
    const cache = this.cacheFor(cluster);
    this.assertNamespaceAllowed(cluster, namespace);
    const list = await this.direct(
      cluster,
      `the Secret names of namespace ${namespace}`,
      signal =>
        cache.client.request<{ items?: KubeObject[] }>({
          method: 'GET',
          path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
          // Metadata only: the API server never sends the data.
          accept: METADATA_LIST,
          signal,
        }),
    );
    const items = (list.items ?? [])
      .map(s => s.metadata?.name ?? '')
      .filter(Boolean)
      .sort()
      .map(name => ({ name }));
    return { cluster, namespace, items };
  }

  /** A request to the API server within the bound; a failure is the cluster's, classified (503 with the reason). */
  private async direct<T>(
    cluster: string,
    what: string,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    try {
      return await withTimeout(cluster, this.requestTimeoutMs, what, work);
    } catch (err) {
      const classified = classifyClusterError(err, { cluster, what });
      throw new ClusterUnavailableError(
        classified.message,
        cluster,
        classified.reason,
      );
    }
  }

  async overview(
    options: { clusters?: string[] } = {},
  ): Promise<OverviewResult> {
    const { targets, errors } = this.targets(options.clusters);
    const clusters: ClusterFreshness[] = [];
    const items = await Promise.all(
      targets.map(async (cache): Promise<ClusterOverview> => {
        const spec = this.specs.get(cache.name)!;
        const [version, providers, gpus] = await Promise.all([
          this.serverVersion(cache).catch(err => {
            errors.push(
              classifyClusterError(err, {
                cluster: cache.name,
                what: 'its version',
              }),
            );
            return undefined;
          }),
          this.providerSummaries(cache, clusters, errors),
          this.gpus(cache).then(
            capacity => {
              this.lastGpus.set(cache.name, capacity);
              return capacity;
            },
            err => {
              errors.push(
                classifyClusterError(err, {
                  cluster: cache.name,
                  what: 'nodes and pods',
                  collection: true,
                }),
              );
              return this.lastGpus.get(cache.name) ?? [];
            },
          ),
        ]);
        return {
          name: spec.name,
          title: spec.title ?? spec.name,
          ...(spec.namespaces ? { namespaces: spec.namespaces } : {}),
          reachable: version !== undefined,
          ...(version ? { version } : {}),
          providers,
          gpus,
          ...this.doctorOf(cache.name),
        };
      }),
    );
    return { items, ...this.ordered(clusters, errors) };
  }

  // ---- writes ----------------------------------------------------------------

  validate(
    kind: RunwayKind,
    body: unknown,
    target: { namespace?: string; name?: string } = {},
  ): ValidationIssue[] {
    return validateResourceBody(kind, body, target);
  }

  async create(
    kind: RunwayKind,
    cluster: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const { cache, object, rt, what, ref, warnings } = this.prepareWrite(
      kind,
      cluster,
      body,
      {},
    );
    const existing = await this.readLive(cache, rt, ref, what);
    if (existing) {
      throw new ConflictError(
        `${what} already exists in cluster "${cluster}": update it instead, or choose another name`,
      );
    }
    return {
      object: await this.apply(cache, rt, object, what, {
        dryRun: options.dryRun,
      }),
      warnings,
    };
  }

  async update(
    kind: RunwayKind,
    ref: ResourceRef,
    body: unknown,
    options: UpdateOptions = {},
  ): Promise<WriteResult> {
    const { cache, object, rt, what, warnings } = this.prepareWrite(
      kind,
      ref.cluster,
      body,
      {
        namespace: ref.namespace,
        name: ref.name,
      },
    );
    const existing = await this.readLive(cache, rt, ref, what);
    if (!existing) {
      throw new NotFoundError(
        `${what} not found in cluster "${ref.cluster}": create it instead`,
      );
    }
    // Rules that compare with what exists (immutable fields, identity changes) need the stored object.
    const updateIssues = updateIssuesOf(kind, existing, body);
    throwIfInvalid(KIND_INFO[kind].kind, updateIssues);
    const allWarnings = [
      ...warnings,
      ...updateIssues.filter(i => i.severity === 'warning'),
    ];
    return {
      object: await this.apply(cache, rt, object, what, options),
      warnings: dedupeIssues(allWarnings),
    };
  }

  async delete(kind: RunwayKind, ref: ResourceRef): Promise<void> {
    const info = KIND_INFO[kind];
    const cache = this.cacheFor(ref.cluster);
    this.assertNamespaceAllowed(ref.cluster, ref.namespace);
    const what = `${info.kind} ${ref.namespace}/${ref.name}`;
    try {
      await cache.client.delete(resourceTypeOf(info), ref, {
        propagationPolicy: 'Background',
      });
    } catch (err) {
      throw toPortalError(err, { cluster: ref.cluster, what });
    }
  }

  /**
   * The label selectors of a resource's pods, from the watch cache: the
   * resource, the workloads it owns, and its endpoint Service (Services are
   * cached with their selector). The API server is read only while a cache
   * is not synced yet.
   */
  private async podSelectorsOf(
    cache: ClusterCache,
    kind: RunwayKind,
    ref: ResourceRef,
  ): Promise<string[]> {
    this.assertNamespaceAllowed(ref.cluster, ref.namespace);
    const deadline = Date.now() + this.requestTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    const { object } = await this.resourceObject(cache, kind, ref, left);
    const [owned, service] = await Promise.all([
      // A kind not synced leaves its objects out (as on the detail page); the Service's selector still finds pods.
      this.ownedObjects(cache, kind, object.metadata?.uid ?? '', [], left),
      this.endpointService(cache, kind, ref, object, left),
    ]);
    const selectors = podSelectors(owned, service);
    // A model's pods are its download Job's and the pods that mount it (injected, naming it).
    if (kind === 'models') selectors.push(INJECTED_PODS_SELECTOR);
    return selectors;
  }

  /** The Service a resource reports as its endpoint: from the Services' cache, else read (404: none yet). */
  private async endpointService(
    cache: ClusterCache,
    kind: RunwayKind,
    ref: ResourceRef,
    object: KubeObject,
    left: () => number,
  ): Promise<KubeObject | undefined> {
    const name = endpointServiceName(object);
    if (!name) return undefined;
    const types = await cache
      .upstreamTypes(kind, UPSTREAM_KINDS[kind])
      .catch(() => [] as UpstreamType[]);
    const services = types.find(
      t => t.type.group === '' && t.type.kind === SERVICES.kind,
    );
    const informer = services && cache.upstreamInformers(services)[0];
    if (informer && (await cache.waitForSync(informer, left())))
      return informer.store.get(`${ref.namespace}/${name}`);
    const what = `Service ${ref.namespace}/${name}`;
    try {
      return await withTimeout(ref.cluster, left(), what, signal =>
        cache.client.get<KubeObject>(
          SERVICES,
          { namespace: ref.namespace, name },
          signal,
        ),
      );
    } catch (err) {
      // Not created yet: the workloads' selectors may still find pods.
      if ((err as { code?: number }).code === 404) return undefined;
      throw toPortalError(err, { cluster: ref.cluster, what });
    }
  }

  /** A bounded live read of one cluster, its failure in the portal's terms. */
  private async live<T>(
    cluster: string,
    what: string,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    try {
      return await withTimeout(cluster, this.requestTimeoutMs, what, work);
    } catch (err) {
      throw toPortalError(err, { cluster, what });
    }
  }

  async resourcePods(
    kind: RunwayKind,
    ref: ResourceRef,
    onStep: (step: string) => void = () => {},
  ): Promise<PodsAnswer> {
    const cache = this.cacheFor(ref.cluster);
    const selectors = await this.podSelectorsOf(cache, kind, ref);
    onStep('resolve');
    const lists = await Promise.all(
      selectors.map(labelSelector =>
        this.live(ref.cluster, `pods matching ${labelSelector}`, signal =>
          cache.client.list<KubeObject>(PODS, {
            namespace: ref.namespace,
            labelSelector,
            signal,
          }),
        ).then(list =>
          labelSelector === INJECTED_PODS_SELECTOR
            ? list.items.filter(p => podUsesModel(p, ref.name))
            : list.items,
        ),
      ),
    );
    onStep('pods');
    // Each pod ranked by the first selector that found it: the model servers come first.
    const rank = new Map<string, number>();
    const byName = new Map<string, KubeObject>();
    lists.forEach((pods, i) => {
      for (const pod of pods) {
        const name = pod.metadata?.name ?? '';
        if (!rank.has(name)) rank.set(name, i);
        byName.set(name, pod);
      }
    });
    return {
      cluster: ref.cluster,
      pods: sortPods(
        [...byName.values()].map(podSummary),
        p => rank.get(p.name) ?? 0,
      ),
      selectors,
    };
  }

  async podLog(
    kind: RunwayKind,
    ref: ResourceRef,
    pod: string,
    query: LogQuery,
    options: PodLogOptions = {},
  ): Promise<PodLogStream> {
    const { onStep = () => {} } = options;
    const cache = this.cacheFor(ref.cluster);
    const selectors = await this.podSelectorsOf(cache, kind, ref);
    onStep('resolve');
    // One read of the pod, and its labels checked against the resource's selectors, before its log is read.
    const found = await this.live(
      ref.cluster,
      `pod ${ref.namespace}/${pod}`,
      signal =>
        cache.client
          .get<KubeObject>(
            PODS,
            { namespace: ref.namespace, name: pod },
            signal,
          )
          .catch(err => {
            if ((err as { code?: number }).code === 404) return undefined;
            throw err;
          }),
    );
    if (!found || !podBelongs(found, selectors, ref.name)) {
      const what = `${KIND_INFO[kind].kind} ${ref.namespace}/${ref.name}`;
      throw new NotAllowedError(
        `pod "${pod}" is not one of the pods of ${what} (its pods match ${
          selectors.join('; ') || 'no selector yet'
        }): the portal reads only the logs of a resource's own pods`,
      );
    }
    onStep('pod');
    return this.openLog(cache, ref, podSummary(found), query, options);
  }

  async resourceLog(
    kind: RunwayKind,
    ref: ResourceRef,
    query: LogQuery,
    options: PodLogOptions = {},
  ): Promise<ResourceLogStream> {
    const cache = this.cacheFor(ref.cluster);
    const pods = await this.resourcePods(kind, ref, options.onStep);
    const first = pods.pods[0];
    if (!first) return { pods };
    try {
      const { container, stream } = await this.openLog(
        cache,
        ref,
        first,
        query,
        options,
      );
      return { pods, pod: first.name, container, stream };
    } catch (err) {
      return {
        pods,
        pod: first.name,
        error: err instanceof Error ? err : new Error(String(err)),
      };
    }
  }

  /** Opens the log of a pod known to be the resource's: its container checked, then `pods/log`. */
  private async openLog(
    cache: ClusterCache,
    ref: ResourceRef,
    found: PodSummary,
    query: LogQuery,
    { signal, onStep = () => {} }: PodLogOptions,
  ): Promise<PodLogStream> {
    const pod = found.name;
    const names = found.containers.map(c => c.name);
    const container = query.container ?? names[0];
    if (!container || !names.includes(container)) {
      throw new ResourceInvalidError(
        `container "${
          query.container
        }" is not in pod ${pod} (its containers: ${names.join(', ')})`,
        [
          {
            path: 'container',
            message: `choose one of the pod's containers: ${names.join(', ')}`,
            severity: 'error',
          },
        ],
      );
    }
    const logWhat = `the log of container ${container} of pod ${ref.namespace}/${pod}`;
    try {
      const stream = await cache.client.stream({
        method: 'GET',
        path: `/api/v1/namespaces/${encodeURIComponent(
          ref.namespace,
        )}/pods/${encodeURIComponent(pod)}/log`,
        query: {
          container,
          tailLines: query.tailLines,
          previous: query.previous || undefined,
          follow: query.follow || undefined,
          // A tail is bounded in bytes too; a followed log is bounded by its reader.
          limitBytes: query.follow ? undefined : LOG_BYTES_MAX,
        },
        signal,
        // A followed log stays open until the reader goes; a tail has the usual bound.
        timeoutMs: query.follow ? 0 : this.requestTimeoutMs,
      });
      onStep('open');
      return { container, stream };
    } catch (err) {
      throw logError(err, { cluster: ref.cluster, what: logWhat });
    }
  }

  async chat(
    ref: ResourceRef,
    request: ChatRequest,
    signal?: AbortSignal,
  ): Promise<ChatStream> {
    const detail = await this.get('deployments', ref);
    const what = `ModelDeployment ${ref.namespace}/${ref.name}`;
    const found = chatTarget(detail.object);
    if ('refused' in found)
      throw new ConflictError(`${what}: ${found.refused}`);
    const { target } = found;
    const cache = this.cacheFor(ref.cluster);
    const serviceWhat = `the chat completions of Service ${ref.namespace}/${target.service}:${target.port} (through the API server's service proxy)`;
    try {
      const stream = await cache.client.stream({
        method: 'POST',
        path: chatProxyPath(ref.namespace, target),
        body: upstreamChatBody(request, target),
        signal,
        // The answer streams for as long as the model writes; the caller bounds it.
        timeoutMs: 0,
      });
      return { model: target.model, stream };
    } catch (err) {
      throw chatError(err, { cluster: ref.cluster, what: serviceWhat });
    }
  }

  async stop(): Promise<void> {
    await this.doctorRunner.stop();
    await Promise.all([...this.caches.values()].map(c => c.stop()));
  }

  // ---- helpers ---------------------------------------------------------------

  private prepareWrite(
    kind: RunwayKind,
    cluster: string,
    body: unknown,
    target: { namespace?: string; name?: string },
  ) {
    const info = KIND_INFO[kind];
    // Validation first: nothing reaches a cluster (not even a lookup) for an invalid body.
    const issues = validateResourceBody(kind, body, target);
    throwIfInvalid(info.kind, issues);
    const cache = this.cacheFor(cluster);
    const object = toApplyBody(body as Record<string, unknown>);
    const namespace = object.metadata!.namespace!;
    const name = object.metadata!.name!;
    this.assertNamespaceAllowed(cluster, namespace);
    const version = String(object.apiVersion).split('/')[1];
    const rt = resourceTypeOf(info, version);
    return {
      cache,
      object,
      rt,
      what: `${info.kind} ${namespace}/${name}`,
      ref: { cluster, namespace, name },
      warnings: issues.filter(i => i.severity === 'warning'),
    };
  }

  private async readLive(
    cache: ClusterCache,
    rt: ResourceType,
    ref: ResourceRef,
    what: string,
  ) {
    try {
      return await cache.client.get<KubeObject>(rt, ref);
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw toPortalError(err, { cluster: ref.cluster, what });
    }
  }

  private async apply(
    cache: ClusterCache,
    rt: ResourceType,
    object: KubeObject,
    what: string,
    options: UpdateOptions,
  ): Promise<KubeObject> {
    try {
      return await cache.client.apply<KubeObject>(rt, object, {
        fieldManager: PORTAL_FIELD_MANAGER,
        force: options.force,
        dryRun: options.dryRun,
      });
    } catch (err) {
      if ((err as { code?: number }).code === 404) {
        // Applying to a collection that exists answers 404 only for a missing namespace.
        const ns = object.metadata?.namespace;
        throw new ResourceInvalidError(
          `namespace "${ns}" does not exist in cluster "${cache.name}"`,
          [
            {
              path: 'metadata.namespace',
              message: `namespace "${ns}" does not exist in cluster "${cache.name}": create it first or choose another namespace`,
              severity: 'error',
            },
          ],
        );
      }
      throw toPortalError(err, { cluster: cache.name, what });
    }
  }

  /** The overview's `doctor`, once a run has ended. */
  private doctorOf(cluster: string): { doctor?: DoctorReport } {
    const report = this.doctorRunner.report(cluster);
    return report?.checkedAt ? { doctor: report } : {};
  }

  private cacheFor(cluster: string): ClusterCache {
    const cache = this.caches.get(cluster);
    if (cache) return cache;
    const broken = this.broken.get(cluster);
    if (broken) {
      throw new ClusterUnavailableError(
        `cluster "${cluster}" is misconfigured: ${broken}`,
        cluster,
        'Misconfigured',
      );
    }
    const known = [...this.caches.keys()].join(', ') || 'none';
    throw new NotFoundError(
      `cluster "${cluster}" is not configured (configured clusters: ${known})`,
    );
  }

  /** The caches to ask, and errors for clusters that cannot be asked. */
  private targets(names?: string[]): {
    targets: ClusterCache[];
    errors: ClusterError[];
  } {
    const wanted =
      names && names.length > 0
        ? names
        : [...this.caches.keys(), ...this.broken.keys()];
    const targets: ClusterCache[] = [];
    const errors: ClusterError[] = [];
    for (const name of new Set(wanted)) {
      const cache = this.caches.get(name);
      if (cache) {
        targets.push(cache);
      } else if (this.broken.has(name)) {
        errors.push({
          cluster: name,
          reason: 'Misconfigured',
          message: `cluster "${name}" is misconfigured: ${this.broken.get(
            name,
          )}`,
        });
      } else {
        const known = [...this.caches.keys()].join(', ') || 'none';
        throw new NotFoundError(
          `cluster "${name}" is not configured (configured clusters: ${known})`,
        );
      }
    }
    return { targets, errors };
  }

  /** Sorts per-cluster parts by cluster name so answers are stable. */
  private ordered(
    clusters: ClusterFreshness[],
    errors: ClusterError[],
  ): ClusterAnswer {
    const byName = <T extends { cluster: string }>(a: T, b: T) =>
      a.cluster.localeCompare(b.cluster);
    return {
      clusters: [...clusters].sort(byName),
      errors: [...errors].sort(byName),
    };
  }

  private namespaceAllowed(cluster: string, namespace: string): boolean {
    const allowed = this.specs.get(cluster)?.namespaces;
    return !allowed || allowed.includes(namespace);
  }

  private assertNamespaceAllowed(cluster: string, namespace: string): void {
    if (!this.namespaceAllowed(cluster, namespace)) {
      const allowed = this.specs.get(cluster)?.namespaces ?? [];
      throw new NotAllowedError(
        `namespace "${namespace}" of cluster "${cluster}" is not open to the portal (allowed: ${
          allowed.join(', ') || 'none'
        }); an administrator can add it under runway.clusters`,
      );
    }
  }

  private async cachedEvents(
    cache: ClusterCache,
    kind: string,
    uid: string,
    errors: ClusterError[],
    left: () => number,
  ) {
    const informer = cache.eventsInformer(kind);
    await cache.waitForSync(informer, left());
    if (!informer.hasSynced()) {
      const health = cache.health(informer, `events of ${kind}`);
      if (health.error) errors.push(health.error);
      return [];
    }
    return informer.store.byIndex(INVOLVED_UID_INDEX, uid);
  }

  private async ownedObjects(
    cache: ClusterCache,
    kind: RunwayKind,
    uid: string,
    errors: ClusterError[],
    left: () => number,
  ) {
    let types: UpstreamType[];
    try {
      types = await withTimeout(cache.name, left(), 'API discovery', () =>
        cache.upstreamTypes(kind, UPSTREAM_KINDS[kind]),
      );
    } catch (err) {
      errors.push(
        classifyClusterError(err, {
          cluster: cache.name,
          what: 'API discovery',
        }),
      );
      return [];
    }
    const lists = await Promise.all(
      types.map(async upstream => {
        const rt = upstream.type;
        const informers = cache.upstreamInformers(upstream);
        await Promise.all(
          informers.map(informer => cache.waitForSync(informer, left())),
        );
        // One error per kind, however many selectors it is watched with.
        const unsynced = informers.find(informer => !informer.hasSynced());
        if (unsynced) {
          const health = cache.health(
            unsynced,
            `${rt.kind} (${rt.group || 'core'}/${rt.version})`,
          );
          if (health.error) errors.push(health.error);
        }
        return informers
          .filter(informer => informer.hasSynced())
          .flatMap(informer => informer.store.byIndex(OWNER_UID, uid));
      }),
    );
    return lists.flat();
  }

  /** Events of upstream objects are read live (bounded): they are few, and only a detail view needs them. */
  private async liveEvents(
    cache: ClusterCache,
    namespace: string,
    owned: KubeObject[],
    errors: ClusterError[],
    left: () => number,
  ) {
    const lists = await Promise.all(
      owned.map(async obj => {
        try {
          const list = await withTimeout(cache.name, left(), 'events', signal =>
            cache.client.list<KubeObject>(EVENTS, {
              namespace,
              fieldSelector: `involvedObject.uid=${obj.metadata?.uid}`,
              signal,
            }),
          );
          return list.items;
        } catch (err) {
          errors.push(
            classifyClusterError(err, {
              cluster: cache.name,
              what: `events of ${obj.kind} ${obj.metadata?.name}`,
            }),
          );
          return [];
        }
      }),
    );
    return lists.flat();
  }

  private async serverVersion(
    cache: ClusterCache,
  ): Promise<string | undefined> {
    const info = await withTimeout(
      cache.name,
      this.requestTimeoutMs,
      'its version',
      signal =>
        cache.client.request<{ gitVersion?: string }>({
          method: 'GET',
          path: '/version',
          signal,
        }),
    );
    return info.gitVersion;
  }

  private async providerSummaries(
    cache: ClusterCache,
    clusters: ClusterFreshness[],
    errors: ClusterError[],
  ) {
    const informer = cache.informer(PROVIDER_CONFIGS);
    await cache.waitForSync(informer);
    const health = cache.health(
      informer,
      'InferenceProviderConfig (airunway.ai/v1alpha1)',
    );
    clusters.push(health.freshness);
    if (health.error) errors.push(health.error);
    return informer.hasSynced()
      ? summarizeProviders(informer.store.list() as InferenceProviderConfig[])
      : [];
  }

  /** GPU capacity, read live (nodes, then pods of GPU nodes and pending pods), reused for a few seconds. */
  private gpus(cache: ClusterCache): Promise<GpuCapacity[]> {
    const cached = this.gpuCache.get(cache.name);
    if (cached && Date.now() - cached.at < this.gpuCacheTtlMs)
      return cached.value;
    const value = withTimeout(
      cache.name,
      this.requestTimeoutMs,
      'nodes and pods',
      async signal => {
        const nodes = (await cache.client.list<KubeObject>(NODES, { signal }))
          .items as NodeLike[];
        const gpuNodes = nodes.filter(n =>
          Object.keys(n.status?.allocatable ?? {}).some(isGpuResource),
        );
        const active = 'status.phase!=Succeeded,status.phase!=Failed';
        const podLists = await Promise.all([
          ...gpuNodes.map(n =>
            cache.client.list<KubeObject>(PODS, {
              fieldSelector: `spec.nodeName=${n.metadata?.name},${active}`,
              signal,
            }),
          ),
          cache.client.list<KubeObject>(PODS, {
            fieldSelector: `spec.nodeName=,${active}`,
            signal,
          }),
        ]);
        return gpuCapacity(
          nodes,
          podLists.flatMap(l => l.items as PodLike[]),
        );
      },
    );
    this.gpuCache.set(cache.name, { at: Date.now(), value });
    value.catch(() => this.gpuCache.delete(cache.name));
    return value;
  }

  /** Every kind's answers about `cluster` change with its reachability, so each kind hears of it. */
  private forwardHealth(cluster: string): void {
    for (const kind of Object.keys(KIND_INFO) as RunwayKind[]) {
      this.notify({
        cluster,
        kind,
        namespace: '',
        type: 'health',
        event: false,
      });
    }
  }

  private forward(change: CacheChange): void {
    const rt = change.resourceType;
    let kind: RunwayKind | undefined;
    let event = false;
    if (rt.kind === EVENTS.kind) {
      const involved = (change.object as { involvedObject?: { kind?: string } })
        .involvedObject?.kind;
      kind = (Object.keys(KIND_INFO) as RunwayKind[]).find(
        k => KIND_INFO[k].kind === involved,
      );
      event = true;
    } else {
      kind = (Object.keys(KIND_INFO) as RunwayKind[]).find(
        k => KIND_INFO[k].kind === rt.kind && KIND_INFO[k].group === rt.group,
      );
    }
    if (!kind) return;
    const namespace = change.object.metadata?.namespace ?? '';
    if (!this.namespaceAllowed(change.cluster, namespace)) return;
    this.notify({
      cluster: change.cluster,
      kind,
      namespace,
      type: change.type,
      event,
    });
  }

  private notify(change: ResourceChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.logger.error(
          `runway change listener failed: ${
            err instanceof Error ? err.message : String(err)
          }`,
        );
      }
    }
  }
}

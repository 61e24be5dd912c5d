import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { Connectivity, type ConnectivityOptions } from './connectivity';
import { errorFromStatus, KubeApiError, KubeConnectionError } from './errors';
import { LineDecoder } from './lineDecoder';
import {
  apiVersionOf,
  parseApiVersion,
  ResourceType,
  resourcePath,
} from './resource';
import type {
  KubeList,
  KubeObject,
  ObjectKey,
  Status,
  WatchEvent,
} from './types';

export type QueryValue = string | number | boolean | undefined;

/** @public */
export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** Overrides the client's request timeout; 0 disables it (watches). */
  timeoutMs?: number;
  /** The Accept header; default application/json (e.g. `…;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` for metadata only). */
  accept?: string;
}

/** @public */
export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  signal?: AbortSignal;
}

/** @public */
export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** The server closes the stream cleanly after this many seconds. */
  timeoutSeconds?: number;
  signal?: AbortSignal;
  /** Called once the server accepted the watch (the first successful request: informers reset their backoff). */
  onConnected?: () => void;
}

/** @public */
export interface ApplyOptions {
  /** Who owns the applied fields; every writer uses its own. */
  fieldManager: string;
  /** Take over fields owned by other managers instead of failing with ApplyConflictError. */
  force?: boolean;
  dryRun?: boolean;
  signal?: AbortSignal;
}

/** @public */
export type PatchType = 'merge' | 'json' | 'strategic';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/** @public */
export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

/** Told about every object a write (create, replace, patch, apply; not dry runs) returned. */
export type WriteListener = (rt: ResourceType, obj: KubeObject) => void;

/** How long the client uses credentials read from the kubeconfig before reading them again. */
const AUTH_REREAD_MS = 10_000;

/** @public */
export interface KubeClientOptions {
  /** Timeout of every non-watch request; default 30 s. */
  requestTimeoutMs?: number;
  userAgent?: string;
  /** How the client probes the API server after an outage. */
  connectivity?: ConnectivityOptions;
}

type TlsMaterial = Pick<
  https.RequestOptions,
  | 'ca'
  | 'cert'
  | 'key'
  | 'pfx'
  | 'passphrase'
  | 'rejectUnauthorized'
  | 'servername'
>;

/**
 * A thin typed REST client for any resource type, authenticated from a
 * kubeconfig. It speaks plain JSON over keep-alive HTTP(S) connections, so
 * list, watch, server-side apply and subresources work alike for every
 * group-version-kind, including custom resources.
 *
 * The kubeconfig (file, in-cluster, exec and token-file auth) is handled by
 * `@kubernetes/client-node`'s `KubeConfig`; credentials are re-read at most
 * every `AUTH_REREAD_MS` and at once after a 401, so rotating tokens keep
 * working (client-go re-reads a token file once a minute).
 *
 * @public
 */
export class KubeClient {
  readonly server: string;
  private readonly isHttps: boolean;
  private readonly requestTimeoutMs: number;
  private readonly userAgent: string;
  private agent?: http.Agent;
  private agentTls?: TlsMaterial;
  /** The kubeconfig's credentials as request options, and when they were read. */
  private auth?: { options: Promise<https.RequestOptions>; readAt: number };
  private readonly discovered = new Map<string, Promise<ResourceType[]>>();
  private readonly writeListeners = new Set<WriteListener>();
  /** Whether the API server answers; informers and controllers wait on its reconnects after an outage. */
  readonly connectivity: Connectivity;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) {
      throw new Error(
        'the kubeconfig has no current cluster: set current-context to a context whose cluster exists',
      );
    }
    this.server = cluster.server.replace(/\/+$/, '');
    this.isHttps = this.server.startsWith('https:');
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.userAgent = options.userAgent ?? 'runway-controller-runtime';
    this.connectivity = new Connectivity(async () => {
      const res = await this.send({
        method: 'GET',
        path: '/readyz',
        timeoutMs: 2000,
      });
      res.resume();
      if ((res.statusCode ?? 0) >= 500) {
        throw new Error(`/readyz answered ${res.statusCode}`);
      }
    }, options.connectivity);
  }

  /** From a kubeconfig file, or in-cluster / $KUBECONFIG / ~/.kube/config when omitted. */
  static load(
    kubeconfigPath?: string,
    options?: KubeClientOptions,
  ): KubeClient {
    const kc = new KubeConfig();
    if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
    else kc.loadFromDefault();
    return new KubeClient(kc, options);
  }

  /** Stops reusing connections (lets the process exit). */
  close(): void {
    this.connectivity.close();
    this.agent?.destroy();
    this.agent = undefined;
  }

  /**
   * Calls `listener` with the object every successful write returns
   * (informers use it to read their own writes before the watch brings
   * them). Returns an unsubscribe.
   */
  onWrite(listener: WriteListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  private wrote<T>(rt: ResourceType, dryRun: boolean | undefined) {
    return (obj: T): T => {
      const o = obj as KubeObject | undefined;
      if (!dryRun && o?.metadata?.resourceVersion) {
        for (const listener of this.writeListeners) {
          try {
            listener(rt, o);
          } catch {
            // A listener is a cache hint: it must never fail the write.
          }
        }
      }
      return obj;
    };
  }

  // ---- generic requests ---------------------------------------------------

  async request<T>(opts: RequestOptions): Promise<T> {
    const text = await this.requestText(opts);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A request whose answer is not JSON (a pod's log): the body as text; errors as `request`'s. */
  async requestText(opts: RequestOptions): Promise<string> {
    const res = await this.send(opts);
    const text = await readBody(res, opts);
    if ((res.statusCode ?? 0) >= 400) {
      throw errorFromStatus(
        opts.method,
        opts.path,
        res.statusCode ?? 0,
        parseStatus(text, res.statusCode ?? 0),
        opts.contentType === APPLY_CONTENT_TYPE,
      );
    }
    return text;
  }

  /**
   * A request whose answer is read as a stream (a pod's log): resolves with
   * the response once the server answered 2xx; an HTTP error is thrown as the
   * API's error, as `request` does. The caller reads, bounds and ends it
   * (`signal`, or `destroy()`).
   */
  async stream(opts: RequestOptions): Promise<http.IncomingMessage> {
    const res = await this.send(opts);
    if ((res.statusCode ?? 0) >= 400) {
      const text = await readBody(res, opts);
      throw errorFromStatus(
        opts.method,
        opts.path,
        res.statusCode ?? 0,
        parseStatus(text, res.statusCode ?? 0),
        false,
      );
    }
    return res;
  }

  /**
   * Streams a watch, calling `onEvent` for every event. Resolves when the
   * server ends the stream; rejects on connection errors, HTTP errors, or
   * when `signal` aborts (with the signal's reason).
   */
  async watch<T extends KubeObject>(
    rt: ResourceType,
    opts: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
  ): Promise<void> {
    const path = resourcePath(rt, { namespace: opts.namespace });
    const requestOpts: RequestOptions = {
      method: 'GET',
      path,
      query: {
        watch: true,
        resourceVersion: opts.resourceVersion,
        allowWatchBookmarks: opts.allowWatchBookmarks,
        timeoutSeconds: opts.timeoutSeconds,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
      },
      signal: opts.signal,
      timeoutMs: 0,
    };
    const res = await this.send(requestOpts);
    if ((res.statusCode ?? 0) < 400) opts.onConnected?.();
    if ((res.statusCode ?? 0) >= 400) {
      const text = await readBody(res, requestOpts);
      throw errorFromStatus(
        'WATCH',
        path,
        res.statusCode ?? 0,
        parseStatus(text, res.statusCode ?? 0),
        false,
      );
    }
    const decoder = new LineDecoder();
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      function settle(err?: unknown) {
        if (settled) return;
        settled = true;
        opts.signal?.removeEventListener('abort', onAbort);
        if (err === undefined) {
          resolve();
        } else {
          res.destroy();
          reject(err);
        }
      }
      function onAbort() {
        settle(opts.signal?.reason ?? new Error('watch aborted'));
      }
      if (opts.signal?.aborted) {
        onAbort();
        return;
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const handle = (lines: string[]) => {
        for (const line of lines) {
          if (settled) return;
          onEvent(JSON.parse(line) as WatchEvent<T>);
        }
      };
      res.on('data', (chunk: Buffer) => {
        try {
          handle(decoder.push(chunk));
        } catch (err) {
          settle(err);
        }
      });
      res.on('end', () => {
        try {
          handle(decoder.end());
          settle();
        } catch (err) {
          settle(err);
        }
      });
      res.on('error', err =>
        settle(new KubeConnectionError('WATCH', path, err)),
      );
      res.on('close', () =>
        settle(
          new KubeConnectionError(
            'WATCH',
            path,
            new Error('connection closed before the stream ended'),
          ),
        ),
      );
    });
  }

  // ---- typed helpers --------------------------------------------------------

  get<T extends KubeObject>(
    rt: ResourceType,
    key: ObjectKey,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.request<T>({
      method: 'GET',
      path: resourcePath(rt, { namespace: key.namespace, name: key.name }),
      signal,
    });
  }

  list<T extends KubeObject>(
    rt: ResourceType,
    opts: ListOptions = {},
  ): Promise<KubeList<T>> {
    return this.request<KubeList<T>>({
      method: 'GET',
      path: resourcePath(rt, { namespace: opts.namespace }),
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit: opts.limit,
        continue: opts.continue,
        resourceVersion: opts.resourceVersion,
      },
      signal: opts.signal,
    });
  }

  create<T extends KubeObject>(
    rt: ResourceType,
    obj: T,
    opts: { fieldManager?: string; dryRun?: boolean } = {},
  ): Promise<T> {
    return this.request<T>({
      method: 'POST',
      path: resourcePath(rt, { namespace: obj.metadata?.namespace }),
      query: {
        fieldManager: opts.fieldManager,
        dryRun: opts.dryRun ? 'All' : undefined,
      },
      body: withTypeMeta(rt, obj),
    }).then(this.wrote<T>(rt, opts.dryRun));
  }

  replace<T extends KubeObject>(
    rt: ResourceType,
    obj: T,
    opts: { fieldManager?: string; subresource?: string } = {},
  ): Promise<T> {
    return this.request<T>({
      method: 'PUT',
      path: resourcePath(rt, {
        namespace: obj.metadata?.namespace,
        name: obj.metadata?.name ?? '',
        subresource: opts.subresource,
      }),
      query: { fieldManager: opts.fieldManager },
      body: withTypeMeta(rt, obj),
    }).then(this.wrote<T>(rt, false));
  }

  delete(
    rt: ResourceType,
    key: ObjectKey,
    opts: {
      propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
      uid?: string;
    } = {},
  ): Promise<unknown> {
    return this.request({
      method: 'DELETE',
      path: resourcePath(rt, { namespace: key.namespace, name: key.name }),
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: opts.propagationPolicy,
        preconditions: opts.uid ? { uid: opts.uid } : undefined,
      },
    });
  }

  patch<T extends KubeObject>(
    rt: ResourceType,
    key: ObjectKey,
    patch: unknown,
    type: PatchType,
    opts: { subresource?: string; fieldManager?: string } = {},
  ): Promise<T> {
    return this.request<T>({
      method: 'PATCH',
      path: resourcePath(rt, {
        namespace: key.namespace,
        name: key.name,
        subresource: opts.subresource,
      }),
      query: { fieldManager: opts.fieldManager },
      body: patch,
      contentType: patchContentTypes[type],
    }).then(this.wrote<T>(rt, false));
  }

  /**
   * Server-side apply of `obj` (or of its `subresource`, e.g. `status`).
   * Conflicts with other managers reject with ApplyConflictError unless
   * `force` is set.
   */
  apply<T extends KubeObject>(
    rt: ResourceType,
    obj: KubeObject,
    opts: ApplyOptions & { subresource?: string },
  ): Promise<T> {
    validateFieldManager(opts.fieldManager);
    const name = obj.metadata?.name;
    if (!name) {
      throw new Error(
        `server-side apply of ${rt.kind} needs metadata.name: set it`,
      );
    }
    return this.request<T>({
      method: 'PATCH',
      path: resourcePath(rt, {
        namespace: obj.metadata?.namespace,
        name,
        subresource: opts.subresource,
      }),
      query: {
        fieldManager: opts.fieldManager,
        force: opts.force ? true : undefined,
        dryRun: opts.dryRun ? 'All' : undefined,
      },
      body: withTypeMeta(rt, obj),
      contentType: APPLY_CONTENT_TYPE,
      signal: opts.signal,
    }).then(this.wrote<T>(rt, opts.dryRun));
  }

  // ---- discovery ------------------------------------------------------------

  /**
   * Finds the REST resource of `apiVersion`/`kind` through API discovery.
   * Results are cached per group-version; a kind that is not served yet
   * (a CRD just installed) is looked up again on the next call.
   */
  async resolve(apiVersion: string, kind: string): Promise<ResourceType> {
    const { group, version } = parseApiVersion(apiVersion);
    const gv = apiVersion;
    let resources = this.discovered.get(gv);
    if (!resources) {
      resources = this.discover(group, version);
      this.discovered.set(gv, resources);
    }
    let found: ResourceType | undefined;
    try {
      found = (await resources).find(r => r.kind === kind);
    } catch (err) {
      this.discovered.delete(gv);
      throw err;
    }
    if (!found) {
      this.discovered.delete(gv);
      throw new Error(
        `the API server does not serve kind ${kind} in ${apiVersion}: check apiVersion and kind, or install its CRD`,
      );
    }
    return found;
  }

  private async discover(
    group: string,
    version: string,
  ): Promise<ResourceType[]> {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const list = await this.request<{
      resources: Array<{ name: string; kind: string; namespaced: boolean }>;
    }>({ method: 'GET', path });
    return list.resources
      .filter(r => !r.name.includes('/'))
      .map(r => ({
        group,
        version,
        plural: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
      }));
  }

  // ---- transport ------------------------------------------------------------

  private async send(opts: RequestOptions): Promise<http.IncomingMessage> {
    const auth = await this.authOptions();
    const url = new URL(this.server + opts.path + queryString(opts.query));
    const body =
      opts.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(opts.body));
    const headers: http.OutgoingHttpHeaders = {
      ...(auth.headers as http.OutgoingHttpHeaders | undefined),
      Accept: opts.accept ?? 'application/json',
      'User-Agent': this.userAgent,
    };
    if (auth.auth) {
      headers.Authorization = `Basic ${Buffer.from(auth.auth).toString(
        'base64',
      )}`;
    }
    if (body) {
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = body.length;
    }
    const timeoutMs = opts.timeoutMs ?? this.requestTimeoutMs;
    const transport = this.isHttps ? https : http;
    return new Promise((resolve, reject) => {
      // A timer cleared when the exchange ends, not AbortSignal.timeout: that one fires
      // (building a DOMException and destroying the finished request) after every request.
      let timer: NodeJS.Timeout | undefined;
      let answered: http.IncomingMessage | undefined;
      const req = transport.request(
        url,
        {
          method: opts.method,
          headers,
          agent: this.agentFor(auth),
          signal: opts.signal,
        },
        res => {
          answered = res;
          if (timer) res.once('close', () => clearTimeout(timer));
          if (res.statusCode === 401) this.auth = undefined;
          if ((res.statusCode ?? 0) < 500) this.connectivity.answered();
          resolve(res);
        },
      );
      if (timeoutMs > 0) {
        // The error given to destroy is the one the request or response emits.
        timer = setTimeout(() => {
          if (answered)
            answered.destroy(
              new Error(`answer not complete within ${timeoutMs} ms`),
            );
          else req.destroy(new Error(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
      }
      req.on('error', err => {
        clearTimeout(timer);
        if (opts.signal?.aborted) {
          reject(opts.signal.reason);
          return;
        }
        // No HTTP answer at all: the server is unreachable (or too slow) until a probe says otherwise.
        this.connectivity.failed();
        reject(new KubeConnectionError(opts.method, opts.path, err));
      });
      if (body) req.write(body);
      req.end();
    });
  }

  /**
   * The kubeconfig's credentials as request options, read again after
   * AUTH_REREAD_MS (or a 401): reading them per request cost a controller a
   * few per cent of its CPU (client-node builds an agent each time).
   */
  private authOptions(): Promise<https.RequestOptions> {
    const now = Date.now();
    if (!this.auth || now - this.auth.readAt >= AUTH_REREAD_MS) {
      const options: https.RequestOptions = {};
      const reading = this.kubeConfig
        .applyToHTTPSOptions(options)
        .then(() => options);
      // A failed read (an exec plugin, say) is not kept: the next request tries again.
      reading.catch(() => {
        if (this.auth?.options === reading) this.auth = undefined;
      });
      this.auth = { options: reading, readAt: now };
    }
    return this.auth.options;
  }

  /**
   * One keep-alive agent, rebuilt only when the TLS material changes. It caps
   * no sockets: every caller bounds its own concurrency (workers, informers),
   * while a cap is shared with answers that stay open (watches, followed logs):
   * with 64 reconciles and a provider's watches a lease renewal waited for a
   * socket until the leader lost its lease.
   */
  private agentFor(auth: https.RequestOptions): http.Agent {
    const tls: TlsMaterial = {
      ca: auth.ca,
      cert: auth.cert,
      key: auth.key,
      pfx: auth.pfx,
      passphrase: auth.passphrase,
      rejectUnauthorized: auth.rejectUnauthorized,
      servername: auth.servername,
    };
    if (this.agent && this.agentTls && sameTls(this.agentTls, tls))
      return this.agent;
    this.agent?.destroy();
    this.agentTls = tls;
    this.agent = this.isHttps
      ? new https.Agent({ ...tls, keepAlive: true })
      : new http.Agent({ keepAlive: true });
    return this.agent;
  }
}

function sameTls(a: TlsMaterial, b: TlsMaterial): boolean {
  return (Object.keys(b) as Array<keyof TlsMaterial>).every(k => {
    const x = a[k];
    const y = b[k];
    if (Buffer.isBuffer(x) && Buffer.isBuffer(y)) return x.equals(y);
    return x === y;
  });
}

/** @public */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function withTypeMeta(rt: ResourceType, obj: KubeObject): KubeObject {
  return {
    ...obj,
    apiVersion: obj.apiVersion ?? apiVersionOf(rt),
    kind: obj.kind ?? rt.kind,
  };
}

/** @public */
export function validateFieldManager(fieldManager: string): void {
  if (!fieldManager || fieldManager.length > 128) {
    throw new Error(
      `fieldManager "${fieldManager}" is not valid: give each writer its own non-empty name of at most 128 characters`,
    );
  }
}

function readBody(
  res: http.IncomingMessage,
  opts: RequestOptions,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', err =>
      reject(new KubeConnectionError(opts.method, opts.path, err)),
    );
    // Every response closes: only one closed before its end is an error.
    res.on('close', () => {
      if (!res.complete)
        reject(
          new KubeConnectionError(
            opts.method,
            opts.path,
            new Error('connection closed mid-response'),
          ),
        );
    });
  });
}

function parseStatus(text: string, code: number): Status {
  try {
    const parsed = JSON.parse(text) as Status;
    if (parsed && typeof parsed === 'object') return parsed;
  } catch {
    // not JSON: fall through
  }
  return {
    kind: 'Status',
    status: 'Failure',
    code,
    message: text.slice(0, 500),
  };
}

export { KubeApiError };

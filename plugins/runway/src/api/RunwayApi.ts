import {
  createApiRef,
  type DiscoveryApi,
  type FetchApi,
} from '@backstage/core-plugin-api';
import {
  type DoctorReport,
  type ChatRequest,
  chatStreamPart,
  type FieldConflict,
  type HubSearchAnswer,
  LOG_EVENTS,
  SseDecoder,
  type LogAnswer,
  type LogStart,
  type PodsAnswer,
  type ResourceLogAnswer,
  type SecretNamesAnswer,
  type StorageClassesAnswer,
  type ValidationIssue,
} from '@runway-portal/plugin-runway-common';
import type {
  ClustersResponse,
  DetailResponse,
  KubeObject,
  ListOptions,
  ListResponse,
  PreviewResponse,
  RunwayKind,
  WriteResponse,
} from './types';

/** The browser's view of the runway backend plugin. @public */
export interface RunwayApi {
  listClusters(): Promise<ClustersResponse>;
  list(kind: RunwayKind, options?: ListOptions): Promise<ListResponse>;
  get(kind: RunwayKind, ref: ResourceRef): Promise<DetailResponse>;
  preview(
    kind: RunwayKind,
    cluster: string,
    body: KubeObject,
    mode?: 'create' | 'update',
  ): Promise<PreviewResponse>;
  create(
    kind: RunwayKind,
    cluster: string,
    body: KubeObject,
  ): Promise<WriteResponse>;
  update(
    kind: RunwayKind,
    ref: ResourceRef,
    body: KubeObject,
  ): Promise<WriteResponse>;
  delete(kind: RunwayKind, ref: ResourceRef): Promise<void>;
  /** The cluster's StorageClasses, the default first. */
  storageClasses(cluster: string): Promise<StorageClassesAnswer>;
  /** The doctor's checks of a cluster (as last run; `refresh`: run them now). */
  doctor(cluster: string, refresh?: boolean): Promise<DoctorReport>;
  /** The names (never the values) of a namespace's Secrets. */
  secretNames(cluster: string, namespace: string): Promise<SecretNamesAnswer>;
  /** Searches the Hugging Face Hub the backend uses (its HF_ENDPOINT). */
  searchHub(search: string, limit?: number): Promise<HubSearchAnswer>;
  /** The resource's pods (found by its provider's labels). */
  pods(kind: RunwayKind, ref: ResourceRef): Promise<PodsAnswer>;
  /** The last lines of one container's log. */
  log(
    kind: RunwayKind,
    ref: ResourceRef,
    pod: string,
    options: LogOptions,
  ): Promise<LogAnswer>;
  /** The resource's log as the Logs tab opens it, in one request: its pods, and the first pod's last lines. */
  resourceLog(
    kind: RunwayKind,
    ref: ResourceRef,
    options: LogOptions,
  ): Promise<ResourceLogAnswer>;
  /**
   * The last lines, then every new line, until `signal` aborts (resolves) or
   * the log ends (resolves); rejects when reading fails. Without `pod`, the
   * resource's log in one request: `onStart` gets its pods and the pod and
   * container the backend chose (the first pod's first container) before
   * the lines come.
   */
  followLog(
    kind: RunwayKind,
    ref: ResourceRef,
    pod: string | undefined,
    options: LogOptions & {
      signal: AbortSignal;
      onStart?: (start: LogStart) => void;
    },
    onLines: (lines: string[]) => void,
  ): Promise<void>;
  /**
   * "Try it": sends a chat request to a Running deployment and calls
   * `onText` with each piece of the answer as it streams in; resolves when
   * the answer ends or `signal` aborts, rejects on an error (the backend's
   * or the model server's, named).
   */
  chat(
    ref: ResourceRef,
    request: ChatRequest,
    options: { signal: AbortSignal },
    onText: (text: string) => void,
  ): Promise<void>;
}

export interface LogOptions {
  container?: string;
  tailLines?: number;
  previous?: boolean;
}

/** @public */
export interface ResourceRef {
  cluster: string;
  namespace: string;
  name: string;
}

/** @public */
export const runwayApiRef = createApiRef<RunwayApi>({
  id: 'plugin.runway.service',
});

/**
 * An error answer of the backend. `issues` names the fields of a rejected
 * body (the same issues runway-common's validation gives the form).
 *
 * @public
 */
export class RunwayApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly issues: ValidationIssue[] = [],
    readonly conflicts: FieldConflict[] = [],
  ) {
    super(message);
    this.name = 'RunwayApiError';
  }
}

const enc = encodeURIComponent;

function listQuery(options: ListOptions = {}): string {
  const params = new URLSearchParams();
  for (const c of options.clusters ?? []) params.append('cluster', c);
  if (options.namespace) params.set('namespace', options.namespace);
  if (options.labelSelector) params.set('labelSelector', options.labelSelector);
  if (options.entityRef) params.set('entityRef', options.entityRef);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function resourcePath(kind: RunwayKind, ref: ResourceRef): string {
  return `/${kind}/${enc(ref.cluster)}/${enc(ref.namespace)}/${enc(ref.name)}`;
}

/** A pod's log, or without `pod` the resource's (its first pod's, with its pods). */
function logPath(
  kind: RunwayKind,
  ref: ResourceRef,
  pod: string | undefined,
  options: LogOptions,
  follow: boolean,
): string {
  const params = new URLSearchParams();
  if (options.container) params.set('container', options.container);
  if (options.tailLines) params.set('tailLines', String(options.tailLines));
  if (options.previous) params.set('previous', 'true');
  if (follow) params.set('follow', 'true');
  const query = params.toString();
  return `${resourcePath(kind, ref)}${
    pod === undefined ? '' : `/pods/${enc(pod)}`
  }/log${query ? `?${query}` : ''}`;
}

/** Splits a text/event-stream into events (name and data); chunks may split them anywhere. */
export class EventStreamParser {
  private readonly decoder = new SseDecoder();

  push(chunk: string): Array<{ name: string; data: string }> {
    return this.decoder
      .push(chunk)
      .map(e => ({ name: e.event ?? 'message', data: e.data }));
  }
}

/** Reads a streamed answer's body as text, piece by piece; `onText` returns true to stop reading. */
async function readStream(
  response: Response,
  onText: (text: string) => boolean,
): Promise<void> {
  const body = response.body as ReadableStream<Uint8Array> | null;
  if (body && typeof body.getReader === 'function') {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (onText(decoder.decode(value, { stream: true }))) {
        await reader.cancel();
        break;
      }
    }
  } else {
    // A fetch without streams (tests): the whole answer at once.
    onText(await response.text());
  }
}

/** The RunwayApi over `fetchApi` (adds the user's token) and `discoveryApi`. @public */
export class RunwayClient implements RunwayApi {
  constructor(
    private readonly deps: { discoveryApi: DiscoveryApi; fetchApi: FetchApi },
  ) {}

  private async request<T>(
    path: string,
    init?: { method: string; body?: unknown },
  ): Promise<T> {
    const base = await this.deps.discoveryApi.getBaseUrl('runway');
    const response = await this.deps.fetchApi.fetch(`${base}${path}`, {
      method: init?.method ?? 'GET',
      headers:
        init?.body === undefined
          ? undefined
          : { 'Content-Type': 'application/json' },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status === 204) return undefined as T;
    return this.answer<T>(path, response);
  }

  private async answer<T>(path: string, response: Response): Promise<T> {
    const text = await response.text();
    let data: any;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const message =
        data?.error?.message ??
        `${response.status} ${
          response.statusText || 'error'
        } from the runway backend`;
      throw new RunwayApiError(
        message,
        response.status,
        data?.issues ?? [],
        data?.conflicts ?? [],
      );
    }
    if (data === undefined) {
      throw new RunwayApiError(
        `the runway backend answered ${path} with something that is not JSON`,
        response.status,
      );
    }
    return data as T;
  }

  listClusters() {
    return this.request<ClustersResponse>('/clusters');
  }

  list(kind: RunwayKind, options?: ListOptions) {
    return this.request<ListResponse>(`/${kind}${listQuery(options)}`);
  }

  get(kind: RunwayKind, ref: ResourceRef) {
    return this.request<DetailResponse>(
      `/${kind}/${enc(ref.cluster)}/${enc(ref.namespace)}/${enc(ref.name)}`,
    );
  }

  preview(
    kind: RunwayKind,
    cluster: string,
    body: KubeObject,
    mode: 'create' | 'update' = 'create',
  ) {
    return this.request<PreviewResponse>(
      `/${kind}/${enc(cluster)}/preview?mode=${mode}`,
      { method: 'POST', body },
    );
  }

  create(kind: RunwayKind, cluster: string, body: KubeObject) {
    return this.request<WriteResponse>(`/${kind}/${enc(cluster)}`, {
      method: 'POST',
      body,
    });
  }

  update(kind: RunwayKind, ref: ResourceRef, body: KubeObject) {
    return this.request<WriteResponse>(
      `/${kind}/${enc(ref.cluster)}/${enc(ref.namespace)}/${enc(ref.name)}`,
      {
        method: 'PUT',
        body,
      },
    );
  }

  pods(kind: RunwayKind, ref: ResourceRef) {
    return this.request<PodsAnswer>(`${resourcePath(kind, ref)}/pods`);
  }

  log(kind: RunwayKind, ref: ResourceRef, pod: string, options: LogOptions) {
    return this.request<LogAnswer>(logPath(kind, ref, pod, options, false));
  }

  resourceLog(kind: RunwayKind, ref: ResourceRef, options: LogOptions) {
    return this.request<ResourceLogAnswer>(
      logPath(kind, ref, undefined, options, false),
    );
  }

  async followLog(
    kind: RunwayKind,
    ref: ResourceRef,
    pod: string | undefined,
    options: LogOptions & {
      signal: AbortSignal;
      onStart?: (start: LogStart) => void;
    },
    onLines: (lines: string[]) => void,
  ): Promise<void> {
    const base = await this.deps.discoveryApi.getBaseUrl('runway');
    const path = logPath(kind, ref, pod, options, true);
    let response: Response;
    try {
      response = await this.deps.fetchApi.fetch(`${base}${path}`, {
        headers: { Accept: 'text/event-stream' },
        signal: options.signal,
      });
    } catch (err) {
      if (options.signal.aborted) return;
      throw err;
    }
    if (!response.ok) {
      await this.answer(path, response);
      return;
    }
    const events = new EventStreamParser();
    const deliver = (chunk: string) => {
      const lines: string[] = [];
      let ended = false;
      for (const event of events.push(chunk)) {
        if (event.name === LOG_EVENTS.error) {
          if (lines.length > 0) onLines(lines);
          throw new RunwayApiError(event.data, 503);
        }
        if (event.name === LOG_EVENTS.end) {
          ended = true;
          break;
        }
        if (event.name === LOG_EVENTS.start) {
          options.onStart?.(JSON.parse(event.data) as LogStart);
          continue;
        }
        lines.push(event.data);
      }
      if (lines.length > 0) onLines(lines);
      return ended;
    };
    try {
      await readStream(response, deliver);
    } catch (err) {
      if (options.signal.aborted) return;
      throw err;
    }
  }

  async chat(
    ref: ResourceRef,
    request: ChatRequest,
    options: { signal: AbortSignal },
    onText: (text: string) => void,
  ): Promise<void> {
    const base = await this.deps.discoveryApi.getBaseUrl('runway');
    const path = `${resourcePath('deployments', ref)}/chat`;
    let response: Response;
    try {
      response = await this.deps.fetchApi.fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
        },
        body: JSON.stringify(request),
        signal: options.signal,
      });
    } catch (err) {
      if (options.signal.aborted) return;
      throw err;
    }
    if (!response.ok) {
      await this.answer(path, response);
      return;
    }
    const events = new SseDecoder();
    const deliver = (chunk: string) => {
      let text = '';
      let done = false;
      for (const event of events.push(chunk)) {
        const part = chatStreamPart(event);
        if (part?.type === 'text') text += part.text;
        if (part?.type === 'error') {
          if (text) onText(text);
          throw new RunwayApiError(part.message, 502);
        }
        if (part?.type === 'done') {
          done = true;
          break;
        }
      }
      if (text) onText(text);
      return done;
    };
    try {
      await readStream(response, deliver);
    } catch (err) {
      if (options.signal.aborted) return;
      throw err;
    }
  }

  async delete(kind: RunwayKind, ref: ResourceRef) {
    await this.request<void>(
      `/${kind}/${enc(ref.cluster)}/${enc(ref.namespace)}/${enc(ref.name)}`,
      { method: 'DELETE' },
    );
  }

  doctor(cluster: string, refresh = false) {
    return this.request<DoctorReport>(
      `/clusters/${enc(cluster)}/doctor${refresh ? '?refresh=true' : ''}`,
    );
  }

  storageClasses(cluster: string) {
    return this.request<StorageClassesAnswer>(
      `/clusters/${enc(cluster)}/storageclasses`,
    );
  }

  searchHub(search: string, limit = 10) {
    return this.request<HubSearchAnswer>(
      `/hub/models?search=${enc(search)}&limit=${limit}`,
    );
  }

  secretNames(cluster: string, namespace: string) {
    return this.request<SecretNamesAnswer>(
      `/clusters/${enc(cluster)}/namespaces/${enc(namespace)}/secrets`,
    );
  }
}

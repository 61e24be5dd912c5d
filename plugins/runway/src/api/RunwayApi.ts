import {
  createApiRef,
  type DiscoveryApi,
  type FetchApi,
} from '@backstage/core-plugin-api';
import type {
  FieldConflict,
  ValidationIssue,
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

/** The browser's view of the runway backend plugin. */
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
}

export interface ResourceRef {
  cluster: string;
  namespace: string;
  name: string;
}

export const runwayApiRef = createApiRef<RunwayApi>({
  id: 'plugin.runway.service',
});

/**
 * An error answer of the backend. `issues` names the fields of a rejected
 * body (the same issues runway-common's validation gives the form).
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

/** The RunwayApi over `fetchApi` (adds the user's token) and `discoveryApi`. */
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

  async delete(kind: RunwayKind, ref: ResourceRef) {
    await this.request<void>(
      `/${kind}/${enc(ref.cluster)}/${enc(ref.namespace)}/${enc(ref.name)}`,
      { method: 'DELETE' },
    );
  }
}

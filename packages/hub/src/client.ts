/** The public hub; `HF_ENDPOINT` points everything at a mirror or a stand-in. @public */
export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

/** `HF_ENDPOINT` (as the `huggingface_hub` library reads it), without a trailing slash. @public */
export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  return (env.HF_ENDPOINT || DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');
}

/** @public */
export interface HubOptions {
  /** Default: `hubEndpoint()`. */
  endpoint?: string;
  /** A user access token (`HF_TOKEN`); needed for gated and private repositories. */
  token?: string;
  /** Default: `main`. */
  revision?: string;
  signal?: AbortSignal;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** One file of a repository revision. @public */
export interface HubFile {
  path: string;
  size: number;
  /** sha256 of the content, known for files stored in LFS (weights). */
  sha256?: string;
}

/** @public */
export type HubErrorCode =
  | 'unauthorized'
  | 'gated'
  | 'not-found'
  | 'http'
  | 'network';

/** A hub answer that is not a success, said in terms of what to fix. @public */
export class HubError extends Error {
  constructor(
    readonly code: HubErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The URL a download reads: `{endpoint}/{repo}/resolve/{revision}/{path}` (answers `Range`). @public */
export function fileUrl(
  repoId: string,
  path: string,
  options: Pick<HubOptions, 'endpoint' | 'revision'> = {},
): string {
  const endpoint = (options.endpoint ?? hubEndpoint()).replace(/\/+$/, '');
  const revision = encodeURIComponent(options.revision ?? 'main');
  return `${endpoint}/${repoId}/resolve/${revision}/${encodePath(path)}`;
}

/** Headers for a request on behalf of `token` (none without one). @public */
export function authHeaders(token?: string): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/**
 * Turns a failed hub answer into a `HubError` that says what to do. The hub
 * answers 401 both for a gated repository without a token and for a private
 * or missing one (it does not say which to an anonymous caller); its
 * `X-Error-Code` header tells gated and missing apart when it can.
 *
 * @public
 */
export function hubErrorOf(
  response: { status: number; headers: { get(name: string): string | null } },
  what: string,
  hasToken: boolean,
): HubError {
  const code = response.headers.get('x-error-code') ?? '';
  const { status } = response;
  if (code === 'GatedRepo') {
    return new HubError(
      'gated',
      hasToken
        ? `${what} is gated and the token in HF_TOKEN has not been granted access: request access on the model's page with that account`
        : `${what} is gated: put a token of an account with access in HF_TOKEN`,
      status,
    );
  }
  if (status === 401 || status === 403) {
    return new HubError(
      'unauthorized',
      hasToken
        ? `${what} refused the token in HF_TOKEN (HTTP ${status}): check that it is valid and has read access`
        : `${what} needs a token (HTTP ${status}: private, gated or missing): put a token of an account with access in HF_TOKEN`,
      status,
    );
  }
  if (status === 404 || /NotFound$/.test(code)) {
    return new HubError(
      'not-found',
      `${what} was not found (HTTP ${status}): check the repository id and revision`,
      status,
    );
  }
  return new HubError('http', `${what} answered HTTP ${status}`, status);
}

interface TreeEntry {
  type: string;
  path: string;
  size?: number;
  lfs?: { oid?: string; size?: number };
}

function nextPage(link: string | null): string | undefined {
  return link?.match(/<([^>]+)>\s*;\s*rel="next"/)?.[1];
}

/**
 * Every file of `repoId` at `options.revision`, with sizes and, for LFS
 * files, sha256 (`GET /api/models/{repo}/tree/{revision}?recursive=true`,
 * following the pages the `Link` header names).
 *
 * @public
 */
export async function listModelFiles(
  repoId: string,
  options: HubOptions = {},
): Promise<HubFile[]> {
  const endpoint = (options.endpoint ?? hubEndpoint()).replace(/\/+$/, '');
  const revision = encodeURIComponent(options.revision ?? 'main');
  const doFetch = options.fetch ?? fetch;
  const what = `The hub repository '${repoId}' at revision '${
    options.revision ?? 'main'
  }'`;
  const files: HubFile[] = [];
  let url:
    | string
    | undefined = `${endpoint}/api/models/${repoId}/tree/${revision}?recursive=true`;
  while (url) {
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { accept: 'application/json', ...authHeaders(options.token) },
        signal: options.signal,
      });
    } catch (error) {
      throw new HubError(
        'network',
        `Could not reach the hub at ${endpoint} (${
          (error as Error).message
        }): check HF_ENDPOINT and the network`,
      );
    }
    if (!response.ok) throw hubErrorOf(response, what, Boolean(options.token));
    const entries = (await response.json()) as TreeEntry[];
    for (const entry of entries) {
      if (entry.type !== 'file') continue;
      files.push({
        path: entry.path,
        size: entry.lfs?.size ?? entry.size ?? 0,
        ...(entry.lfs?.oid ? { sha256: entry.lfs.oid } : {}),
      });
    }
    url = nextPage(response.headers.get('link'));
  }
  return files;
}

/** A repository as the hub's search lists it: what a model picker shows. @public */
export interface HubModelSummary {
  id: string;
  /** Parameter count from the safetensors metadata, when the hub knows it. */
  parameters?: number;
  /** Bytes stored in the repository (every file), when the hub reports it. */
  sizeBytes?: number;
  license?: string;
  gated: boolean;
  downloads?: number;
  pipelineTag?: string;
}

interface SearchEntry {
  id?: string;
  modelId?: string;
  gated?: boolean | string;
  downloads?: number;
  pipeline_tag?: string;
  usedStorage?: number;
  safetensors?: { total?: number };
  cardData?: { license?: string };
  tags?: string[];
}

/** What the search asks the hub to include for each result. */
const SEARCH_EXPAND = [
  'safetensors',
  'cardData',
  'gated',
  'downloads',
  'usedStorage',
  'pipeline_tag',
  'tags',
];

/** The license of a search entry: its card's, else the hub's `license:` tag. */
function licenseOf(entry: SearchEntry): string | undefined {
  return (
    entry.cardData?.license ??
    entry.tags?.find(t => t.startsWith('license:'))?.slice('license:'.length)
  );
}

/**
 * Repositories matching `query` (`GET /api/models?search=&limit=&expand[]=…`),
 * most downloaded first as the hub orders them, with size, parameter count
 * and license when the hub has them.
 *
 * @public
 */
export async function searchModels(
  query: string,
  options: Omit<HubOptions, 'revision'> & { limit?: number } = {},
): Promise<HubModelSummary[]> {
  const endpoint = (options.endpoint ?? hubEndpoint()).replace(/\/+$/, '');
  const params = new URLSearchParams({
    search: query,
    limit: String(options.limit ?? 20),
    sort: 'downloads',
  });
  for (const field of SEARCH_EXPAND) params.append('expand[]', field);
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${endpoint}/api/models?${params}`, {
      headers: { accept: 'application/json', ...authHeaders(options.token) },
      signal: options.signal,
    });
  } catch (error) {
    throw new HubError(
      'network',
      `Could not reach the hub at ${endpoint} (${
        (error as Error).message
      }): check HF_ENDPOINT and the network`,
    );
  }
  if (!response.ok)
    throw hubErrorOf(
      response,
      `The hub's search for '${query}'`,
      Boolean(options.token),
    );
  const entries = (await response.json()) as SearchEntry[];
  return entries
    .map((entry): HubModelSummary | undefined => {
      const id = entry.id ?? entry.modelId;
      if (!id) return undefined;
      const license = licenseOf(entry);
      return {
        id,
        gated: Boolean(entry.gated) && entry.gated !== 'false',
        ...(entry.safetensors?.total
          ? { parameters: entry.safetensors.total }
          : {}),
        ...(entry.usedStorage ? { sizeBytes: entry.usedStorage } : {}),
        ...(license ? { license } : {}),
        ...(entry.downloads !== undefined
          ? { downloads: entry.downloads }
          : {}),
        ...(entry.pipeline_tag ? { pipelineTag: entry.pipeline_tag } : {}),
      };
    })
    .filter((m): m is HubModelSummary => m !== undefined);
}

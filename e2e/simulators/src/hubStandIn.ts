import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One repository of the stand-in: its files at `main` (any revision name answers). */
export interface StandInRepo {
  files: Record<string, Buffer | string>;
  /** Answer 401 `GatedRepo` unless the request carries the stand-in's token. */
  gated?: boolean;
  license?: string;
  /** Parameter count the search reports (the hub's `safetensors.total`). */
  parameters?: number;
}

export interface HubStandInOptions {
  repos: Record<string, StandInRepo>;
  /** The token gated repositories accept. */
  token?: string;
  /** Tree entries per page (the hub pages with a `Link` header); default 1000. */
  pageSize?: number;
  host?: string;
  port?: number;
  /**
   * Cut the connection after this many bytes of every file download that
   * starts at byte 0 (no `Range`, or `bytes=0-`): a dropped connection, so a
   * downloader's resume (`Range: bytes=N-`) can be tested. Ranged requests
   * from a later offset are served whole.
   */
  cutDownloadsAfterBytes?: number;
  /** Serve file downloads at about this many bytes per second (so progress can be watched). */
  throttleBytesPerSecond?: number;
}

/** Writes `body` in chunks paced to `bytesPerSecond`, then ends the response. */
function sendThrottled(
  res: ServerResponse,
  body: Buffer,
  bytesPerSecond: number,
) {
  const tick = 100;
  const chunk = Math.max(1, Math.round((bytesPerSecond * tick) / 1000));
  let offset = 0;
  const next = () => {
    if (res.destroyed) return;
    if (offset >= body.length) {
      res.end();
      return;
    }
    res.write(body.subarray(offset, offset + chunk));
    offset += chunk;
    setTimeout(next, tick);
  };
  next();
}

export interface HubStandIn {
  /** `http://host:port`, what `HF_ENDPOINT` is set to. */
  url: string;
  /** Every request seen: method, path and Range header. */
  requests: Array<{ method: string; path: string; range?: string }>;
  close(): Promise<void>;
}

/** Files above this size are listed as LFS files (with a sha256), as the hub does for weights. */
const LFS_THRESHOLD = 1024;

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A stand-in for the Hugging Face Hub, named as a simulator: a real HTTP
 * server on loopback in the hub's URL layout, enough for the clients of
 * this project (`@runway-portal/hub` and the model downloader):
 * - `GET /api/models/{repo}/tree/{revision}?recursive=true` with `Link` pages;
 * - `GET|HEAD /{repo}/resolve/{revision}/{path}` with `Range`, `ETag` and
 *   `X-Linked-Size` (sha256 as the ETag of LFS files);
 * - `GET /api/models/{repo}` and `GET /api/models?search=` (id, siblings, gated, license);
 * - 401 with `X-Error-Code: GatedRepo` for a gated repository without the
 *   token, 404 with `RepoNotFound` / `EntryNotFound` otherwise.
 */
export async function startHubStandIn(
  options: HubStandInOptions,
): Promise<HubStandIn> {
  const repos = new Map(
    Object.entries(options.repos).map(([id, repo]) => [
      id,
      {
        ...repo,
        files: new Map(
          Object.entries(repo.files).map(([path, content]) => [
            path,
            Buffer.isBuffer(content) ? content : Buffer.from(content),
          ]),
        ),
      },
    ]),
  );
  const requests: HubStandIn['requests'] = [];
  const pageSize = options.pageSize ?? 1000;

  // The longest repository id that prefixes `rest` (ids have one or two segments).
  const repoOf = (rest: string) =>
    [...repos.keys()]
      .filter(id => rest === id || rest.startsWith(`${id}/`))
      .sort((a, b) => b.length - a.length)[0];

  const authorised = (req: IncomingMessage, repoId: string) =>
    !repos.get(repoId)?.gated ||
    req.headers.authorization === `Bearer ${options.token}`;

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = decodeURIComponent(url.pathname);
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      ...(req.headers.range ? { range: req.headers.range } : {}),
    });

    if (path === '/api/models') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      send(
        res,
        200,
        [...repos.keys()]
          .filter(id => id.toLowerCase().includes(search))
          .slice(0, Number(url.searchParams.get('limit') ?? 1000))
          .map(id => {
            const repo = repos.get(id)!;
            // The hub's expanded fields: the bytes stored, the parameter count, the card's license.
            const usedStorage = [...repo.files.values()].reduce(
              (n, f) => n + f.length,
              0,
            );
            return {
              id,
              modelId: id,
              gated: repo.gated ?? false,
              downloads: 0,
              usedStorage,
              ...(repo.parameters
                ? { safetensors: { total: repo.parameters } }
                : {}),
              ...(repo.license ? { cardData: { license: repo.license } } : {}),
            };
          }),
      );
      return;
    }

    const api = path.startsWith('/api/models/');
    const rest = api ? path.slice('/api/models/'.length) : path.slice(1);
    const repoId = repoOf(rest);
    if (!repoId) {
      send(
        res,
        404,
        { error: 'Repository not found' },
        { 'x-error-code': 'RepoNotFound' },
      );
      return;
    }
    if (!authorised(req, repoId)) {
      send(
        res,
        401,
        {
          error: `Access to model ${repoId} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
        },
        { 'x-error-code': 'GatedRepo' },
      );
      return;
    }
    const repo = repos.get(repoId)!;
    const tail = rest.slice(repoId.length).replace(/^\//, '');

    if (api && tail === '') {
      send(res, 200, {
        id: repoId,
        modelId: repoId,
        sha: sha256(Buffer.from(repoId)).slice(0, 40),
        gated: repo.gated ? 'manual' : false,
        cardData: repo.license ? { license: repo.license } : {},
        siblings: [...repo.files.keys()].map(rfilename => ({ rfilename })),
      });
      return;
    }

    const tree = api ? /^tree\/[^/]+(?:\/(.*))?$/.exec(tail) : null;
    if (tree) {
      const prefix = tree[1] ? `${tree[1]}/` : '';
      const entries = [...repo.files.entries()]
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, content]) => ({
          type: 'file',
          oid: createHash('sha1').update(content).digest('hex'),
          size: content.length,
          path: name,
          ...(content.length > LFS_THRESHOLD
            ? {
                lfs: {
                  oid: sha256(content),
                  size: content.length,
                  pointerSize: 134,
                },
              }
            : {}),
        }));
      const cursor = Number(url.searchParams.get('cursor') ?? 0);
      const page = entries.slice(cursor, cursor + pageSize);
      const headers: Record<string, string> = {};
      if (cursor + pageSize < entries.length) {
        const next = new URL(url.toString());
        next.searchParams.set('cursor', String(cursor + pageSize));
        headers.link = `<${`http://${req.headers.host}${next.pathname}${next.search}`}>; rel="next"`;
      }
      send(res, 200, page, headers);
      return;
    }

    const resolve = !api ? /^resolve\/[^/]+\/(.+)$/.exec(tail) : null;
    const content = resolve ? repo.files.get(resolve[1]) : undefined;
    if (!resolve || !content) {
      send(
        res,
        404,
        { error: 'Entry not found' },
        { 'x-error-code': 'EntryNotFound' },
      );
      return;
    }
    const etag = `"${
      content.length > LFS_THRESHOLD
        ? sha256(content)
        : createHash('sha1').update(content).digest('hex')
    }"`;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Number(range[2]) : content.length - 1;
    if (range && start >= content.length) {
      res.writeHead(416, { 'content-range': `bytes */${content.length}` });
      res.end();
      return;
    }
    res.writeHead(range ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(end - start + 1),
      'accept-ranges': 'bytes',
      etag,
      'x-linked-size': String(content.length),
      ...(range
        ? { 'content-range': `bytes ${start}-${end}/${content.length}` }
        : {}),
    });
    if (req.method === 'HEAD') res.end();
    else if (
      options.cutDownloadsAfterBytes !== undefined &&
      start === 0 &&
      end - start + 1 > options.cutDownloadsAfterBytes
    ) {
      res.write(content.subarray(0, options.cutDownloadsAfterBytes), () =>
        res.destroy(),
      );
    } else if (options.throttleBytesPerSecond) {
      sendThrottled(
        res,
        content.subarray(start, end + 1),
        options.throttleBytesPerSecond,
      );
    } else res.end(content.subarray(start, end + 1));
  }

  const server = createServer(handle);
  await new Promise<void>(resolve =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    requests,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

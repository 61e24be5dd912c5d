/**
 * Plain HTTP(S) requests for the downloader on Node's own `http`/`https`
 * (streams straight into files, no buffering layer between), following
 * redirects; credentials are not sent to another host (the hub redirects
 * weights to a CDN with a signed URL).
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'HEAD';
  /** Called per URL (after redirects too), so S3 can sign each request. */
  headers?: (url: URL) => Record<string, string>;
  signal?: AbortSignal;
}

export class DownloadError extends Error {
  constructor(
    message: string,
    /** true: retrying cannot help (exit code 2, the Job fails at once). */
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

const agents = {
  http: new http.Agent({ keepAlive: true }),
  https: new https.Agent({ keepAlive: true }),
};

function requestOnce(
  url: URL,
  req: HttpRequest,
  headers: Record<string, string>,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const r = mod.request(
      url,
      {
        method: req.method ?? 'GET',
        headers,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        signal: req.signal,
      },
      resolve,
    );
    r.on('error', err =>
      reject(
        new DownloadError(
          `could not reach ${url.origin} (${err.message})`,
          false,
        ),
      ),
    );
    r.end();
  });
}

/** Sends the request and resolves with the response once its headers arrived (body unread). */
export async function send(
  req: HttpRequest,
  redirects = 5,
): Promise<http.IncomingMessage> {
  let url = new URL(req.url);
  const firstHost = url.host;
  for (let hop = 0; ; hop++) {
    const headers = url.host === firstHost ? req.headers?.(url) ?? {} : {};
    const res = await requestOnce(url, req, headers);
    const status = res.statusCode ?? 0;
    if (
      status >= 300 &&
      status < 400 &&
      res.headers.location &&
      hop < redirects
    ) {
      res.resume();
      url = new URL(res.headers.location, url);
      continue;
    }
    return res;
  }
}

export function readText(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** Total size of a resource from a 200's Content-Length or a 206's Content-Range. */
export function totalSizeOf(res: http.IncomingMessage): number | undefined {
  const range = /\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
  if (range) return Number(range[1]);
  const linked = res.headers['x-linked-size'];
  if (linked !== undefined) return Number(linked);
  const length = res.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}

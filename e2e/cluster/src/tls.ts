import { request } from 'node:https';

export interface ClientTls {
  ca: string;
  cert: string;
  key: string;
}

/** HTTP status of a GET over mutual TLS (rejects on connection errors). */
export function httpsStatus(
  url: string,
  tls: ClientTls,
  timeoutMs = 2000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    // agent: false keeps this independent of globalAgent (which test
    // environments may replace to block network access).
    const req = request(
      url,
      { ...tls, agent: false, timeout: timeoutMs },
      response => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.once('timeout', () =>
      req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)),
    );
    req.once('error', reject);
    req.end();
  });
}

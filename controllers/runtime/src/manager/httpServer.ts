import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = () => Promise<{
  status: number;
  contentType: string;
  body: string;
}>;

/** A small plain-HTTP server for /metrics and the probes. */
export class HttpEndpoints {
  private server?: http.Server;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly routes: Record<string, Route>,
  ) {}

  get boundPort(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://probe').pathname;
      const route = this.routes[path];
      if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        return;
      }
      route().then(
        ({ status, contentType, body }) =>
          res.writeHead(status, { 'Content-Type': contentType }).end(body),
        err =>
          res
            .writeHead(500, { 'Content-Type': 'text/plain' })
            .end(`${(err as Error).message}\n`),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>(resolve => server.close(() => resolve()));
    // Keep-alive connections (the API server keeps them) would hold close() open.
    server.closeAllConnections();
    await closed;
  }
}

export type Check = () => boolean | Promise<boolean>;

/** Runs named checks; the body lists each, like controller-runtime's verbose probe output. */
export async function runChecks(
  checks: Map<string, Check>,
): Promise<{ status: number; contentType: string; body: string }> {
  const lines: string[] = [];
  let ok = true;
  for (const [name, check] of checks) {
    let passed = false;
    try {
      passed = await check();
    } catch {
      passed = false;
    }
    ok &&= passed;
    lines.push(`[${passed ? '+' : '-'}]${name} ${passed ? 'ok' : 'failed'}`);
  }
  lines.push(ok ? 'check passed' : 'check failed');
  return {
    status: ok ? 200 : 500,
    contentType: 'text/plain',
    body: `${lines.join('\n')}\n`,
  };
}

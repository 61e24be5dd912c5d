import type { IncomingMessage, ServerResponse } from 'node:http';
import http2, {
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ControllerMetrics } from '../metrics/metrics';
import { Logger, silentLogger } from '../observability/logger';
import type { WebhookHandler } from './reviews';

/** @public */
export interface WebhookServerOptions {
  /** Default 0.0.0.0. */
  host?: string;
  /** Default 9443, like controller-runtime; 0 picks a free port. */
  port?: number;
  /** Larger request bodies are refused with 413; default 3 MiB (the API server's own limit). */
  maxBodyBytes?: number;
  logger?: Logger;
  metrics?: ControllerMetrics;
  /** How long `stop` lets calls in flight finish before it drops them; default 10 s. */
  stopGraceMs?: number;
}

class BodyTooLargeError extends Error {}

type WebhookRequest = IncomingMessage | Http2ServerRequest;
/** What `serve` uses of a response, the same in both protocols. */
type WebhookResponse = Pick<ServerResponse | Http2ServerResponse, 'end'> & {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
};

/** Connections and requests served, by protocol negotiated (ALPN): `h2` or `http/1.1`. */
export interface WebhookTraffic {
  connections: Record<string, number>;
  requests: Record<string, number>;
}

/** Idle connections are kept 120 s: longer than the API server keeps them (Go's 90 s). */
const IDLE_TIMEOUT_MS = 120_000;

/**
 * HTTPS server for admission and conversion webhooks, speaking HTTP/2 (and
 * HTTP/1.1 to clients that do not offer h2). Its certificate can be swapped
 * while it runs (after a rotation) without dropping requests.
 *
 * @public
 */
export class WebhookServer {
  private readonly handlers = new Map<string, WebhookHandler>();
  private server?: Http2SecureServer;
  /** Open HTTP/2 sessions and HTTP/1.1 sockets, closed by `stop`. */
  private readonly sessions = new Set<Http2Session>();
  private readonly http1Sockets = new Set<TLSSocket>();
  private readonly counts: WebhookTraffic = { connections: {}, requests: {} };
  private tls?: { cert: string; key: string };
  private readonly logger: Logger;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: WebhookServerOptions = {}) {
    this.logger = (options.logger ?? silentLogger).child({
      component: 'webhook-server',
    });
    this.maxBodyBytes = options.maxBodyBytes ?? 3 * 1024 * 1024;
  }

  /** Serves `handler` at `path` (e.g. `/validate-modeldeployment`). */
  register(path: string, handler: WebhookHandler): void {
    if (!path.startsWith('/'))
      throw new Error(`webhook path "${path}" must start with "/"`);
    if (this.handlers.has(path))
      throw new Error(
        `a webhook is already registered at ${path}: use another path`,
      );
    this.handlers.set(path, handler);
  }

  /** Installs (or replaces) the serving certificate. */
  setCertificate(certPem: string, keyPem: string): void {
    // Replaces the default context: API servers dial IPs without SNI.
    this.server?.setSecureContext({ cert: certPem, key: keyPem });
    this.tls = { cert: certPem, key: keyPem };
  }

  hasCertificate(): boolean {
    return this.tls !== undefined;
  }

  /** Connections and requests served so far, by protocol (a copy). */
  get traffic(): WebhookTraffic {
    return {
      connections: { ...this.counts.connections },
      requests: { ...this.counts.requests },
    };
  }

  /** The bound port (after start). */
  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async start(): Promise<void> {
    if (this.server) return;
    if (!this.tls)
      throw new Error(
        'the webhook server needs a certificate before it starts',
      );
    // HTTP/2 when the client offers it (the API server's Go client does): its calls share one
    // connection as concurrent streams, instead of each waiting for a free HTTP/1.1 connection
    // or opening one more (a TLS handshake each).
    const server = http2.createSecureServer(
      // noDelay: sessions get TCP_NODELAY anyway, HTTP/1.1 connections only with it (https.Server
      // sets it by default): without it a reply can wait for the client's delayed ACK (40 ms).
      { ...this.tls, allowHTTP1: true, noDelay: true },
      (req, res) => void this.serve(req, res),
    );
    // HTTP/1.1 connections: the API server keeps idle ones for 90 s; closing them sooner
    // (Node's default is 5 s) races with a call sent on one and costs a new TLS handshake.
    // (Read by Node's HTTP/1.1 connection handling; not in the HTTP/2 server's type.)
    Object.assign(server, {
      keepAliveTimeout: IDLE_TIMEOUT_MS,
      headersTimeout: IDLE_TIMEOUT_MS + 5_000,
    });
    // HTTP/2 sessions (and HTTP/1.1 sockets) idle that long are closed; a session with a
    // GOAWAY, which the client honours before sending another call, so nothing races.
    server.setTimeout(IDLE_TIMEOUT_MS);
    server.on('timeout', (idle: Http2Session | TLSSocket) => {
      if (this.sessions.has(idle as Http2Session))
        (idle as Http2Session).close();
      else (idle as TLSSocket).destroy();
    });
    server.on('secureConnection', (socket: TLSSocket) => {
      const protocol = protocolOf(socket);
      this.counts.connections[protocol] =
        (this.counts.connections[protocol] ?? 0) + 1;
      // One line per connection, not per request: with HTTP/2 the API server opens about one.
      this.logger.info('webhook connection', {
        protocol,
        remote: socket.remoteAddress,
      });
      if (protocol === 'h2') return;
      this.http1Sockets.add(socket);
      socket.once('close', () => this.http1Sockets.delete(socket));
    });
    server.on('session', session => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(
        this.options.port ?? 9443,
        this.options.host ?? '0.0.0.0',
        () => {
          server.off('error', reject);
          resolve();
        },
      );
    });
    this.logger.info('webhook server listening', {
      port: this.port,
      paths: [...this.handlers.keys()],
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>(resolve => server.close(() => resolve()));
    // Kept connections (the API server keeps them) would hold close() open. Sessions get a
    // GOAWAY and end once their calls in flight are answered; HTTP/1.1 sockets end now.
    for (const session of this.sessions) session.close();
    for (const socket of this.http1Sockets) socket.destroy();
    // A call that never ends (a client stalled mid-body) would hold a session, and close(), open.
    const drop = setTimeout(() => {
      for (const session of this.sessions) session.destroy();
    }, this.options.stopGraceMs ?? 10_000);
    await closed;
    clearTimeout(drop);
  }

  private async serve(
    req: WebhookRequest,
    res: WebhookResponse,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    const protocol = req.httpVersion === '2.0' ? 'h2' : 'http/1.1';
    this.counts.requests[protocol] = (this.counts.requests[protocol] ?? 0) + 1;
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    const handler = this.handlers.get(path);
    const reply = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
      this.options.metrics?.webhookRequests.inc({
        webhook: path,
        code: String(status),
      });
      this.options.metrics?.webhookLatency.observe(
        { webhook: path },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    if (!handler) {
      reply(404, { error: `no webhook at ${path}` });
      return;
    }
    if (req.method !== 'POST') {
      reply(405, { error: 'webhooks accept POST only' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readLimited(req, this.maxBodyBytes));
    } catch (err) {
      if (err instanceof BodyTooLargeError) reply(413, { error: err.message });
      else
        reply(400, {
          error: `request body is not JSON: ${(err as Error).message}`,
        });
      return;
    }
    try {
      const { status, body: out } = await handler(body);
      reply(status, out);
    } catch (err) {
      // Handlers are built not to throw; this is the last line of defence.
      this.logger.error('webhook handler threw', { path, error: err });
      reply(500, { error: 'internal error' });
    }
  }
}

function protocolOf(socket: TLSSocket): string {
  return socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1';
}

function readLimited(req: WebhookRequest, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLargeError(`request body exceeds ${maxBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControllerMetrics } from '../metrics/metrics';
import { Logger, silentLogger } from '../observability/logger';
import type { WebhookHandler } from './reviews';

export interface WebhookServerOptions {
  /** Default 0.0.0.0. */
  host?: string;
  /** Default 9443, like controller-runtime; 0 picks a free port. */
  port?: number;
  /** Larger request bodies are refused with 413; default 3 MiB (the API server's own limit). */
  maxBodyBytes?: number;
  logger?: Logger;
  metrics?: ControllerMetrics;
}

class BodyTooLargeError extends Error {}

/**
 * HTTPS server for admission and conversion webhooks. Its certificate can
 * be swapped while it runs (after a rotation) without dropping requests.
 */
export class WebhookServer {
  private readonly handlers = new Map<string, WebhookHandler>();
  private server?: https.Server;
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
    const server = https.createServer(
      { ...this.tls },
      (req, res) => void this.serve(req, res),
    );
    // The API server keeps idle connections for 90 s (Go's default); closing them sooner
    // (Node's default is 5 s) races with a call sent on one and costs a new TLS handshake.
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 125_000;
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
    // Keep-alive connections (the API server keeps them) would hold close() open.
    server.closeAllConnections();
    await closed;
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const started = process.hrtime.bigint();
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

function readLimited(req: IncomingMessage, maxBytes: number): Promise<string> {
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

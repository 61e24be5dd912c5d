import { KubeConfig } from '@kubernetes/client-node';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeClient } from './client';
import { KubeApiError, KubeConnectionError } from './errors';

/** A local plain-HTTP "API server" answering with `handler`, and a client of it. */
async function serve(
  handler: http.RequestListener,
  options: { requestTimeoutMs?: number } = {},
) {
  const server = http.createServer(handler);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      // client-node refuses plain HTTP unless told not to verify TLS.
      { name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true },
    ],
    users: [{ name: 'u', token: 'secret' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const client = new KubeClient(kc, options);
  return {
    client,
    kc,
    close: async () => {
      client.close();
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    },
  };
}

const answer =
  (status: number, body: object): http.RequestListener =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

describe('KubeClient transport', () => {
  it('reads the credentials once for many requests, and again after a 401', async () => {
    let status = 200;
    const seen: Array<string | undefined> = [];
    const local = await serve((req, res) => {
      seen.push(req.headers.authorization);
      answer(status, status === 200 ? { ok: true } : { code: status })(
        req,
        res,
      );
    });
    const reads = jest.spyOn(local.kc, 'applyToHTTPSOptions');
    try {
      for (let i = 0; i < 5; i++)
        await local.client.request({ method: 'GET', path: '/x' });
      expect(reads).toHaveBeenCalledTimes(1);
      expect(seen).toEqual(Array(5).fill('Bearer secret'));

      status = 401;
      await expect(
        local.client.request({ method: 'GET', path: '/x' }),
      ).rejects.toBeInstanceOf(KubeApiError);
      status = 200;
      await local.client.request({ method: 'GET', path: '/x' });
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      await local.close();
    }
  });

  it('gives up on a request with no answer within the timeout, naming it, and marks the server down', async () => {
    const local = await serve(() => undefined, { requestTimeoutMs: 100 });
    try {
      const failure = local.client.request({ method: 'GET', path: '/slow' });
      await expect(failure).rejects.toBeInstanceOf(KubeConnectionError);
      await expect(failure).rejects.toThrow(
        'GET /slow: no answer within 100 ms',
      );
      expect(local.client.connectivity.isDown()).toBe(true);
    } finally {
      await local.close();
    }
  });

  it('leaves an answered request alone once its timeout has passed', async () => {
    const local = await serve(answer(200, { ok: true }), {
      requestTimeoutMs: 50,
    });
    try {
      await expect(
        local.client.request({ method: 'GET', path: '/fast' }),
      ).resolves.toEqual({ ok: true });
      await new Promise(resolve => setTimeout(resolve, 150));
      expect(local.client.connectivity.isDown()).toBe(false);
      // The kept-alive connection still serves the next request.
      await expect(
        local.client.request({ method: 'GET', path: '/fast' }),
      ).resolves.toEqual({ ok: true });
    } finally {
      await local.close();
    }
  });

  it('cuts a response whose body does not end within the timeout', async () => {
    const local = await serve(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"partial":');
      },
      { requestTimeoutMs: 100 },
    );
    try {
      await expect(
        local.client.request({ method: 'GET', path: '/stalls' }),
      ).rejects.toThrow('GET /stalls: answer not complete within 100 ms');
    } finally {
      await local.close();
    }
  });

  it('answers a request while more answers stay open than a controller has workers', async () => {
    // Watches and followed logs hold their connection; a lease renewal must not wait for one.
    const local = await serve((req, res) => {
      if (req.url?.startsWith('/open')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"type":"ADDED"');
        return;
      }
      answer(200, { ok: true })(req, res);
    });
    try {
      const open = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          local.client.stream({
            method: 'GET',
            path: `/open/${i}`,
            timeoutMs: 0,
          }),
        ),
      );
      await expect(
        local.client.request({
          method: 'GET',
          path: '/lease',
          timeoutMs: 2000,
        }),
      ).resolves.toEqual({ ok: true });
      for (const res of open) res.destroy();
    } finally {
      await local.close();
    }
  });
});

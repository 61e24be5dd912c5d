import http2 from 'node:http2';
import https from 'node:https';
import { generateCA, generateServingCert } from './certs';
import { validatingWebhook } from './reviews';
import { WebhookServer } from './server';

const hosts = { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] };

async function makeCerts() {
  const ca = await generateCA('test-ca', 86_400_000);
  const serving = await generateServingCert(ca, hosts, 86_400_000);
  return { ca: ca.cert, ...serving };
}

function post(
  port: number,
  path: string,
  body: string,
  ca: string,
  method = 'POST',
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path, method, ca, agent: false },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode ?? 0,
            body: text ? JSON.parse(text) : undefined,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An HTTP/2 session to the server, as the API server's Go client opens (ALPN h2). */
function h2Session(
  port: number,
  ca: string,
): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca });
    session.once('error', reject);
    session.once('connect', () => {
      session.off('error', reject);
      resolve(session);
    });
  });
}

/** One call on an HTTP/2 session (a stream). */
function h2Post(
  session: http2.ClientHttp2Session,
  path: string,
  body: string,
  method = 'POST',
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': method, ':path': path },
      { endStream: false }, // a GET has a (empty) body here too
    );
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', headers => {
      status = Number(headers[':status']);
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status, body: text ? JSON.parse(text) : undefined });
    });
    stream.on('error', reject);
    stream.end(body);
  });
}

const review = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'u',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    operation: 'CREATE',
    userInfo: {},
    object: { metadata: { name: 'x' } },
  },
});

describe('WebhookServer', () => {
  const server = new WebhookServer({
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 64 * 1024,
  });
  let certs: Awaited<ReturnType<typeof makeCerts>>;

  beforeAll(async () => {
    certs = await makeCerts();
    server.register(
      '/validate',
      validatingWebhook(() => ({ allowed: true })),
    );
    server.register('/throws', async () => {
      throw new Error('kaboom');
    });
    server.setCertificate(certs.cert, certs.key);
    await server.start();
  });
  afterAll(() => server.stop());

  it('serves registered handlers over TLS with its own certificate', async () => {
    const res = await post(server.port, '/validate', review, certs.ca);
    expect(res).toEqual({
      status: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'u', allowed: true },
      },
    });
  });

  it('answers unknown paths, wrong methods, bad and oversized bodies without crashing', async () => {
    expect((await post(server.port, '/nope', review, certs.ca)).status).toBe(
      404,
    );
    expect(
      (await post(server.port, '/validate', '', certs.ca, 'GET')).status,
    ).toBe(405);
    const bad = await post(server.port, '/validate', '{not json', certs.ca);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/not JSON/);
    const huge = await post(
      server.port,
      '/validate',
      'x'.repeat(100 * 1024),
      certs.ca,
    ).catch(() => ({ status: 413 }));
    expect(huge.status).toBe(413);
    // Still serving afterwards.
    expect(
      (await post(server.port, '/validate', review, certs.ca)).status,
    ).toBe(200);
  });

  it('answers 500 when a handler throws, and keeps serving', async () => {
    const res = await post(server.port, '/throws', review, certs.ca);
    expect(res).toEqual({ status: 500, body: { error: 'internal error' } });
    expect(
      (await post(server.port, '/validate', review, certs.ca)).status,
    ).toBe(200);
  });

  it('speaks HTTP/2 to clients that offer it: many calls as streams of one connection', async () => {
    const before = server.traffic;
    const session = await h2Session(server.port, certs.ca);
    try {
      expect(session.alpnProtocol).toBe('h2');
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => h2Post(session, '/validate', review)),
      );
      for (const reply of replies)
        expect(reply).toEqual({
          status: 200,
          body: {
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: { uid: 'u', allowed: true },
          },
        });
      const after = server.traffic;
      expect(after.connections.h2 ?? 0).toBe((before.connections.h2 ?? 0) + 1);
      expect(after.requests.h2 ?? 0).toBe((before.requests.h2 ?? 0) + 50);
    } finally {
      session.close();
    }
  });

  it('answers errors over HTTP/2 as over HTTP/1.1, and the session survives them', async () => {
    const session = await h2Session(server.port, certs.ca);
    try {
      expect((await h2Post(session, '/nope', review)).status).toBe(404);
      expect((await h2Post(session, '/validate', '', 'GET')).status).toBe(405);
      const bad = await h2Post(session, '/validate', '{not json');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/not JSON/);
      const malformed = await h2Post(
        session,
        '/validate',
        JSON.stringify({ apiVersion: 'admission.k8s.io/v1' }),
      );
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/not a valid AdmissionReview/);
      expect(await h2Post(session, '/throws', review)).toEqual({
        status: 500,
        body: { error: 'internal error' },
      });
      // Too large: the stream is reset (or answered 413), the session goes on.
      const huge = await h2Post(
        session,
        '/validate',
        'x'.repeat(100 * 1024),
      ).catch(() => ({ status: 413 }));
      expect(huge.status).toBe(413);
      expect((await h2Post(session, '/validate', review)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it('switches to a rotated certificate while running', async () => {
    const next = await makeCerts();
    server.setCertificate(next.cert, next.key);
    expect((await post(server.port, '/validate', review, next.ca)).status).toBe(
      200,
    );
    await expect(
      post(server.port, '/validate', review, certs.ca),
    ).rejects.toThrow(/self-signed|unable to verify|certificate/);
    // HTTP/2 connections get the new certificate too.
    const session = await h2Session(server.port, next.ca);
    try {
      expect((await h2Post(session, '/validate', review)).status).toBe(200);
    } finally {
      session.close();
    }
    await expect(h2Session(server.port, certs.ca)).rejects.toThrow(
      /self-signed|unable to verify|certificate/,
    );
    certs = next;
  });

  it('stops while clients hold idle connections of both protocols', async () => {
    const other = new WebhookServer({ host: '127.0.0.1', port: 0 });
    other.register(
      '/validate',
      validatingWebhook(() => ({ allowed: true })),
    );
    other.setCertificate(certs.cert, certs.key);
    await other.start();
    const session = await h2Session(other.port, certs.ca);
    const closed = new Promise(resolve => session.once('close', resolve));
    expect((await h2Post(session, '/validate', review)).status).toBe(200);
    const agent = new https.Agent({ keepAlive: true, ca: certs.ca });
    const kept = await new Promise<number>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: other.port,
          path: '/validate',
          method: 'POST',
          agent,
        },
        res => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(review);
    });
    expect(kept).toBe(200);
    await other.stop(); // would hang on either kept connection
    await closed;
    agent.destroy();
  });

  it('stops within its grace period while a call never ends', async () => {
    const other = new WebhookServer({
      host: '127.0.0.1',
      port: 0,
      stopGraceMs: 200,
    });
    other.register(
      '/validate',
      validatingWebhook(() => ({ allowed: true })),
    );
    other.setCertificate(certs.cert, certs.key);
    await other.start();
    const session = await h2Session(other.port, certs.ca);
    session.on('error', () => {});
    const closed = new Promise(resolve => session.once('close', resolve));
    const stalled = session.request(
      { ':method': 'POST', ':path': '/validate' },
      { endStream: false },
    );
    stalled.on('error', () => {});
    stalled.write('{"apiVersion":'); // and never the rest
    await new Promise(r => setTimeout(r, 50));
    await expect(other.stop()).resolves.toBeUndefined(); // Jest's timeout if it hung
    await closed;
    expect(session.destroyed).toBe(true);
  });

  it('refuses duplicate paths and paths without a slash', () => {
    expect(() =>
      server.register(
        '/validate',
        validatingWebhook(() => ({ allowed: true })),
      ),
    ).toThrow(/already registered/);
    expect(() =>
      server.register(
        'validate2',
        validatingWebhook(() => ({ allowed: true })),
      ),
    ).toThrow(/must start with "\/"/);
  });
});

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

  it('switches to a rotated certificate while running', async () => {
    const next = await makeCerts();
    server.setCertificate(next.cert, next.key);
    expect((await post(server.port, '/validate', review, next.ca)).status).toBe(
      200,
    );
    await expect(
      post(server.port, '/validate', review, certs.ca),
    ).rejects.toThrow(/self-signed|unable to verify|certificate/);
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

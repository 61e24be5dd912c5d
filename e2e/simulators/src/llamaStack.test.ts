import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateCA } from '@runway-portal/controller-runtime';
import {
  loopbackAddress,
  podServer,
  serverEndpoint,
  SIMULATED_HEALTH_ENV,
  SIMULATED_SCHEME_ENV,
  simulatedHealth,
} from './llamaStack';

const pod = (container: any) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'n' },
  spec: { containers: [container] },
});

describe('llama-stack simulator', () => {
  it('answers OK unless the container env asks for a status or an HTTP code', () => {
    expect(simulatedHealth(pod({ name: 'llama-stack' }))).toEqual({
      code: 200,
      body: '{"status":"OK"}',
    });
    const withEnv = (value: string) =>
      simulatedHealth(pod({ env: [{ name: SIMULATED_HEALTH_ENV, value }] }));
    expect(withEnv('Error')).toEqual({ code: 200, body: '{"status":"Error"}' });
    expect(withEnv('503')).toEqual({ code: 503, body: '{"status":"Error"}' });
    expect(withEnv('OK').code).toBe(200);
  });

  it("listens on the pod's http port, with TLS when its readiness probe is HTTPS", () => {
    expect(
      serverEndpoint(
        pod({
          ports: [
            { name: 'metrics', containerPort: 9090 },
            { name: 'http', containerPort: 9000 },
          ],
          readinessProbe: { httpGet: { scheme: 'HTTPS' } },
        }),
      ),
    ).toEqual({ port: 9000, https: true });
    expect(serverEndpoint(pod({}))).toEqual({ port: 8321, https: false });
  });

  it('speaks the scheme the container env names, whatever the probe says (a server without TLS on a TLS stack)', () => {
    const probed = (scheme: string, value?: string) =>
      serverEndpoint(
        pod({
          readinessProbe: { httpGet: { scheme } },
          env: value ? [{ name: SIMULATED_SCHEME_ENV, value }] : [],
        }),
      ).https;
    expect(probed('HTTPS', 'http')).toBe(false);
    expect(probed('HTTP', 'https')).toBe(true);
    expect(probed('HTTPS', 'HTTP')).toBe(false);
    // Anything else is ignored: the probe's scheme.
    expect(probed('HTTPS', 'ftp')).toBe(true);
    expect(probed('HTTPS')).toBe(true);
  });

  it('gives every pod its own loopback address, never .0 or .255', () => {
    expect(loopbackAddress(40, 1)).toBe('127.40.0.1');
    expect(loopbackAddress(40, 254)).toBe('127.40.0.254');
    expect(loopbackAddress(40, 255)).toBe('127.40.1.1');
    const all = new Set(
      Array.from({ length: 1000 }, (_, i) => loopbackAddress(40, i + 1)),
    );
    expect(all.size).toBe(1000);
    expect([...all].some(a => /\.(0|255)$/.test(a))).toBe(false);
  });

  it('serves HTTPS at a loopback pod address with a certificate for that address', async () => {
    const ca = await generateCA('test CA', 3600_000);
    const server = await podServer('127.0.0.1', ca, (_req, res) => {
      res.end('{"status":"OK"}');
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get(`https://127.0.0.1:${port}/v1/health`, { ca: ca.cert }, res => {
            let text = '';
            res.on('data', c => (text += c));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      // Verified against the CA: the certificate names the address.
      expect(body).toBe('{"status":"OK"}');
    } finally {
      await new Promise(r => server.close(r));
    }
  });
});

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  generateCA,
  generateServingCert,
} from '@runway-portal/controller-runtime';
import {
  defaultStackV1alpha2,
  normalizeStackV1alpha2,
} from '@runway-portal/plugin-runway-common';
import {
  healthOf,
  judgeAnswer,
  MAX_PROBED_PODS,
  probeErrorText,
  probePods,
  probeTargets,
} from './health';
import type { Stack } from './objects';

const stack = (spec: unknown): Stack =>
  defaultStackV1alpha2(
    normalizeStackV1alpha2({
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 's', namespace: 'team-a', uid: 'u' },
      spec,
    }).object as Stack,
  );

const pod = (name: string, extra: any = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'team-a',
    labels: {
      'app.kubernetes.io/name': 'llama-stack',
      'app.kubernetes.io/instance': 's',
    },
    annotations: { 'llamastack.io/config-hash': 'sha256:a' },
    ...extra.metadata,
  },
  status: {
    phase: 'Running',
    podIP: '10.0.0.5',
    conditions: [{ type: 'Ready', status: 'True' }],
    ...extra.status,
  },
});

describe('probeTargets', () => {
  it('only Ready pods of this stack running the config, at their pod IP and the server port', () => {
    const pods = [
      pod('s-b'),
      pod('s-a', { status: { podIP: 'fd00::5' } }),
      pod('old', {
        metadata: { annotations: { 'llamastack.io/config-hash': 'sha256:b' } },
      }),
      pod('starting', { status: { conditions: [] } }),
      pod('other', {
        metadata: {
          labels: {
            'app.kubernetes.io/name': 'llama-stack',
            'app.kubernetes.io/instance': 'x',
          },
        },
      }),
      pod('elsewhere', { metadata: { namespace: 'team-b' } }),
    ];
    expect(
      probeTargets(
        stack({ distribution: { name: 'starter' } }),
        pods as any,
        'sha256:a',
      ),
    ).toEqual([
      { pod: 's-a', url: 'http://[fd00::5]:8321/v1/health' },
      { pod: 's-b', url: 'http://10.0.0.5:8321/v1/health' },
    ]);
    const tls = stack({
      distribution: { name: 'starter' },
      networking: { port: 9000, tls: { enabled: true, secretName: 't' } },
    });
    expect(probeTargets(tls, [pod('s-b')] as any, 'sha256:a')).toEqual([
      { pod: 's-b', url: 'https://10.0.0.5:9000/v1/health' },
    ]);
    const many = Array.from({ length: 9 }, (_, i) => pod(`s-${i}`));
    expect(
      probeTargets(
        stack({ distribution: { name: 'starter' } }),
        many as any,
        'sha256:a',
      ),
    ).toHaveLength(MAX_PROBED_PODS);
  });
});

describe('judgeAnswer and healthOf', () => {
  it('healthy only as 200 with {"status":"OK"}; a bad answer wins over a missing one', () => {
    expect(judgeAnswer('p', 200, '{"status":"OK"}').ok).toBe(true);
    expect(judgeAnswer('p', 200, '{"status":"Error"}')).toEqual({
      pod: 'p',
      reached: true,
      ok: false,
      detail: 'pod p answered HTTP 200 {"status":"Error"}',
    });
    expect(judgeAnswer('p', 503, '').detail).toBe(
      'pod p answered HTTP 503 (empty body)',
    );
    expect(judgeAnswer('p', 200, 'OK').ok).toBe(false);
    expect(healthOf([])).toBeUndefined();
    const ok = { pod: 'a', reached: true, ok: true, detail: 'OK' };
    const down = { pod: 'b', reached: false, ok: false, detail: 'b: refused' };
    const bad = { pod: 'c', reached: true, ok: false, detail: 'c: 500' };
    expect(healthOf([ok, ok])).toEqual({ state: 'ok', pods: 2 });
    expect(healthOf([ok, down])).toEqual({
      state: 'unreachable',
      message: 'b: refused',
    });
    expect(healthOf([down, bad])).toEqual({
      state: 'failed',
      message: 'c: 500',
    });
  });
});

describe('probePods', () => {
  it('asks a real server and reports one that does not answer', async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(req.url === '/v1/health' ? 200 : 404, {
        'content-type': 'application/json',
      });
      res.end(
        JSON.stringify({ status: req.url === '/v1/health' ? 'OK' : 'no' }),
      );
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // A port nothing listens on: closed right after it was taken.
    const closed = http.createServer();
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise(r => closed.close(r));
    try {
      const answers = await probePods([
        { pod: 'up', url: `http://127.0.0.1:${port}/v1/health` },
        { pod: 'down', url: `http://127.0.0.1:${closedPort}/v1/health` },
      ]);
      expect(answers[0]).toEqual({
        pod: 'up',
        reached: true,
        ok: true,
        detail: 'OK',
      });
      expect(answers[1]).toMatchObject({
        pod: 'down',
        reached: false,
        ok: false,
      });
      expect(answers[1].detail).toContain('ECONNREFUSED');
    } finally {
      await new Promise(r => server.close(r));
    }
  });

  it('a TLS stack is probed over HTTPS: a self-signed server is healthy, a plain HTTP one never is', async () => {
    const health = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"OK"}');
    };
    // A certificate the probe cannot verify (its own CA, another name): only liveness is read.
    const ca = await generateCA('user CA', 3600_000);
    const cert = await generateServingCert(
      ca,
      { dnsNames: ['s-service.team-a.svc'], ipAddresses: [] },
      3600_000,
    );
    const secure = https.createServer(cert, health);
    // A server that never turned TLS on, answering OK to anyone who speaks HTTP.
    const plain = http.createServer(health);
    const listen = async (server: http.Server) => {
      await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
      return (server.address() as AddressInfo).port;
    };
    const [securePort, plainPort] = [await listen(secure), await listen(plain)];
    const tls = stack({
      distribution: { name: 'starter' },
      networking: { tls: { enabled: true, secretName: 't' } },
    });
    const target = (name: string, port: number) => {
      const [t] = probeTargets(
        tls,
        [pod(name, { status: { podIP: '127.0.0.1' } })] as any,
        'sha256:a',
      );
      return { ...t, url: t.url.replace(':8321/', `:${port}/`) };
    };
    try {
      const answers = await probePods([
        target('s-secure', securePort),
        target('s-plain', plainPort),
      ]);
      expect(answers[0]).toEqual({
        pod: 's-secure',
        reached: true,
        ok: true,
        detail: 'OK',
      });
      expect(answers[1]).toMatchObject({
        pod: 's-plain',
        reached: false,
        ok: false,
      });
      expect(answers[1].detail).toBe(
        `pod s-plain at https://127.0.0.1:${plainPort}/v1/health: TLS handshake failed: the server does not answer HTTPS on this port (networking.tls.enabled: it must serve TLS with the certificate of networking.tls.secretName)`,
      );
      // Not healthy: the stack stays Initializing (HealthCheckUnreachable), never Ready.
      expect(healthOf(answers)).toEqual({
        state: 'unreachable',
        message: answers[1].detail,
      });
    } finally {
      await Promise.all([secure, plain].map(s => new Promise(r => s.close(r))));
    }
  });
});

describe('probeErrorText', () => {
  it("names a TLS handshake with a plain server, keeps every other cause's own words", () => {
    const openssl = Object.assign(
      new Error(
        'write EPROTO C0BCA153347F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number',
      ),
      { code: 'EPROTO' },
    );
    expect(probeErrorText(openssl, 'https://10.0.0.5:8321/v1/health')).toMatch(
      /^TLS handshake failed: the server does not answer HTTPS on this port/,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    expect(probeErrorText(refused, 'https://10.0.0.5:8321/v1/health')).toBe(
      'connect ECONNREFUSED',
    );
    // Over plain HTTP there is no handshake to blame.
    expect(probeErrorText(openssl, 'http://10.0.0.5:8321/v1/health')).toBe(
      openssl.message,
    );
  });
});

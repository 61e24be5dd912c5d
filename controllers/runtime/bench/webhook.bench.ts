/*
 * Benchmark of the webhook server in process (not a test: it prints
 * numbers). Issue 21's admission cost: where a call's time goes on our side.
 *
 *   yarn workspace @runway-portal/controller-runtime bench:webhook [--calls 4000] [--in-flight 32]
 *
 * 1. CPU per AdmissionReview, step by step (median of several passes): the
 *    body's JSON.parse, the validating and the mutating handler (schema check,
 *    copy, JSON patch, reply) and the reply's JSON.stringify.
 * 2. The same server over the network, called from a child process (like
 *    the API server's client; the server's CPU per call is this process's): CALLS calls, IN_FLIGHT at a
 *    time alternating the validating and the mutating path, once over
 *    HTTP/1.1 with a keep-alive pool (the baseline: what the server spoke
 *    before) and once over one HTTP/2 connection, as the API server's Go
 *    client now negotiates. Latency is measured by the client, as the API
 *    server's `apiserver_admission_webhook_admission_duration_seconds` is.
 */
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import type { KubeObject } from '../src/kube/types';
import { generateCA, generateServingCert } from '../src/webhook/certs';
import { mutatingWebhook, validatingWebhook } from '../src/webhook/reviews';
import { WebhookServer } from '../src/webhook/server';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '4000' },
    'in-flight': { type: 'string', default: '32' },
  },
});
const CALLS = Number(args.calls);
const IN_FLIGHT = Number(args['in-flight']);

const progress = (step: string) =>
  process.stderr.write(`[bench] ${new Date().toISOString()} ${step}\n`);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A ModelDeployment CREATE as the API server sends it (managedFields included). */
function createReview(i: number): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `0b6b0b9e-7d7e-4c1c-9a55-${String(i).padStart(12, '0')}`,
      kind: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        kind: 'ModelDeployment',
      },
      resource: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        resource: 'modeldeployments',
      },
      requestKind: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        kind: 'ModelDeployment',
      },
      requestResource: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        resource: 'modeldeployments',
      },
      name: `md-${i}`,
      namespace: 'bench',
      operation: 'CREATE',
      userInfo: {
        username: 'kubernetes-admin',
        groups: ['kubeadm:cluster-admins', 'system:authenticated'],
      },
      object: {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: {
          name: `md-${i}`,
          namespace: 'bench',
          uid: `9f1c2d3e-0000-4000-8000-${String(i).padStart(12, '0')}`,
          creationTimestamp: '2026-11-26T08:00:00Z',
          managedFields: [
            {
              manager: 'bench',
              operation: 'Update',
              apiVersion: 'airunway.ai/v1alpha1',
              time: '2026-11-26T08:00:00Z',
              fieldsType: 'FieldsV1',
              fieldsV1: {
                'f:spec': {
                  '.': {},
                  'f:engine': { '.': {}, 'f:type': {} },
                  'f:model': { '.': {}, 'f:id': {}, 'f:source': {} },
                  'f:resources': { '.': {}, 'f:gpu': {}, 'f:memory': {} },
                },
              },
            },
          ],
        },
        spec: {
          model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
          engine: { type: 'vllm' },
          resources: { gpu: { count: 1 }, memory: '16Gi' },
        },
      },
      oldObject: null,
      dryRun: true,
      options: {
        kind: 'CreateOptions',
        apiVersion: 'meta.k8s.io/v1',
        dryRun: ['All'],
      },
    },
  });
}

/** Static defaults, of the kind the core's mutating webhook fills in. */
function withDefaults(object: KubeObject): KubeObject {
  const spec = (object as { spec: Record<string, any> }).spec;
  spec.replicas ??= 1;
  spec.model.servedName ??= spec.model.id.split('/').at(-1);
  spec.serving = { api: 'openai', port: 8000, ...spec.serving };
  spec.scaling = { minReplicas: 1, maxReplicas: 1, ...spec.scaling };
  return object;
}

const validate = validatingWebhook(() => ({ allowed: true }));
const mutate = mutatingWebhook(withDefaults);

/** Median microseconds per call of `step` over PASSES passes of `n` calls. */
async function microseconds(
  n: number,
  step: (i: number) => unknown,
): Promise<number> {
  const passes: number[] = [];
  for (let pass = 0; pass < 7; pass++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) await step(i);
    passes.push(((performance.now() - started) * 1000) / n);
  }
  return median(passes.slice(2)); // the first passes compile
}

/** The client side, in its own process: `calls` POSTs with `inFlight` at a time; latencies in ms. */
const CLIENT = `
const chunks = [];
process.stdin.on('data', c => chunks.push(c));
process.stdin.on('end', () => main(JSON.parse(Buffer.concat(chunks).toString())).catch(err => { console.error(err); process.exit(1); }));
const http2 = require('node:http2');
const https = require('node:https');
const paths = ['/validate', '/mutate'];
async function main({ port, ca, protocol, calls, inFlight, bodies }) {
  let session;
  let agent;
  let send;
  if (protocol === 'h2') {
    session = http2.connect('https://127.0.0.1:' + port, { ca });
    send = (path, body) => new Promise((resolve, reject) => {
      const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json' });
      let status = 0;
      stream.on('response', h => { status = h[':status']; });
      stream.on('data', () => {});
      stream.on('end', () => status === 200 ? resolve() : reject(new Error('status ' + status)));
      stream.on('error', reject);
      stream.end(body);
    });
  } else {
    // Like the API server's Go client before h2: keep-alive, up to 25 idle connections kept.
    agent = new https.Agent({ keepAlive: true, maxFreeSockets: 25, ca });
    send = (path, body) => new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port, path, method: 'POST', agent,
        headers: { 'content-type': 'application/json' } }, res => {
        res.resume();
        res.on('end', () => res.statusCode === 200 ? resolve() : reject(new Error('status ' + res.statusCode)));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < calls) {
      const i = next++;
      const t = performance.now();
      await send(paths[i % 2], bodies[i % bodies.length]);
      latencies.push(performance.now() - t);
    }
  }));
  const elapsed = performance.now() - started;
  session?.close();
  agent?.destroy();
  process.stdout.write(JSON.stringify({ elapsed, latencies }));
}
`;

interface NetworkRun {
  elapsedMs: number;
  latenciesMs: number[];
  /** CPU of the server's process during the run (its idle share included). */
  serverCpuMs: number;
}

/** Runs the client in its own process; returns its timings and the CPU this (the server's) process used meanwhile. */
function runClient(
  port: number,
  ca: string,
  protocol: 'h2' | 'http/1.1',
  bodies: string[],
): Promise<NetworkRun> {
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    const child = spawn(process.execPath, ['-e', CLIENT], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.once('error', reject);
    child.once('exit', code => {
      const cpu = process.cpuUsage(cpuBefore);
      if (code !== 0) {
        reject(new Error(`the client exited with ${code}`));
        return;
      }
      const m = JSON.parse(Buffer.concat(out).toString()) as {
        elapsed: number;
        latencies: number[];
      };
      resolve({
        elapsedMs: m.elapsed,
        latenciesMs: m.latencies,
        serverCpuMs: (cpu.user + cpu.system) / 1000,
      });
    });
    child.stdin.end(
      JSON.stringify({
        port,
        ca,
        protocol,
        calls: CALLS,
        inFlight: IN_FLIGHT,
        bodies,
      }),
    );
  });
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const bodies = Array.from({ length: 64 }, (_, i) => createReview(i));
  const parsed = bodies.map(b => JSON.parse(b));
  const replyOf = await validate(parsed[0]);

  progress('CPU per review, step by step');
  const steps: Array<[string, number]> = [
    [
      'JSON.parse of the request body',
      await microseconds(20_000, i => JSON.parse(bodies[i % 64])),
    ],
    [
      'validating handler (schema check, reply)',
      await microseconds(20_000, i => validate(parsed[i % 64])),
    ],
    [
      'mutating handler (schema check, copy, JSON patch, reply)',
      await microseconds(20_000, i => mutate(parsed[i % 64])),
    ],
    [
      'JSON.stringify of the reply',
      await microseconds(20_000, () => JSON.stringify(replyOf.body)),
    ],
  ];

  progress('over the network: HTTP/1.1, then HTTP/2, then both again');
  const ca = await generateCA('bench-ca', 86_400_000);
  const serving = await generateServingCert(
    ca,
    { dnsNames: [], ipAddresses: ['127.0.0.1'] },
    86_400_000,
  );
  const server = new WebhookServer({ host: '127.0.0.1', port: 0 });
  server.register('/validate', validate);
  server.register('/mutate', mutate);
  server.setCertificate(serving.cert, serving.key);
  await server.start();
  const runs: Record<string, NetworkRun[]> = { 'http/1.1': [], h2: [] };
  try {
    // Alternating, so both protocols see the same machine load.
    for (let round = 0; round < 2; round++) {
      for (const protocol of ['http/1.1', 'h2'] as const)
        runs[protocol].push(
          await runClient(server.port, ca.cert, protocol, bodies),
        );
    }
  } finally {
    await server.stop();
  }

  const lines = [
    `webhook server, in process; one AdmissionReview body ${Buffer.byteLength(
      bodies[0],
    )} bytes`,
    'CPU per review (median of 5 passes), microseconds:',
    ...steps.map(
      ([name, us]) => `  ${name.padEnd(58)} ${us.toFixed(1).padStart(7)}`,
    ),
    `over the network from a client process: ${CALLS} calls, ${IN_FLIGHT} in flight, validating and mutating in turn (two runs each, alternated):`,
    ...(['http/1.1', 'h2'] as const).flatMap(protocol =>
      runs[protocol].map(
        run =>
          `  ${protocol.padEnd(8)} ${((CALLS / run.elapsedMs) * 1000)
            .toFixed(0)
            .padStart(6)} calls/s  p50 ${quantile(run.latenciesMs, 0.5)
            .toFixed(2)
            .padStart(6)} ms  p99 ${quantile(run.latenciesMs, 0.99)
            .toFixed(2)
            .padStart(6)} ms  server CPU per call ${(
            (run.serverCpuMs * 1000) /
            CALLS
          ).toFixed(0)} µs`,
      ),
    ),
    `server's connections by protocol: ${JSON.stringify(
      server.traffic.connections,
    )}; requests: ${JSON.stringify(server.traffic.requests)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch(err => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

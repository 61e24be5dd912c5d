/**
 * Benchmark: listing 3 clusters x 2,000 deployments through the runway API,
 * next to one direct LIST of the same 2,000 objects from one API server,
 * both measured in this run; and the backend's memory.
 *
 * The backend is a real one (`createBackend` from @backstage/backend-defaults,
 * as packages/backend builds it) with only the runway plugin, reached over
 * HTTP with a static access token. The clusters are real control planes
 * started by @runway-portal/e2e-cluster.
 *
 *   yarn bench                     # 2,000 deployments per cluster, 30 requests
 *   RUNWAY_BENCH_OBJECTS=500 RUNWAY_BENCH_REQUESTS=10 yarn bench
 */
import { createBackend } from '@backstage/backend-defaults';
import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { KubeClient, type KubeObject } from '@runway-portal/controller-runtime';
import { startClusters, type TestCluster } from '@runway-portal/e2e-cluster';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentiles } from '@runway-portal/e2e-testing';
import { runwayPlugin } from '../src/plugin';

// The backend's request log would drown the numbers.
process.env.LOG_LEVEL ??= 'warn';

const OBJECTS = Number(process.env.RUNWAY_BENCH_OBJECTS ?? 2000);
const REQUESTS = Number(process.env.RUNWAY_BENCH_REQUESTS ?? 30);
const PORT = Number(process.env.RUNWAY_BENCH_PORT ?? 7391);
const TOKEN = 'runway-bench-static-token-0123456789';
const CRDS = resolvePackagePath(
  '@runway-portal/plugin-runway-backend',
  '../../controllers/deploy/crds',
);
const DEPLOYMENTS = {
  group: 'airunway.ai',
  version: 'v1alpha1',
  kind: 'ModelDeployment',
  plural: 'modeldeployments',
  namespaced: true,
};
const NAMESPACES = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
};

/** A deployment of realistic size: labels, annotations and a full spec. */
function deployment(i: number): KubeObject {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: {
      name: `bench-${i}`,
      namespace: `team-${i % 10}`,
      labels: {
        app: `bench-${i % 50}`,
        team: `team-${i % 10}`,
        'backstage.io/kubernetes-id': `svc-${i % 200}`,
      },
      annotations: {
        'runway.backstage.io/entity-ref': `component:default/svc-${i % 200}`,
      },
    },
    spec: {
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
      engine: {
        type: 'vllm',
        contextLength: 8192,
        args: { 'max-num-seqs': '256' },
      },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 + (i % 3) },
      resources: { gpu: { count: 1 }, memory: '32Gi' },
      secrets: { huggingFaceToken: 'hf-token' },
      env: [{ name: 'LOG_LEVEL', value: 'info' }],
    },
  };
}

async function timed(n: number, fn: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

const keepAlive = new http.Agent({ keepAlive: true });

/** GET through the backend; returns the parsed body. */
function getJson(path: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        headers: { Authorization: `Bearer ${TOKEN}` },
        agent: keepAlive,
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200)
            reject(
              new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 300)}`),
            );
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
  });
}

async function fill(client: KubeClient, cluster: string): Promise<void> {
  for (let t = 0; t < 10; t++) {
    await client.apply(
      NAMESPACES,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${t}` } },
      { fieldManager: 'bench' },
    );
  }
  let next = 0;
  const worker = async () => {
    while (next < OBJECTS) {
      const i = next++;
      await client.create(DEPLOYMENTS, deployment(i), {
        fieldManager: 'bench',
      });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  process.stdout.write(
    `  ${cluster}: created ${OBJECTS} deployments in ${(
      (performance.now() - started) /
      1000
    ).toFixed(1)} s\n`,
  );
}

function memory() {
  global.gc?.();
  const m = process.memoryUsage();
  return { rssMiB: m.rss / 2 ** 20, heapMiB: m.heapUsed / 2 ** 20 };
}

async function main() {
  process.stdout.write(
    `runway list benchmark: 3 clusters x ${OBJECTS} deployments, ${REQUESTS} requests each way\n`,
  );
  let clusters: TestCluster[] = [];
  let backend: ReturnType<typeof createBackend> | undefined;
  try {
    clusters = await startClusters(
      ['a', 'b', 'c'].map(n => ({ name: `runway-bench-${n}`, crds: [CRDS] })),
    );
    const admins = clusters.map(
      c => new KubeClient(c.kubeConfig(), { requestTimeoutMs: 60_000 }),
    );
    await Promise.all(
      admins.map((client, i) => fill(client, clusters[i].name)),
    );

    const before = memory();
    backend = createBackend();
    backend.add(
      createServiceFactory({
        service: coreServices.rootConfig,
        deps: {},
        factory: () =>
          new ConfigReader({
            app: { baseUrl: 'http://localhost:3000' },
            backend: {
              baseUrl: `http://localhost:${PORT}`,
              listen: { port: PORT, host: '127.0.0.1' },
              database: { client: 'better-sqlite3', connection: ':memory:' },
              auth: {
                externalAccess: [
                  {
                    type: 'static',
                    options: { token: TOKEN, subject: 'bench' },
                  },
                ],
              },
            },
            runway: {
              kubeconfig: clusters.map(c => ({
                context: c.name,
                name: c.name,
                path: c.kubeconfigPath,
              })),
            },
          }),
      }),
    );
    backend.add(runwayPlugin);
    await backend.start();
    const started = memory();

    const coldStart = performance.now();
    const first = await getJson('/api/runway/deployments');
    const coldMs = performance.now() - coldStart;
    if (first.items.length !== 3 * OBJECTS || first.errors.length > 0) {
      throw new Error(
        `expected ${3 * OBJECTS} items and no errors, got ${
          first.items.length
        } items, errors ${JSON.stringify(first.errors)}`,
      );
    }
    const warm = memory();

    // Interleaved, so both see the same machine load.
    const apiSamples: number[] = [];
    const directSamples: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      apiSamples.push(
        ...(await timed(
          1,
          async () => void (await getJson('/api/runway/deployments')),
        )),
      );
      directSamples.push(
        ...(await timed(
          1,
          async () => void (await admins[0].list(DEPLOYMENTS)),
        )),
      );
    }
    const filteredSamples = await timed(
      REQUESTS,
      async () =>
        void (await getJson(
          '/api/runway/deployments?labelSelector=team%3Dteam-3&namespace=team-3',
        )),
    );
    const after = memory();

    const api = percentiles(apiSamples);
    const direct = percentiles(directSamples);
    const filtered = percentiles(filteredSamples);
    const fmt = (ms: number) => `${ms.toFixed(1).padStart(8)} ms`;
    process.stdout.write(
      '\nlatency                                   p50          p95\n',
    );
    process.stdout.write(
      `runway API, 3 clusters (${3 * OBJECTS} items)  ${fmt(api.p50)}  ${fmt(
        api.p95,
      )}\n`,
    );
    process.stdout.write(
      `direct LIST, 1 API server (${OBJECTS} items)  ${fmt(direct.p50)}  ${fmt(
        direct.p95,
      )}\n`,
    );
    process.stdout.write(
      `runway API, filtered (namespace+labels)    ${fmt(filtered.p50)}  ${fmt(
        filtered.p95,
      )}\n`,
    );
    process.stdout.write(
      `ratio API/direct                          ${(api.p50 / direct.p50)
        .toFixed(2)
        .padStart(8)} x  ${(api.p95 / direct.p95).toFixed(2).padStart(8)} x\n`,
    );
    process.stdout.write(
      `first (cold) list, caches started lazily  ${fmt(coldMs)}\n`,
    );
    process.stdout.write(
      '\nbackend process memory (includes this benchmark client)\n',
    );
    const line = (label: string, m: { rssMiB: number; heapMiB: number }) =>
      process.stdout.write(
        `${label.padEnd(34)} rss ${m.rssMiB
          .toFixed(0)
          .padStart(5)} MiB   heap ${m.heapMiB.toFixed(0).padStart(5)} MiB\n`,
      );
    line('before the backend starts', before);
    line('backend started, caches empty', started);
    line('caches warm (first list done)', warm);
    line(`after ${REQUESTS * 3} more requests`, after);
    process.stdout.write(
      `heap of the warm caches: ${(warm.heapMiB - started.heapMiB).toFixed(
        1,
      )} MiB for ${3 * OBJECTS} deployments (${(
        ((warm.heapMiB - started.heapMiB) * 2 ** 20) /
        (3 * OBJECTS) /
        1024
      ).toFixed(2)} KiB each)\n`,
    );
  } finally {
    await backend?.stop();
    keepAlive.destroy();
    await Promise.all(clusters.map(c => c.stop()));
  }
}

main().then(
  () => process.exit(0),
  err => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

/**
 * The model operator's numbers, each next to a baseline measured in the same run:
 *
 * 1. downloader throughput from a local HTTP server vs `curl` on the same file
 *    (transfer time: the downloader's own `done` seconds, curl's time_total;
 *    RUNS each, alternating; median and best), as a ratio;
 * 2. COUNT Models reconciled to Downloading (PVC + Job each) vs COUNT raw
 *    PVC + Job creates (32 in flight), with the API requests per Model that
 *    took (the API server's own counters, e2e-system's apiMetrics);
 * 3. idle RSS of the operator process next to the core's, both from their
 *    built entry (dist/controller.cjs, the image's node flags).
 *
 *   yarn bench          (in controllers/models; COUNT=200 MB=1024 RUNS=7 by default; ONLY=throughput skips the cluster, ONLY=models the file transfers)
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  Jobs,
  KubeClient,
  Namespaces,
  PersistentVolumeClaims,
  type WatchEvent,
} from '@runway-portal/controller-runtime';
import { CONTROLLER_BUNDLE } from '@runway-portal/controller-runtime/bundle';
import { startCluster } from '@runway-portal/e2e-cluster';
import {
  counterDelta,
  nodeOptionsWithWatch,
  requestsByVerbAndResource,
  snapshot,
} from '@runway-portal/e2e-system';
import {
  inParallel,
  memoryOf,
  ratio,
  runBenchmark,
  startBuiltController,
  stopProcesses,
  timed,
} from '@runway-portal/e2e-testing';
import { Models } from '../src/reconciler';
import { buildJob, buildPvc, type ModelObject } from '../src/resources';

const COUNT = Number(process.env.COUNT ?? 200);
const MB = Number(process.env.MB ?? 1024);
const RUNS = Number(process.env.RUNS ?? 7);
const CONCURRENCY = 32;
const PACKAGE = path.resolve(__dirname, '..');
const CRD = path.resolve(
  PACKAGE,
  '../deploy/crds/models.airunway.ai_models.yaml',
);
const run = promisify(execFile);
const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A file server streaming from disk (Content-Length and Range, as a static
 * server would), in its own process as a real server is, not on the
 * event loop of the bench that collects both sides' output.
 */
const FILE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const file = process.argv[1];
const size = fs.statSync(file).size;
const server = http.createServer((req, res) => {
  const range = /^bytes=(\\d+)-(\\d*)$/.exec(req.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range && range[2] ? Number(range[2]) : size - 1;
  res.writeHead(range ? 206 : 200, {
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
    ...(range ? { 'content-range': 'bytes ' + start + '-' + end + '/' + size } : {}),
  });
  fs.createReadStream(file, { start, end, highWaterMark: 1 << 20 }).pipe(res);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

async function serveFile(file: string) {
  const child = spawn(process.execPath, ['-e', FILE_SERVER, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) =>
      resolve(Number(chunk.toString().trim())),
    );
    child.once('exit', code =>
      reject(new Error(`the file server exited with ${code}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}/model.bin`,
    close: () => child.kill(),
  };
}

async function throughput(tmp: string) {
  const file = path.join(tmp, 'model.bin');
  const chunk = Buffer.alloc(1 << 20, 0x5a);
  const fd = fs.openSync(file, 'w');
  for (let i = 0; i < MB; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  const server = await serveFile(file);
  const ours: number[] = [];
  const curls: number[] = [];
  try {
    const runOurs = async (i: number) => {
      const dest = path.join(tmp, `ours-${i}`);
      await run('sync', []);
      const { stdout } = await run(
        process.execPath,
        [
          '--require',
          require.resolve('@backstage/cli/config/nodeTransform.cjs'),
          path.join(PACKAGE, 'src/downloader/main.ts'),
        ],
        {
          env: {
            PATH: process.env.PATH ?? '',
            MODEL_SOURCE: 'url',
            MODEL_URL: server.url,
            MODEL_DEST: dest,
            MODEL_STORAGE_SIZE: '100Gi',
          },
          maxBuffer: 1 << 24,
        },
      );
      const done = stdout
        .split('\n')
        .filter(l => l.startsWith('{'))
        .map(l => JSON.parse(l))
        .find(l => l.event === 'done');
      ours.push(done.seconds);
      fs.rmSync(dest, { recursive: true, force: true });
    };
    const runCurl = async (i: number) => {
      const out = path.join(tmp, `curl-${i}.bin`);
      await run('sync', []);
      const curl = await run('curl', [
        '-s',
        '-o',
        out,
        '-w',
        '%{time_total}',
        server.url,
      ]);
      curls.push(Number(curl.stdout));
      fs.rmSync(out, { force: true });
    };
    // Each side goes first in every other pair: the one after a deleted 256 MiB file meets its writeback.
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        await runOurs(i);
        await runCurl(i);
      } else {
        await runCurl(i);
        await runOurs(i);
      }
    }
  } finally {
    server.close();
  }
  // On a shared machine single runs swing widely: the median and the best run of each are printed.
  const oursS = median(ours);
  const curlS = median(curls);
  const oursBest = Math.min(...ours);
  const curlBest = Math.min(...curls);
  // Paired: each run of ours against the curl run beside it, so a slower minute of the machine slows both.
  const pairs = ours.map((s, i) => curls[i] / s);
  const mibs = (s: number) => `${(MB / s).toFixed(0)} MiB/s`;
  return [
    `file                                                   ${MB} MiB on loopback, ${RUNS} runs each, alternating`,
    `baseline: curl                                         median ${curlS.toFixed(
      3,
    )} s (${mibs(curlS)}), best ${curlBest.toFixed(3)} s`,
    `downloader (transfer, sizes checked, atomic rename)    median ${oursS.toFixed(
      3,
    )} s (${mibs(oursS)}), best ${oursBest.toFixed(3)} s`,
    `downloader throughput / curl throughput                ${ratio(
      curlS,
      oursS,
    )} (medians), ${ratio(curlBest, oursBest)} (best runs), ${median(
      pairs,
    ).toFixed(2)} (median of the ${RUNS} pairs)`,
  ];
}

/** Watches namespace `bench` until COUNT Models were seen `Downloading` (10 min at most). */
function watchDownloading(client: KubeClient) {
  const seen = new Set<string>();
  const abort = new AbortController();
  let connected!: () => void;
  let all!: () => void;
  let fail!: (err: Error) => void;
  const timer = setTimeout(
    () => fail(new Error(`${COUNT} Models not Downloading within 10 min`)),
    10 * 60_000,
  );
  const result = {
    connected: new Promise<void>(resolve => (connected = resolve)),
    all: new Promise<void>((resolve, reject) => {
      all = resolve;
      fail = reject;
    }),
    stop: () => {
      clearTimeout(timer);
      abort.abort();
    },
  };
  // A watch that ends or drops (a loaded API server) is opened again: it starts with every Model as it is.
  const onEvent = (event: WatchEvent<ModelObject>) => {
    if (event.object?.status?.phase === 'Downloading')
      seen.add(event.object.metadata!.name!);
    if (seen.size >= COUNT) all();
  };
  void (async () => {
    while (!abort.signal.aborted && seen.size < COUNT) {
      await client
        .watch<ModelObject>(
          Models,
          { namespace: 'bench', signal: abort.signal, onConnected: connected },
          onEvent,
        )
        .catch(() => new Promise(r => setTimeout(r, 200)));
    }
  })();
  // Awaited later; a rejection before that must not end the bench unhandled.
  result.all.catch(() => undefined);
  return result;
}

function model(namespace: string, i: number): ModelObject {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name: `m-${i}`, namespace },
    spec: {
      source: { huggingFace: { repoId: 'acme/tiny' } },
      storage: { storageClass: 'bench', size: '1Gi' },
    },
  } as ModelObject;
}

runBenchmark(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'models-bench-'));
  const lines = process.env.ONLY === 'models' ? [] : await throughput(tmp);
  if (process.env.ONLY === 'throughput') {
    process.stdout.write(`${lines.join('\n')}\n`);
    fs.rmSync(tmp, { recursive: true, force: true });
    return;
  }

  const cluster = await startCluster({
    name: 'models-bench',
    crds: [
      CRD,
      path.resolve(PACKAGE, '../deploy/crds/airunway.ai_modeldeployments.yaml'),
      path.resolve(
        PACKAGE,
        '../deploy/crds/airunway.ai_inferenceproviderconfigs.yaml',
      ),
    ],
  });
  const client = new KubeClient(cluster.kubeConfig());
  const started: ChildProcess[] = [];
  /** Starts a controller from its built entry, as its image does (bundled first when stale). */
  const startProcess = async (dir: string, entry: string) => {
    const child = await startBuiltController(
      path.basename(dir),
      dir,
      entry,
      [
        '--webhook-mode=off',
        '--metrics-port=0',
        '--health-port=0',
        '--log-level=error',
      ],
      {
        // Exits with the bench, even a killed one (the parent watch of e2e-system).
        env: {
          KUBECONFIG: cluster.kubeconfigPath,
          RUNWAY_KUBE_PARENT_PID: String(process.pid),
          NODE_OPTIONS: nodeOptionsWithWatch(process.env.NODE_OPTIONS),
        },
        stdout: 'inherit',
      },
    );
    started.push(child);
    return child;
  };
  /** Requests the API server counted, by verb and resource, per Model, most first. */
  const perModel = (delta: Map<string, number>) =>
    [...delta]
      .filter(([key]) => !key.startsWith('WATCH') && !key.includes('leases'))
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${key} ${(n / COUNT).toFixed(2)}`)
      .join(', ');
  try {
    for (const ns of ['raw', 'bench'])
      await client.create(Namespaces, { metadata: { name: ns } });
    // Baseline: the same objects written directly (no owner: there is no Model).
    const rawBefore = requestsByVerbAndResource(await snapshot(client));
    const raw = await timed(() =>
      inParallel(COUNT, CONCURRENCY, async i => {
        const m = {
          ...model('raw', i),
          metadata: {
            name: `m-${i}`,
            namespace: 'raw',
            uid: '00000000-0000-0000-0000-000000000000',
          },
        } as ModelObject;
        const strip = <T extends { metadata?: { ownerReferences?: unknown } }>(
          o: T,
        ) => ({
          ...o,
          metadata: { ...o.metadata, ownerReferences: undefined },
        });
        await client.create(PersistentVolumeClaims, strip(buildPvc(m)));
        await client.create(Jobs, strip(buildJob(m)));
      }),
    );

    const rawRequests = counterDelta(
      rawBefore,
      requestsByVerbAndResource(await snapshot(client)),
    );

    const operator = await startProcess(PACKAGE, 'src/main.ts');
    await new Promise(r => setTimeout(r, 5000)); // started and caches synced (nothing to do yet)
    const before = requestsByVerbAndResource(await snapshot(client));
    // Watched, not polled: a poll once a second (listing every Model) added up to a second.
    const watch = watchDownloading(client);
    let downloading: number;
    try {
      await watch.connected;
      downloading = await timed(async () => {
        await inParallel(COUNT, CONCURRENCY, i =>
          client.create(Models, model('bench', i)),
        );
        await watch.all;
      });
    } finally {
      watch.stop();
    }
    const requests = counterDelta(
      before,
      requestsByVerbAndResource(await snapshot(client)),
    );
    const jobs = (await client.list(Jobs, { namespace: 'bench' })).items.length;
    const pvcs = (
      await client.list(PersistentVolumeClaims, { namespace: 'bench' })
    ).items.length;

    // Idle memory: the operator with COUNT Models cached, and the core with nothing to do, both idle 15 s.
    const core = await startProcess(
      path.resolve(PACKAGE, '../core'),
      'src/index.ts',
    );
    await new Promise(r => setTimeout(r, 15_000));
    const opMem = memoryOf(operator.pid!);
    const coreMem = memoryOf(core.pid!);
    lines.push(
      `baseline: ${COUNT} raw PVC + Job creates (${CONCURRENCY} in flight)    ${raw.toFixed(
        2,
      )} s`,
      `${COUNT} Models created until all Downloading             ${downloading.toFixed(
        2,
      )} s (${ratio(downloading, raw)} x raw; ${pvcs} PVCs, ${jobs} Jobs)`,
      `  API requests per raw PVC + Job (all clients): ${perModel(
        rawRequests,
      )}`,
      `  API requests per Model until Downloading (all clients, the bench's listing included): ${perModel(
        requests,
      )}`,
      `idle RSS: model operator (${COUNT} Models cached, ${CONTROLLER_BUNDLE})  ${opMem.rss.toFixed(
        0,
      )} MiB (peak ${opMem.peak.toFixed(0)})`,
      `idle RSS: core controller (baseline, ${CONTROLLER_BUNDLE})               ${coreMem.rss.toFixed(
        0,
      )} MiB (peak ${coreMem.peak.toFixed(0)})`,
    );
  } finally {
    await stopProcesses(started);
    client.close();
    await cluster.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
});

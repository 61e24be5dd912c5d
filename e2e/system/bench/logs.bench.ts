/**
 * Pod logs benchmark (issue 18), without a browser: against a local system
 * (one cluster, the controllers, the simulators, Backstage's backend; or a
 * running one, BACKEND_URL) it deploys one model as the guest through the
 * REST API, waits for its simulated model server pod (whose log the API
 * server reads from the kubelet log stand-in), then
 *
 * - opens the deployment's log RUNS times as the Logs tab does and times
 *   the first log line received: the pod list then the pod's followed log
 *   (two requests one after the other, as the page did), and the followed
 *   log that brings its pods along (one request, `GET .../log`, as the page
 *   does); the backend's own steps come from each answer's `Server-Timing`;
 * - follows the pod's log for FOLLOW_LINES lines: the stand-in starts each
 *   followed line with the time it wrote it, so written → received is
 *   measured per line;
 *
 * and prints p50 and p95 with their ratio to the targets (first line
 * ≤ 1 s after opening the logs, a followed line ≤ 1 s after it is written).
 *
 *   yarn workspace @runway-portal/e2e-system bench:logs
 *   RUNS=50 yarn workspace @runway-portal/e2e-system bench:logs
 *   BACKEND_URL=http://localhost:7007 yarn workspace @runway-portal/e2e-system bench:logs   # a running `start`
 *
 * Environment: RUNS (default 30), FOLLOW_LINES (default 15), TIMEOUT_S (the
 * longest wait for the pod, default 600), BACKEND_URL (a running local
 * system's backend; default: start one), CLUSTER (default dev).
 */
import {
  percentiles,
  pollUntil,
  ratio,
  runBenchmark,
} from '@runway-portal/e2e-testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@runway-portal/e2e-cluster';
import { type RunningSystem, startSystem } from '../src/system';
import { envNumber } from './env';

const RUNS = envNumber('RUNS', 30);
const FOLLOW_LINES = envNumber('FOLLOW_LINES', 15);
const TIMEOUT_MS = envNumber('TIMEOUT_S', 600) * 1000;
const CLUSTER = process.env.CLUSTER || 'dev';
const NAMESPACE = 'default';
const NAME = `bench-logs-${Date.now().toString(36)}`;
const TAIL = 200;
/** The targets, in ms. */
const FIRST_LINE_TARGET_MS = 1000;
const FOLLOWED_TARGET_MS = 1000;

interface Pods {
  pods: Array<{
    name: string;
    phase: string;
    containers: Array<{ name: string }>;
  }>;
}

/** The backend as the guest signed in to the app (the local system's sign-in). */
class Portal {
  private token = '';
  constructor(readonly backend: string) {}

  async signIn(): Promise<void> {
    const res = await fetch(`${this.backend}/api/auth/guest/refresh`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    if (!res.ok)
      throw new Error(
        `the guest sign-in (GET /api/auth/guest/refresh) answered ${
          res.status
        }: ${await res.text()}; is auth.providers.guest configured (the local system's app-config.yaml)?`,
      );
    const body = (await res.json()) as {
      backstageIdentity?: { token?: string };
    };
    this.token = body.backstageIdentity?.token ?? '';
    if (!this.token)
      throw new Error('the guest sign-in answered without a Backstage token');
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.backend}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        Authorization: `Bearer ${this.token}`,
      },
    });
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await this.fetch(path, init);
    const text = await res.text();
    if (!res.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }
}

const resourcePath = `/api/runway/deployments/${CLUSTER}/${NAMESPACE}/${NAME}`;

/** `name;dur=1.2, other;dur=3` as pairs. */
function parseServerTiming(header: string | null): Array<[string, number]> {
  if (!header) return [];
  return header.split(',').flatMap(part => {
    const [name, ...params] = part.trim().split(';');
    const dur = params.find(p => p.trim().startsWith('dur='));
    return name && dur ? [[name, Number(dur.trim().slice(4))]] : [];
  });
}

/**
 * Reads a followed log (server-sent events), calling `onLine` with each line
 * and when it arrived until it returns true; returns the `pods` event's data
 * (when the route sends one).
 */
async function readEvents(
  res: Response,
  onLine: (line: string, at: number) => boolean,
): Promise<{ pods?: unknown }> {
  if (!res.ok || !res.body)
    throw new Error(`the log answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let pods: unknown;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the log ended before the benchmark was done');
      const at = performance.now();
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = [...block.matchAll(/^data: ?(.*)$/gm)]
          .map(m => m[1])
          .join('\n');
        if (event === 'pods') pods = JSON.parse(data);
        else if (event === 'message' && onLine(data, at)) return { pods };
        else if (event !== 'message' && event !== 'pods')
          throw new Error(`the log sent event ${event}: ${data}`);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Milliseconds from `started` until the first line of the followed log `res`, and its Server-Timing. */
async function firstLine(
  res: Response,
  started: number,
): Promise<{ ms: number; timing: Array<[string, number]> }> {
  let ms = 0;
  await readEvents(res, (_line, at) => {
    ms = at - started;
    return true;
  });
  return { ms, timing: parseServerTiming(res.headers.get('server-timing')) };
}

const followed = (portal: Portal, path: string) =>
  portal.fetch(path, { headers: { Accept: 'text/event-stream' } });

const logQuery = (container: string) =>
  `?container=${container}&tailLines=${TAIL}&follow=true`;

/** The pod list, then the first pod's followed log: the two requests the page made one after the other. */
async function podsThenLog(portal: Portal) {
  const started = performance.now();
  const pods = await portal.json<Pods>(`${resourcePath}/pods`);
  const listed = performance.now() - started;
  const pod = pods.pods[0];
  const res = await followed(
    portal,
    `${resourcePath}/pods/${pod.name}/log${logQuery(pod.containers[0].name)}`,
  );
  return { ...(await firstLine(res, started)), listed };
}

/** The resource's followed log with its pods (one request); undefined when the backend has no such route (before issue 18's fix). */
async function logWithPods(portal: Portal) {
  const started = performance.now();
  const res = await followed(
    portal,
    `${resourcePath}/log?tailLines=${TAIL}&follow=true`,
  );
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  return firstLine(res, started);
}

function row(label: string, samples: number[], targetMs?: number): string {
  const { p50, p95 } = percentiles(samples);
  const target =
    targetMs === undefined
      ? ''
      : `   p95 / target ${ratio(p95, targetMs)}x (target ≤ ${targetMs} ms)`;
  return `  ${label.padEnd(58)} p50 ${p50.toFixed(0).padStart(5)} ms   p95 ${p95
    .toFixed(0)
    .padStart(5)} ms${target}`;
}

function stepMedians(timings: Array<Array<[string, number]>>): string {
  const names = [...new Set(timings.flatMap(t => t.map(([n]) => n)))];
  return names
    .map(name => {
      const values = timings.flatMap(t =>
        t.filter(([n]) => n === name).map(([, ms]) => ms),
      );
      return `${name} ${percentiles(values).p50.toFixed(1)}`;
    })
    .join(', ');
}

async function main() {
  let system: RunningSystem | undefined;
  let stateDir: string | undefined;
  let backend = process.env.BACKEND_URL?.replace(/\/+$/, '');
  if (!backend) {
    stateDir = mkdtempSync(join(tmpdir(), 'runway-logs-bench-'));
    process.stdout.write(
      `starting a local system (cluster ${CLUSTER}, Backstage's backend; logs in ${stateDir}/logs)...\n`,
    );
    system = await startSystem({
      clusters: [CLUSTER],
      backstage: 'backend',
      stepDelayMs: 500,
      ports: { app: await freePort(), backend: await freePort() },
      stateDir,
      honourLocalConfig: false,
      log: () => {},
    });
    backend = system.backendUrl!;
  }
  const portal = new Portal(backend);
  try {
    await portal.signIn();
    await portal.json(`/api/runway/deployments/${CLUSTER}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: NAME, namespace: NAMESPACE },
        spec: {
          model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
          engine: { type: 'vllm' },
          resources: { gpu: { count: 1 } },
        },
      }),
    });
    const deployed = performance.now();
    await pollUntil(
      async () => {
        const res = await portal.fetch(`${resourcePath}/pods`);
        if (!res.ok) return false;
        const { pods } = (await res.json()) as Pods;
        return pods[0]?.phase === 'Running';
      },
      TIMEOUT_MS,
      `the model server pod of ${NAMESPACE}/${NAME}`,
    );
    process.stdout.write(
      `deployment ${NAMESPACE}/${NAME} in cluster ${CLUSTER}: its model server pod ran after ${(
        (performance.now() - deployed) /
        1000
      ).toFixed(1)} s\n\n`,
    );

    // The first open after the pod came (caches as a user meets them), then RUNS more of each.
    const cold = await podsThenLog(portal);
    const twoRequests: number[] = [];
    const lists: number[] = [];
    const twoTimings: Array<Array<[string, number]>> = [];
    const oneRequest: number[] = [];
    const oneTimings: Array<Array<[string, number]>> = [];
    let hasOneRequest = true;
    for (let i = 0; i < RUNS; i++) {
      const two = await podsThenLog(portal);
      twoRequests.push(two.ms);
      lists.push(two.listed);
      twoTimings.push(two.timing);
      if (hasOneRequest) {
        const one = await logWithPods(portal);
        if (!one) hasOneRequest = false;
        else {
          oneRequest.push(one.ms);
          oneTimings.push(one.timing);
        }
      }
    }

    const lates: number[] = [];
    const one = await followed(
      portal,
      `${resourcePath}/log${logQuery('model')}`,
    );
    let stream = one;
    if (one.status === 404) {
      await one.body?.cancel();
      const { pods } = await portal.json<Pods>(`${resourcePath}/pods`);
      stream = await followed(
        portal,
        `${resourcePath}/pods/${pods[0].name}/log${logQuery('model')}`,
      );
    }
    await readEvents(stream, line => {
      if (!line.includes('(request ')) return false;
      lates.push(Date.now() - Date.parse(line.split(' ')[0]));
      return lates.length >= FOLLOW_LINES;
    });

    process.stdout.write(
      [
        `first log line, following with the last ${TAIL} lines (${RUNS} runs; first run ${cold.ms.toFixed(
          0,
        )} ms):`,
        row('pod list (GET .../pods)', lists),
        row(
          'pod list, then the pod log (two requests, in turn)',
          twoRequests,
          FIRST_LINE_TARGET_MS,
        ),
        `    its log request's Server-Timing, p50 ms: ${stepMedians(
          twoTimings,
        )}`,
        hasOneRequest
          ? row(
              'the log with its pods (one request, GET .../log)',
              oneRequest,
              FIRST_LINE_TARGET_MS,
            )
          : '  the log with its pods (GET .../log): not served by this backend',
        ...(hasOneRequest
          ? [`    its Server-Timing, p50 ms: ${stepMedians(oneTimings)}`]
          : []),
        `followed lines (${FOLLOW_LINES}, written by the stand-in → received):`,
        row('written → received', lates, FOLLOWED_TARGET_MS),
        '',
      ].join('\n'),
    );
  } finally {
    await portal
      .fetch(resourcePath, { method: 'DELETE' })
      .catch(() => undefined);
    await system?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

runBenchmark(main);

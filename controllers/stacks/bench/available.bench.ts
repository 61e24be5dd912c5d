/**
 * 200 stacks to Available next to 200 raw Deployments to Available, on one
 * real cluster (kwok makes pods Ready), as a ratio: what the operator's work
 * (reference checks, config generation, ConfigMap, Deployment, Service,
 * status writes, webhooks) costs over the bare Deployment path.
 *
 *   COUNT=200 yarn bench:available
 *
 * The operator runs in this process (url-mode webhooks on a free port), as
 * the integration tests run it, with the llama-stack server simulator
 * (e2e/simulators) answering its health probes; the writes are 16 in flight.
 */
import path from 'node:path';
import {
  Deployments,
  KubeClient,
  Namespaces,
  silentLogger,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import { startCluster, freePort } from '@runway-portal/e2e-cluster';
import { startLlamaStackSimulator } from '@runway-portal/e2e-simulators';
import { buildStacks } from '../src/main';
import { parseOptions } from '../src/options';
import { Stacks } from '../src/reconciler';

const COUNT = Number(process.env.COUNT ?? 200);
const IN_FLIGHT = 16;
const CRD = path.resolve(
  __dirname,
  '../../deploy/crds/llamastack.io_llamastackdistributions.yaml',
);

async function inParallel(
  count: number,
  work: (i: number) => Promise<unknown>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30 * 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 500));
  }
}

async function main() {
  const cluster = await startCluster({
    name: 'stacks-bench',
    crds: [CRD],
    nodes: [{ name: 'cpu-0', cpu: '1000', memory: '4000Gi', pods: 3 * COUNT }],
  });
  const client = new KubeClient(cluster.kubeConfig());
  try {
    for (const ns of ['raw', 'stacks'])
      await client.create(Namespaces, { metadata: { name: ns } });

    // Baseline: COUNT raw Deployments (one pod each, the same server container) to Available.
    const rawStart = Date.now();
    await inParallel(COUNT, i =>
      client.create(Deployments, {
        metadata: { name: `raw-${i}`, namespace: 'raw' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: `raw-${i}` } },
          template: {
            metadata: { labels: { app: `raw-${i}` } },
            spec: {
              containers: [
                {
                  name: 'llama-stack',
                  image: 'docker.io/llamastack/distribution-starter:latest',
                },
              ],
            },
          },
        },
      }),
    );
    const rawCreated = Date.now() - rawStart;
    await until('raw Deployments Available', async () => {
      const items = (
        await client.list<KubeObject & { status?: any }>(Deployments, {
          namespace: 'raw',
        })
      ).items;
      return (
        items.filter(d => (d.status?.availableReplicas ?? 0) >= 1).length >=
        COUNT
      );
    });
    const rawAvailable = Date.now() - rawStart;

    const port = await freePort();
    const parsed = parseOptions(
      [
        '--webhook-mode=url',
        `--webhook-port=${port}`,
        '--metrics-port=0',
        '--health-port=0',
      ],
      {},
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const stacks = buildStacks(parsed.options, {
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      handleSignals: false,
    });
    const running = stacks.start();
    running.catch(() => undefined);
    // Ready needs the server's /v1/health answer: the simulator gives every stack pod one.
    const simulator = startLlamaStackSimulator(
      new KubeClient(cluster.kubeConfig()),
    );
    await until(
      'the operator',
      async () =>
        !!(
          stacks.manager.isLeader() &&
          stacks.manager.informers.hasSynced() &&
          stacks.manager.certManager?.isReady()
        ),
    );

    const stackStart = Date.now();
    await inParallel(COUNT, i =>
      client.create(Stacks, {
        apiVersion: 'llamastack.io/v1alpha2',
        kind: 'LlamaStackDistribution',
        metadata: { name: `stack-${i}`, namespace: 'stacks' },
        spec: {
          distribution: { name: 'starter' },
          providers: {
            inference: [
              { provider: 'vllm', endpoint: `http://vllm-${i}:8000` },
            ],
          },
          resources: { models: [{ name: 'llama3.2-8b' }] },
        },
      }),
    );
    const stacksCreated = Date.now() - stackStart;
    await until('stacks Ready', async () => {
      const items = (
        await client.list<KubeObject & { status?: any }>(Stacks, {
          namespace: 'stacks',
        })
      ).items;
      return items.filter(s => s.status?.phase === 'Ready').length >= COUNT;
    });
    const stacksAvailable = Date.now() - stackStart;
    await stacks.manager.stop();
    await running;
    await simulator.stop();

    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `count                                       ${COUNT} (writes ${IN_FLIGHT} in flight)`,
    );
    console.log(`baseline: raw Deployments created          ${s(rawCreated)}`);
    console.log(
      `baseline: raw Deployments Available        ${s(rawAvailable)}`,
    );
    console.log(
      `stacks created (through the webhooks)      ${s(stacksCreated)}`,
    );
    console.log(
      `stacks Ready (Available, current config, healthy) ${s(stacksAvailable)}`,
    );
    console.log(
      `ratio stacks / raw to Available            ${(
        stacksAvailable / rawAvailable
      ).toFixed(2)} x`,
    );
  } finally {
    client.close();
    await cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  err => {
    console.error(err);
    process.exit(1);
  },
);

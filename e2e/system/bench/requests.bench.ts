/**
 * What one request of each kind a deployment causes costs the API server
 * (issue 21): CPU per request from `/proc`, on a cluster with Runway's
 * ModelDeployment CRD and nothing else running (no controller, no
 * webhook), next to the raw ConfigMap create of the end-to-end bench's
 * baseline. The kinds run in alternated rounds, the median of each is
 * printed: one round's figure moves with the machine's own speed.
 *
 *   yarn workspace @runway-portal/e2e-system bench:requests
 *   COUNT=500 ROUNDS=5 yarn workspace @runway-portal/e2e-system bench:requests
 *
 * Environment: COUNT (requests per round, default 1000), ROUNDS (default 3),
 * CONCURRENCY (in flight, default 16). The bodies are the floor's
 * (`floor.ts`): the same shapes as the core's and a provider's writes.
 */
import {
  ConfigMaps,
  Events,
  KubeClient,
  type KubeObject,
  Namespaces,
  resourcePath,
} from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import {
  cpuSecondsOf,
  inParallel,
  percentiles,
  runBenchmark,
  timed,
} from '@runway-portal/e2e-testing';
import { ModelDeployments } from '@runway-portal/provider-shared';
import { join, resolve } from 'node:path';
import { modelDeployment } from '../src/workloads';
import { envNumber } from './env';
import {
  coreMetadata,
  coreStatus,
  deploymentEvent,
  type DeploymentRef,
  providerStatus,
} from './floor';
import { progress } from './system';

const COUNT = envNumber('COUNT', 1000);
const ROUNDS = envNumber('ROUNDS', 3);
const CONCURRENCY = envNumber('CONCURRENCY', 16);
const NS = 'requests';
const CRD = join(
  resolve(__dirname, '../../..'),
  'controllers/deploy/crds/airunway.ai_modeldeployments.yaml',
);

const median = (values: number[]) => percentiles(values).p50;

async function main(): Promise<void> {
  progress('starting a cluster with the ModelDeployment CRD');
  const cluster = await startCluster({ name: 'bench-requests', crds: [CRD] });
  const client = new KubeClient(cluster.kubeConfig());
  const apiServer = cluster.pids()['kube-apiserver']!;
  try {
    await client.create(Namespaces, { metadata: { name: NS } });
    const ref = (i: number): DeploymentRef => ({
      apiVersion: 'airunway.ai/v1alpha1',
      name: `md-${i}`,
      namespace: NS,
    });
    const core = { fieldManager: 'airunway-core', force: true };
    const provider = { fieldManager: 'airunway-provider-kaito', force: true };
    progress(
      `${COUNT} deployments with the core's and a provider's metadata and status, as a run leaves them`,
    );
    const uids: string[] = [];
    await inParallel(COUNT, CONCURRENCY, async i => {
      const md = modelDeployment(i, NS);
      const created: KubeObject = await client.create<KubeObject>(
        ModelDeployments,
        { ...md, metadata: { ...md.metadata, name: ref(i).name } },
      );
      uids[i] = created.metadata!.uid!;
      await client.apply(ModelDeployments, coreMetadata(ref(i)), core);
      await client.apply(ModelDeployments, coreStatus(ref(i)), {
        ...core,
        subresource: 'status',
      });
      await client.apply(ModelDeployments, providerStatus(ref(i)), {
        ...provider,
        subresource: 'status',
      });
    });

    // Each request changes something (a new name, message or label value per round): none is a no-op.
    const kinds: Array<
      [string, (i: number, round: number) => Promise<unknown>]
    > = [
      [
        'ConfigMap create (the raw baseline)',
        (i, round) =>
          client.create(ConfigMaps, {
            metadata: { name: `raw-${round}-${i}`, namespace: NS },
            data: { i: String(i) },
          }),
      ],
      [
        'ModelDeployment create (no webhook)',
        (i, round) => {
          const md = modelDeployment(i, NS);
          return client.create(ModelDeployments, {
            ...md,
            metadata: { ...md.metadata, name: `new-${round}-${i}` },
          });
        },
      ],
      [
        "ModelDeployment status apply (a provider's)",
        (i, round) =>
          client.apply(
            ModelDeployments,
            providerStatus(ref(i), `Waiting for KAITO (round ${round})`),
            { ...provider, subresource: 'status' },
          ),
      ],
      [
        "ModelDeployment metadata apply (the core's label)",
        (i, round) =>
          client.apply(
            ModelDeployments,
            coreMetadata(ref(i), `kaito-${round}`),
            core,
          ),
      ],
      [
        'Event create',
        (i, round) =>
          client.create(
            Events,
            deploymentEvent(
              ref(i),
              uids[i],
              'ResourceCreated',
              `Created Workspace 'md-${i}'`,
              `md-${i}.${round}`,
            ),
          ),
      ],
      [
        'ModelDeployment GET (from etcd)',
        i => client.get(ModelDeployments, { namespace: NS, name: ref(i).name }),
      ],
      [
        'ModelDeployment GET from the watch cache (resourceVersion=0)',
        i =>
          client.request<KubeObject>({
            method: 'GET',
            path: resourcePath(ModelDeployments, {
              namespace: NS,
              name: ref(i).name,
            }),
            query: { resourceVersion: '0' },
          }),
      ],
    ];
    const cpu = new Map<string, number[]>();
    const seconds = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      progress(`round ${round + 1} of ${ROUNDS}`);
      for (const [label, request] of kinds) {
        const before = cpuSecondsOf(apiServer);
        const took = await timed(() =>
          inParallel(COUNT, CONCURRENCY, i => request(i, round)),
        );
        cpu.set(label, [
          ...(cpu.get(label) ?? []),
          (cpuSecondsOf(apiServer) - before) / COUNT,
        ]);
        seconds.set(label, [...(seconds.get(label) ?? []), took]);
      }
    }
    const baseline = median(cpu.get(kinds[0][0])!);
    const lines = [
      `the API server's CPU per request, ${COUNT} requests per round, ${CONCURRENCY} in flight, median of ${ROUNDS} alternated rounds (each round's figures in brackets):`,
      ...kinds.map(([label]) => {
        const perRequest = cpu.get(label)!;
        return `  ${label.padEnd(62)} ${(median(perRequest) * 1000)
          .toFixed(2)
          .padStart(6)} ms (${(median(perRequest) / baseline)
          .toFixed(1)
          .padStart(4)}x the ConfigMap create; ${perRequest
          .map(c => (c * 1000).toFixed(2))
          .join(', ')}), ${median(seconds.get(label)!).toFixed(2)} s a round`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    client.close();
    await cluster.stop();
  }
}

runBenchmark(main);

/** Helpers of this package's integration tests (not exported from the package). */
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  KubeClient,
  Namespaces,
  Pods,
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import {
  eventually as poll,
  installForTest,
  type InstalledComponent,
  reasonsRecorded,
  startControllerForTest,
} from '@runway-portal/e2e-testing';
import { buildModels, type ModelsProcess } from '../main';
import { parseOptions } from '../options';
import { Models } from '../reconciler';
import type { ModelObject } from '../resources';

export { freePort };

export const START_TIMEOUT_MS = 30 * 60_000;
export const MODEL_CRD = path.resolve(
  __dirname,
  '../../../deploy/crds/models.airunway.ai_models.yaml',
);

/** Polls with this package's default budget (30 s): a Model's transitions wait on real controllers. */
export const eventually = <T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
): Promise<T> => poll(description, check, timeoutMs, 150);

/**
 * Runs the operator in this process against `cluster`, as `main.ts` would
 * with these flags; with `kubeConfig` (installForTest's), as its ServiceAccount.
 */
export async function startModels(
  cluster: TestCluster,
  flags: string[],
  options: { kubeConfig?: KubeConfig } = {},
): Promise<{ models: ModelsProcess; running: Promise<void> }> {
  const parsed = parseOptions(
    ['--metrics-port=0', '--health-port=0', ...flags],
    {},
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const { controller: models, running } = await startControllerForTest(
    cluster,
    client =>
      buildModels(parsed.options, {
        client,
        logger: silentLogger,
        handleSignals: false,
      }),
    { kubeConfig: options.kubeConfig, name: 'the operator' },
  );
  return { models, running };
}

export interface ModelsCluster {
  cluster: TestCluster;
  client: KubeClient;
  models: ModelsProcess;
  running: Promise<void>;
  /** The operator's ServiceAccount, as the CLI installed it. */
  account: InstalledComponent;
}

/**
 * beforeAll/afterAll of an integration file: a cluster with the Model CRD,
 * the operator installed by the `runway` CLI out of cluster (namespace,
 * ServiceAccount, RBAC, as users install it), the `namespaces`, and the
 * operator in this process with a token of its ServiceAccount (so the test
 * proves the shipped RBAC suffices) unless `asAdmin`.
 */
export function useModelsCluster(options: {
  name: string;
  namespaces: string[];
  flags: string[] | (() => Promise<string[]>);
  asAdmin?: boolean;
}): ModelsCluster {
  const env = {} as ModelsCluster;
  beforeAll(async () => {
    env.cluster = await startCluster({ name: options.name, crds: [MODEL_CRD] });
    env.client = new KubeClient(env.cluster.kubeConfig());
    env.account = await installForTest(env.cluster, 'models', env.client);
    for (const ns of options.namespaces)
      await env.client.create(Namespaces, { metadata: { name: ns } });
    const flags =
      typeof options.flags === 'function'
        ? await options.flags()
        : options.flags;
    ({ models: env.models, running: env.running } = await startModels(
      env.cluster,
      flags,
      options.asAdmin ? {} : { kubeConfig: env.account.kubeConfig },
    ));
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await env.models?.manager.stop();
    await env.running;
    env.client?.close();
    await env.cluster?.stop();
  }, 60_000);
  return env;
}

export function modelObject(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
): ModelObject {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name, namespace },
    spec,
  } as unknown as ModelObject;
}

export function getModel(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<ModelObject> {
  return client.get<ModelObject>(Models, { namespace, name });
}

/** Waits until the Model has events with every one of `reasons`; returns the reasons recorded. */
export const eventsRecorded = (
  client: KubeClient,
  namespace: string,
  name: string,
  ...reasons: string[]
): Promise<string[]> =>
  reasonsRecorded(client, { namespace, name, kind: 'Model' }, reasons);

/**
 * Ends the newest pod of a Job as a kubelet would report it (kwok runs
 * pods but executes nothing, and these pods wait for a volume that never
 * binds): phase and the downloader container's exit code.
 */
export async function finishJobPod(
  client: KubeClient,
  namespace: string,
  jobName: string,
  exitCode: number,
): Promise<string> {
  const pod = await eventually(`a pod of Job ${jobName}`, async () => {
    const pods = await client.list(Pods, {
      namespace,
      labelSelector: `batch.kubernetes.io/job-name=${jobName}`,
    });
    return pods.items
      .filter(
        p =>
          !['Succeeded', 'Failed'].includes(
            (p as { status?: { phase?: string } }).status?.phase ?? '',
          ),
      )
      .pop();
  });
  const now = new Date().toISOString();
  await client.patch(
    Pods,
    { namespace, name: pod.metadata!.name! },
    {
      status: {
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        containerStatuses: [
          {
            name: 'downloader',
            image: 'downloader:test',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: {
              terminated: {
                exitCode,
                reason: exitCode === 0 ? 'Completed' : 'Error',
                startedAt: now,
                finishedAt: now,
              },
            },
          },
        ],
      },
    },
    'merge',
    { subresource: 'status' },
  );
  return pod.metadata!.name!;
}

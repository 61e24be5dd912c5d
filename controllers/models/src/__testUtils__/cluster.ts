/** Helpers of this package's integration tests (not exported from the package). */
import path from 'node:path';
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
  applyManifests as applyYaml,
  eventually as poll,
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
export const MODELS_MANIFESTS = path.resolve(
  __dirname,
  '../../../deploy/models',
);
export const MODELS_SERVICE_ACCOUNT =
  'system:serviceaccount:airunway-system:airunway-models';

/** Polls with this package's default budget (30 s): a Model's transitions wait on real controllers. */
export const eventually = <T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
): Promise<T> => poll(description, check, timeoutMs, 150);

/** Server-side applies every document of a YAML file as the test's field manager. */
export const applyManifests = (client: KubeClient, file: string) =>
  applyYaml(client, file, { fieldManager: 'models-test' });

/** Runs the operator in this process against `cluster`, as `main.ts` would with these flags. */
export async function startModels(
  cluster: TestCluster,
  flags: string[],
  options: { actAs?: string } = {},
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
    { actAs: options.actAs, name: 'the operator' },
  );
  return { models, running };
}

export interface ModelsCluster {
  cluster: TestCluster;
  client: KubeClient;
  models: ModelsProcess;
  running: Promise<void>;
}

/**
 * beforeAll/afterAll of an integration file: a cluster with the Model CRD,
 * the operator's manifests (namespace, RBAC), the `namespaces`, and the
 * operator in this process acting as its ServiceAccount (so the test proves
 * its RBAC suffices) unless `asAdmin`.
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
    await applyManifests(
      env.client,
      path.join(MODELS_MANIFESTS, '../namespace/namespace.yaml'),
    );
    await applyManifests(env.client, path.join(MODELS_MANIFESTS, 'rbac.yaml'));
    for (const ns of options.namespaces)
      await env.client.create(Namespaces, { metadata: { name: ns } });
    const flags =
      typeof options.flags === 'function'
        ? await options.flags()
        : options.flags;
    ({ models: env.models, running: env.running } = await startModels(
      env.cluster,
      flags,
      options.asAdmin ? {} : { actAs: MODELS_SERVICE_ACCOUNT },
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

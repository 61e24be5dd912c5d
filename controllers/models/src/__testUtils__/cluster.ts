/** Helpers of this package's integration tests (not exported from the package). */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import {
  Events,
  KubeClient,
  type KubeObject,
  Namespaces,
  Pods,
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
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

export const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, ms));

/** Polls `check` until it returns something truthy; errors count as "not yet". */
export async function eventually<T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description}${
          last instanceof Error ? ` (last error: ${last.message})` : ''
        }`,
      );
    }
    await sleep(150);
  }
}

/** The admin kubeconfig, acting as `user` (impersonation): RBAC decides as for that user. */
export function impersonating(kc: KubeConfig, user: string): KubeConfig {
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.clusters,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
    users: kc.users.map(u => ({ ...u, impersonateUser: user })),
  });
  return out;
}

/** Server-side applies every document of a YAML file. */
export async function applyManifests(
  client: KubeClient,
  file: string,
): Promise<void> {
  for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    const obj = doc.toJSON() as KubeObject | null;
    if (!obj) continue;
    const rt = await client.resolve(obj.apiVersion!, obj.kind!);
    await client.apply(rt, obj, { fieldManager: 'models-test', force: true });
  }
}

/** Runs the operator in this process against `cluster`, as `main.ts` would with these flags. */
export async function startModels(
  cluster: TestCluster,
  flags: string[],
  options: { actAs?: string } = {},
) {
  const parsed = parseOptions(
    ['--metrics-port=0', '--health-port=0', ...flags],
    {},
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const kc = options.actAs
    ? impersonating(cluster.kubeConfig(), options.actAs)
    : cluster.kubeConfig();
  const models = buildModels(parsed.options, {
    client: new KubeClient(kc),
    logger: silentLogger,
    handleSignals: false,
  });
  const running = models.start();
  running.catch(() => undefined);
  await eventually(
    'the operator to lead with synced caches',
    () => models.manager.isLeader() && models.manager.informers.hasSynced(),
    30_000,
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

export async function eventReasons(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<string[]> {
  const list = await client.list(Events, {
    namespace,
    fieldSelector: `involvedObject.name=${name},involvedObject.kind=Model`,
  });
  return (list.items as unknown as Array<{ reason: string }>).map(
    e => e.reason,
  );
}

/**
 * Waits until the Model has events with every one of `reasons`: the event
 * recorder writes after the objects and the status, so a test that saw
 * those change must still wait for the events.
 */
export async function eventsRecorded(
  client: KubeClient,
  namespace: string,
  name: string,
  ...reasons: string[]
): Promise<string[]> {
  return eventually(
    `events ${reasons.join(', ')} of Model ${name}`,
    async () => {
      const recorded = await eventReasons(client, namespace, name);
      return reasons.every(r => recorded.includes(r)) && recorded;
    },
  );
}

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

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
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import {
  BUILT_IN_PROVIDERS,
  type InferenceProviderConfig,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { buildCore, type CoreProcess } from '../main';
import { parseOptions } from '../options';
import { InferenceProviderConfigs, ModelDeployments } from '../reconciler';

export { freePort };

/** Budget for starting a cluster in beforeAll (a cold build of the binaries takes minutes). */
export const START_TIMEOUT_MS = 30 * 60_000;
const CRDS = path.resolve(__dirname, '../../../deploy/crds');
export const DEPLOYMENT_CRDS = [
  path.join(CRDS, 'airunway.ai_modeldeployments.yaml'),
  path.join(CRDS, 'airunway.ai_inferenceproviderconfigs.yaml'),
];

export const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, ms));

/** Polls `check` until it returns something truthy; errors count as "not yet". */
export async function eventually<T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
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
    await sleep(100);
  }
}

export const CORE_SERVICE_ACCOUNT =
  'system:serviceaccount:airunway-system:airunway-core';
export const CORE_RBAC = path.resolve(
  __dirname,
  '../../../deploy/core/rbac.yaml',
);
/** What the core may write beyond its RBAC's say: Runway's own objects only, never in kube-system. */
export const CORE_ADMISSION_POLICY = path.resolve(
  __dirname,
  '../../../deploy/core/admission-policy.yaml',
);

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

export const CORE_MANIFESTS = path.resolve(__dirname, '../../../deploy/core');

/** Server-side applies every document of a YAML file as the test's field manager; returns what the server answered. */
export async function applyManifests(
  client: KubeClient,
  file: string,
  options: { dryRun?: boolean; nameSuffix?: string } = {},
): Promise<KubeObject[]> {
  const applied: KubeObject[] = [];
  for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    const obj = doc.toJSON() as KubeObject | null;
    if (!obj) continue;
    if (options.nameSuffix)
      obj.metadata = {
        ...obj.metadata,
        name: `${obj.metadata?.name}${options.nameSuffix}`,
      };
    const rt = await client.resolve(obj.apiVersion!, obj.kind!);
    applied.push(
      await client.apply(rt, obj, {
        fieldManager: 'core-test',
        force: true,
        dryRun: options.dryRun,
      }),
    );
  }
  return applied;
}

/** Runs the core in this process against `cluster`, as `main.ts` would with these flags. */
export async function startCore(
  cluster: TestCluster,
  flags: string[],
  options: { actAs?: string } = {},
): Promise<{ core: CoreProcess; running: Promise<void> }> {
  const parsed = parseOptions(
    ['--metrics-port=0', '--health-port=0', ...flags],
    {},
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const kc = options.actAs
    ? impersonating(cluster.kubeConfig(), options.actAs)
    : cluster.kubeConfig();
  const core = buildCore(parsed.options, {
    client: new KubeClient(kc),
    logger: silentLogger,
    handleSignals: false,
  });
  const running = core.start();
  running.catch(() => undefined);
  await eventually(
    'the core to lead with synced caches',
    () => core.manager.isLeader() && core.manager.informers.hasSynced(),
    30_000,
  );
  return { core, running };
}

/** A cluster and the core running in it, filled in by `useCoreCluster`'s beforeAll. */
export interface CoreCluster {
  cluster: TestCluster;
  /** Admin client. */
  client: KubeClient;
  core: CoreProcess;
}

/**
 * Registers an integration file's beforeAll/afterAll: a cluster with the
 * deployment CRDs and `crds`, the `namespaces`, the ready `providers`, and
 * the core in this process with `flags`; with `asCoreServiceAccount`, the
 * core's RBAC is applied and the core acts as its ServiceAccount (so the test
 * proves that RBAC suffices). The returned object is filled in beforeAll.
 */
export function useCoreCluster(options: {
  name: string;
  crds?: string[];
  namespaces: string[];
  providers?: string[];
  asCoreServiceAccount?: boolean;
  /** The core's flags; a function when they need something async (a free port). */
  flags: string[] | (() => Promise<string[]>);
}): CoreCluster {
  const env = {} as CoreCluster;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    env.cluster = await startCluster({
      name: options.name,
      crds: [...DEPLOYMENT_CRDS, ...(options.crds ?? [])],
    });
    env.client = new KubeClient(env.cluster.kubeConfig());
    const namespaces = options.asCoreServiceAccount
      ? [...options.namespaces, 'airunway-system']
      : options.namespaces;
    for (const ns of namespaces) await createNamespace(env.client, ns);
    if (options.asCoreServiceAccount) {
      await applyManifests(env.client, CORE_RBAC);
      await applyManifests(env.client, CORE_ADMISSION_POLICY);
    }
    for (const provider of options.providers ?? [])
      await registerProvider(env.client, provider, true);
    const flags =
      typeof options.flags === 'function'
        ? await options.flags()
        : options.flags;
    ({ core: env.core, running } = await startCore(
      env.cluster,
      flags,
      options.asCoreServiceAccount ? { actAs: CORE_SERVICE_ACCOUNT } : {},
    ));
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await env.core?.manager.stop();
    await running;
    env.client?.close();
    await env.cluster?.stop();
  }, 60_000);
  return env;
}

export async function createNamespace(
  client: KubeClient,
  name: string,
): Promise<void> {
  await client.create(Namespaces, { metadata: { name } });
}

/** A ModelDeployment as the runtime's client takes it. */
export type Deployment = ModelDeployment & KubeObject;

export function deployment(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  annotations?: Record<string, string>,
): Deployment {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
    spec: spec as unknown as ModelDeployment['spec'],
  };
}

export function getDeployment(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<Deployment> {
  return client.get<Deployment>(ModelDeployments, { namespace, name });
}

/** Registers a built-in provider as its controller would (spec, then status with its own field manager). */
/** The upstream API version each built-in provider reports when its CRD is installed. */
const UPSTREAM_VERSIONS: Record<string, string> = {
  kaito: 'kaito.sh/v1beta1',
  dynamo: 'nvidia.com/v1alpha1',
  kuberay: 'ray.io/v1',
  llmd: 'inference.networking.k8s.io/v1',
};

/** Registers a built-in provider as its controller would; `crdInstalled: false` reports no upstream CRD. */
export async function registerProvider(
  client: KubeClient,
  name: string,
  ready: boolean,
  options: { crdInstalled?: boolean } = {},
): Promise<void> {
  const config = BUILT_IN_PROVIDERS.find(p => p.metadata?.name === name)!;
  await client.apply(InferenceProviderConfigs, config as never, {
    fieldManager: `airunway-provider-${name}`,
    force: true,
  });
  await setProviderReady(client, name, ready, options);
}

export async function setProviderReady(
  client: KubeClient,
  name: string,
  ready: boolean,
  options: { crdInstalled?: boolean } = {},
): Promise<void> {
  const upstream =
    options.crdInstalled === false
      ? {}
      : { upstreamCRDVersion: UPSTREAM_VERSIONS[name] };
  const status: InferenceProviderConfig = {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name },
    status: {
      ready,
      version: 'test',
      lastHeartbeat: new Date().toISOString(),
      ...upstream,
    },
  } as InferenceProviderConfig;
  await client.apply(InferenceProviderConfigs, status as never, {
    fieldManager: `airunway-provider-${name}`,
    force: true,
    subresource: 'status',
  });
}

export interface KubeEvent {
  type: string;
  reason: string;
  message: string;
  involvedObject: { name: string; kind: string };
}

export async function eventsOf(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<KubeEvent[]> {
  const list = await client.list(Events, {
    namespace,
    fieldSelector: `involvedObject.name=${name}`,
  });
  return list.items as unknown as KubeEvent[];
}

export function conditionOf(md: ModelDeployment, type: string) {
  return md.status?.conditions?.find(c => c.type === type);
}

/** Helpers of this package's integration tests (not exported from the package). */
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  KubeClient,
  type KubeObject,
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import {
  applyManifests as applyYaml,
  createNamespace,
  eventsOf,
  eventually,
  impersonating,
  installForTest,
  type InstalledComponent,
  sleep,
  startControllerForTest,
} from '@runway-portal/e2e-testing';
import {
  BUILT_IN_PROVIDERS,
  type InferenceProviderConfig,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { buildCore, type CoreProcess } from '../main';
import { parseOptions } from '../options';
import { InferenceProviderConfigs, ModelDeployments } from '../reconciler';

export {
  createNamespace,
  eventsOf,
  eventually,
  freePort,
  impersonating,
  sleep,
};
export type { KubeEvent } from '@runway-portal/e2e-testing';

/** Budget for starting a cluster in beforeAll (a cold build of the binaries takes minutes). */
export const START_TIMEOUT_MS = 30 * 60_000;
const CRDS = path.resolve(__dirname, '../../../deploy/crds');
export const DEPLOYMENT_CRDS = [
  path.join(CRDS, 'airunway.ai_modeldeployments.yaml'),
  path.join(CRDS, 'airunway.ai_inferenceproviderconfigs.yaml'),
];

export const CORE_MANIFESTS = path.resolve(__dirname, '../../../deploy/core');

/** Server-side applies every document of a YAML file as the test's field manager; returns what the server answered. */
export const applyManifests = (
  client: KubeClient,
  file: string,
  options: { dryRun?: boolean; nameSuffix?: string } = {},
) => applyYaml(client, file, { fieldManager: 'core-test', ...options });

/**
 * Runs the core in this process against `cluster`, as `main.ts` would with
 * these flags; with `kubeConfig` (installForTest's), as its ServiceAccount.
 */
export async function startCore(
  cluster: TestCluster,
  flags: string[],
  options: { kubeConfig?: KubeConfig } = {},
): Promise<{ core: CoreProcess; running: Promise<void> }> {
  const parsed = parseOptions(
    ['--metrics-port=0', '--health-port=0', ...flags],
    {},
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const { controller: core, running } = await startControllerForTest(
    cluster,
    client =>
      buildCore(parsed.options, {
        client,
        logger: silentLogger,
        handleSignals: false,
      }),
    { kubeConfig: options.kubeConfig, name: 'the core' },
  );
  return { core, running };
}

/** A cluster and the core running in it, filled in by `useCoreCluster`'s beforeAll. */
export interface CoreCluster {
  cluster: TestCluster;
  /** Admin client. */
  client: KubeClient;
  core: CoreProcess;
  /** With `asCoreServiceAccount`: the core's ServiceAccount, as the CLI installed it. */
  coreAccount?: InstalledComponent;
}

/**
 * Registers an integration file's beforeAll/afterAll: a cluster with the
 * deployment CRDs and `crds`, the `namespaces`, the ready `providers`, and
 * the core in this process with `flags`; with `asCoreServiceAccount`, the
 * `runway` CLI installs the core out of cluster (its ServiceAccount, RBAC and
 * admission policy, as users install it) and the core runs with a token of
 * that ServiceAccount (so the test proves the shipped RBAC suffices). The returned object is filled in beforeAll.
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
    for (const ns of options.namespaces) await createNamespace(env.client, ns);
    if (options.asCoreServiceAccount)
      env.coreAccount = await installForTest(env.cluster, 'core', env.client);
    for (const provider of options.providers ?? [])
      await registerProvider(env.client, provider, true);
    const flags =
      typeof options.flags === 'function'
        ? await options.flags()
        : options.flags;
    ({ core: env.core, running } = await startCore(env.cluster, flags, {
      kubeConfig: env.coreAccount?.kubeConfig,
    }));
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await env.core?.manager.stop();
    await running;
    env.client?.close();
    await env.cluster?.stop();
  }, 60_000);
  return env;
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

export function conditionOf(md: ModelDeployment, type: string) {
  return md.status?.conditions?.find(c => c.type === type);
}

/**
 * Test helpers (not exported): real clusters prepared as the portal expects
 * them — Runway's CRDs installed, namespaces, and a service account with the
 * RBAC the portal needs, whose token goes into the backend's configuration
 * exactly as an administrator would configure it.
 */
import {
  KubeClient,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import type { TestCluster } from '@runway-portal/e2e-cluster';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import {
  PORTAL_NAMESPACE,
  PORTAL_SERVICE_ACCOUNT,
  portalAccessManifests,
} from '@runway-portal/plugin-runway-node';
import {
  MODEL_DEPLOYMENTS_RESOURCE,
  PROVIDER_CONFIGS_RESOURCE,
} from '@runway-portal/plugin-runway-common';

/** Runway's generated CRDs (controllers/deploy/crds, from runway-common). */
export const RUNWAY_CRDS = resolvePackagePath(
  '@runway-portal/plugin-runway-backend',
  '../../controllers/deploy/crds',
);

const rt = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
): ResourceType => ({
  group,
  version,
  kind,
  plural,
  namespaced,
});
export const NAMESPACES = rt('', 'v1', 'Namespace', 'namespaces', false);
export const PODS = rt('', 'v1', 'Pod', 'pods', true);
export const EVENTS = rt('', 'v1', 'Event', 'events', true);
export const JOBS = rt('batch', 'v1', 'Job', 'jobs', true);
export const DEPLOYMENTS: ResourceType = MODEL_DEPLOYMENTS_RESOURCE;
export const MODELS = rt(
  'models.airunway.ai',
  'v1alpha1',
  'Model',
  'models',
  true,
);
export const STACKS = rt(
  'llamastack.io',
  'v1alpha2',
  'LlamaStackDistribution',
  'llamastackdistributions',
  true,
);
export const WORKSPACES = rt(
  'kaito.sh',
  'v1beta1',
  'Workspace',
  'workspaces',
  true,
);
export const DGDS = rt(
  'nvidia.com',
  'v1beta1',
  'DynamoGraphDeployment',
  'dynamographdeployments',
  true,
);
export const RAYSERVICES = rt(
  'ray.io',
  'v1',
  'RayService',
  'rayservices',
  true,
);
export const PROVIDER_CONFIGS: ResourceType = PROVIDER_CONFIGS_RESOURCE;

export function adminClient(cluster: TestCluster): KubeClient {
  return new KubeClient(cluster.kubeConfig(), { requestTimeoutMs: 30_000 });
}

export async function createNamespaces(
  client: KubeClient,
  names: string[],
): Promise<void> {
  for (const name of names) {
    await client.apply(
      NAMESPACES,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      { fieldManager: 'test-setup' },
    );
  }
}

/**
 * Creates the portal's service account with its RBAC (the manifests of
 * plugin-runway-node, as an administrator applies them) and returns a token
 * for it (TokenRequest).
 */
export async function portalServiceAccountToken(
  client: KubeClient,
): Promise<string> {
  // With the Secret-names picker's rule, which the router's tests exercise.
  for (const manifest of portalAccessManifests({ listSecretNames: true })) {
    await client.apply(
      await client.resolve(manifest.apiVersion!, manifest.kind!),
      manifest,
      { fieldManager: 'test-setup' },
    );
  }
  const review = await client.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${PORTAL_NAMESPACE}/serviceaccounts/${PORTAL_SERVICE_ACCOUNT}/token`,
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  });
  return review.status.token;
}

/** The CA of a test cluster, base64 PEM, as `caData` in app-config. */
export function clusterCaData(cluster: TestCluster): string {
  const ca = cluster.kubeConfig().getCurrentCluster()?.caData;
  if (!ca)
    throw new Error(`cluster ${cluster.name} has no CA data in its kubeconfig`);
  return ca;
}

/** A `kubernetes.clusterLocatorMethods` entry for a test cluster, as an administrator writes it. */
export function clusterConfigEntry(
  name: string,
  cluster: TestCluster,
  token: string,
) {
  return {
    name,
    title: `${name} (test)`,
    url: cluster.server,
    authProvider: 'serviceAccount',
    serviceAccountToken: token,
    caData: clusterCaData(cluster),
  };
}

/** Registers a provider and reports it ready (or not), as a provider controller would. */
export async function registerProvider(
  client: KubeClient,
  config: KubeObject,
  ready: boolean,
): Promise<void> {
  await client.apply(PROVIDER_CONFIGS, config, {
    fieldManager: 'test-provider',
    force: true,
  });
  await client.apply(
    PROVIDER_CONFIGS,
    {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: config.metadata!.name },
      status: {
        ready,
        version: 'test:v1',
        lastHeartbeat: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    },
    { fieldManager: 'test-provider', force: true, subresource: 'status' },
  );
}

/** Polls `fn` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${
          last ? `: ${String(last)}` : ''
        }`,
      );
    }
    await new Promise(r => setTimeout(r, 100));
  }
}

/** Small cluster reads shared by install, uninstall and doctor. */
import {
  CustomResourceDefinitions,
  Deployments,
  isNotFound,
  type KubeClient,
  type KubeObject,
  parseApiVersion,
  type ResourceType,
} from '@runway-portal/controller-runtime';

export const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, ms));

export const EndpointSlices: ResourceType = {
  group: 'discovery.k8s.io',
  version: 'v1',
  plural: 'endpointslices',
  kind: 'EndpointSlice',
  namespaced: true,
};
export const InferenceProviderConfigs: ResourceType = {
  group: 'airunway.ai',
  version: 'v1alpha1',
  plural: 'inferenceproviderconfigs',
  kind: 'InferenceProviderConfig',
  namespaced: false,
};

export async function getOrUndefined<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType,
  key: { namespace?: string; name: string },
): Promise<T | undefined> {
  try {
    return await client.get<T>(rt, key);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The API server's version; the first call of every command (a clear "no cluster"). */
export async function serverVersion(client: KubeClient): Promise<string> {
  const v = await client.request<{ gitVersion?: string }>({
    method: 'GET',
    path: '/version',
  });
  return v.gitVersion ?? 'unknown';
}

interface CrdCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
export type CrdObject = KubeObject & {
  spec?: {
    group?: string;
    names?: { kind?: string; plural?: string };
    versions?: Array<{ name: string; served?: boolean; storage?: boolean }>;
  };
  status?: { conditions?: CrdCondition[] };
};

export function crdEstablished(crd: CrdObject | undefined): boolean {
  return (
    crd?.status?.conditions?.some(
      c => c.type === 'Established' && c.status === 'True',
    ) ?? false
  );
}

export type DeploymentObject = KubeObject & {
  spec?: { replicas?: number };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
    observedGeneration?: number;
    conditions?: CrdCondition[];
  };
};

/** Available and rolled out: the new ReplicaSet's pods ready. */
export function deploymentReady(d: DeploymentObject | undefined): boolean {
  if (!d) return false;
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s.updatedReplicas ?? 0) >= want &&
    (s.availableReplicas ?? 0) >= want &&
    (s.conditions ?? []).some(
      c => c.type === 'Available' && c.status === 'True',
    )
  );
}

type SliceObject = KubeObject & {
  endpoints?: Array<{
    addresses?: string[];
    conditions?: { ready?: boolean; terminating?: boolean };
  }>;
};

/**
 * Endpoints behind a Service (its EndpointSlices) whose pods are up and not
 * terminating, ready or not. Not only ready ones: the core reports ready only
 * once it has written the caBundle into its webhook configurations, so
 * waiting for readiness before registering them would wait forever.
 */
export async function liveEndpoints(
  client: KubeClient,
  namespace: string,
  service: string,
): Promise<number> {
  const slices = await client.list<SliceObject>(EndpointSlices, {
    namespace,
    labelSelector: `kubernetes.io/service-name=${service}`,
  });
  return slices.items
    .flatMap(s => s.endpoints ?? [])
    .filter(
      e => (e.addresses?.length ?? 0) > 0 && e.conditions?.terminating !== true,
    ).length;
}

/** The REST resource of a group/version/plural (webhook rules name plurals). */
export async function resolvePlural(
  client: KubeClient,
  apiVersion: string,
  plural: string,
): Promise<ResourceType | undefined> {
  const { group, version } = parseApiVersion(apiVersion);
  try {
    const list = await client.request<{
      resources: Array<{ name: string; kind: string; namespaced: boolean }>;
    }>({
      method: 'GET',
      path: group ? `/apis/${group}/${version}` : `/api/${version}`,
    });
    const r = list.resources.find(x => x.name === plural);
    return r
      ? { group, version, plural, kind: r.kind, namespaced: r.namespaced }
      : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export type WebhookConfigObject = KubeObject & {
  webhooks?: Array<{
    name: string;
    clientConfig?: {
      service?: { name: string; namespace: string };
      url?: string;
    };
    rules?: Array<{
      apiGroups?: string[];
      apiVersions?: string[];
      resources?: string[];
      operations?: string[];
    }>;
  }>;
};

/** Services a webhook configuration calls, `namespace/name`. */
export function webhookServices(
  config: WebhookConfigObject,
): Array<{ namespace: string; name: string }> {
  const seen = new Map<string, { namespace: string; name: string }>();
  for (const hook of config.webhooks ?? []) {
    const svc = hook.clientConfig?.service;
    if (svc) seen.set(`${svc.namespace}/${svc.name}`, svc);
  }
  return [...seen.values()];
}

export interface ProbeResult {
  answered: boolean;
  message: string;
}

/**
 * Whether a webhook configuration's webhooks answer: a server-side dry-run
 * create of an object they intercept (nothing is stored). A refusal by the
 * webhook is an answer; "failed calling webhook" is not.
 */
export async function probeWebhooks(
  client: KubeClient,
  config: WebhookConfigObject,
  namespace: string,
): Promise<ProbeResult> {
  const rule = config.webhooks
    ?.flatMap(h => h.rules ?? [])
    .find(r => r.operations?.some(op => op === 'CREATE' || op === '*'));
  const group = rule?.apiGroups?.[0];
  const version = rule?.apiVersions?.[0];
  const plural = rule?.resources?.[0];
  if (group === undefined || !version || !plural || plural.includes('*')) {
    return {
      answered: true,
      message: 'no CREATE rule on a named resource to probe',
    };
  }
  const apiVersion = group ? `${group}/${version}` : version;
  const rt = await resolvePlural(client, apiVersion, plural);
  if (!rt)
    return {
      answered: false,
      message: `the API server does not serve ${plural}.${group}/${version} (its CRD is missing)`,
    };
  const probe: KubeObject = {
    apiVersion,
    kind: rt.kind,
    metadata: {
      name: `runway-webhook-probe-${Date.now().toString(36)}`,
      ...(rt.namespaced ? { namespace } : {}),
    },
  };
  try {
    await client.create(rt, probe, {
      dryRun: true,
      fieldManager: 'runway-cli',
    });
    return { answered: true, message: 'answered' };
  } catch (err) {
    const message =
      (err as { status?: { message?: string } }).status?.message ??
      (err as Error).message;
    if (
      /failed calling webhook|no endpoints available|context deadline exceeded/i.test(
        message,
      )
    ) {
      return { answered: false, message };
    }
    return { answered: true, message: `answered (${message.slice(0, 120)})` };
  }
}

export { CustomResourceDefinitions, Deployments };

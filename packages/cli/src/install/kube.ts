import https from 'node:https';
/** Small cluster reads shared by install, uninstall and doctor. */
import {
  CustomResourceDefinitions,
  Deployments,
  isNotFound,
  KubeApiError,
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

/**
 * Runs `call` again while the API server answers 429 (as client-go does), for
 * example "storage is (re)initializing" while a new CRD's watch cache fills;
 * at most `attempts` times, waiting its Retry-After (1 s when it gives none).
 */
export async function retryTooManyRequests<T>(
  call: () => Promise<T>,
  attempts = 10,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (
        !(err instanceof KubeApiError) ||
        err.code !== 429 ||
        attempt >= attempts
      )
        throw err;
      const seconds = err.status?.details?.retryAfterSeconds ?? 1;
      await sleep(Math.min(seconds, 5) * 1000);
    }
  }
}

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
    failurePolicy?: string;
    clientConfig?: {
      service?: {
        name: string;
        namespace: string;
        path?: string;
        port?: number;
      };
      url?: string;
      caBundle?: string;
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

type Webhook = NonNullable<WebhookConfigObject['webhooks']>[number];

interface ReviewTarget {
  kind: string;
  group: string;
  version: string;
  plural: string;
  namespace?: string;
}

/** A dry-run AdmissionReview of a CREATE of a bare object of the target's kind. */
function admissionReview(uid: string, t: ReviewTarget) {
  const apiVersion = t.group ? `${t.group}/${t.version}` : t.version;
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: t.group, version: t.version, kind: t.kind },
      resource: { group: t.group, version: t.version, resource: t.plural },
      operation: 'CREATE',
      namespace: t.namespace,
      name: uid,
      dryRun: true,
      userInfo: { username: 'runway-cli-probe' },
      object: {
        apiVersion,
        kind: t.kind,
        metadata: { name: uid, namespace: t.namespace },
      },
    },
  };
}

/**
 * A webhook behind a Service, asked directly through the API server's
 * Service proxy: an answer with our uid proves the server behind the
 * Service answers on its path, whatever the webhook's failurePolicy (with
 * Ignore, a write through a dead webhook succeeds and proves nothing).
 */
async function probeThroughServiceProxy(
  client: KubeClient,
  hook: Webhook,
  target: ReviewTarget,
): Promise<ProbeResult> {
  const svc = hook.clientConfig!.service!;
  const uid = `runway-probe-${Date.now().toString(36)}`;
  const path = `/api/v1/namespaces/${encodeURIComponent(
    svc.namespace,
  )}/services/https:${encodeURIComponent(svc.name)}:${svc.port ?? 443}/proxy${
    svc.path ?? '/'
  }`;
  try {
    const answer = await client.request<{ response?: { uid?: string } }>({
      method: 'POST',
      path,
      timeoutMs: 10_000,
      body: admissionReview(uid, target),
    });
    return answer?.response?.uid === uid
      ? { answered: true, message: 'answered' }
      : {
          answered: false,
          message: `Service ${svc.namespace}/${svc.name} answered ${
            svc.path ?? '/'
          } without an AdmissionReview response`,
        };
  } catch (err) {
    const message =
      (err as { status?: { message?: string } }).status?.message ||
      (err as Error).message;
    return {
      answered: false,
      message: `Service ${svc.namespace}/${svc.name}: ${message}`,
    };
  }
}

/** A webhook by URL (a controller run as a local process), asked directly, trusting only its caBundle. */
async function probeUrl(
  hook: Webhook,
  target: ReviewTarget,
): Promise<ProbeResult> {
  const url = hook.clientConfig!.url!;
  const uid = `runway-probe-${Date.now().toString(36)}`;
  const body = JSON.stringify(admissionReview(uid, target));
  const ca = hook.clientConfig?.caBundle
    ? Buffer.from(hook.clientConfig.caBundle, 'base64')
    : undefined;
  return new Promise(resolve => {
    const req = https.request(
      url,
      {
        method: 'POST',
        ca,
        timeout: 10_000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      res => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', chunk => {
          text += chunk;
        });
        res.on('end', () => {
          try {
            const answer = JSON.parse(text) as { response?: { uid?: string } };
            resolve(
              answer.response?.uid === uid
                ? { answered: true, message: 'answered' }
                : {
                    answered: false,
                    message: `${url} answered HTTP ${res.statusCode} without an AdmissionReview response`,
                  },
            );
          } catch {
            resolve({
              answered: false,
              message: `${url} answered HTTP ${res.statusCode}, not JSON`,
            });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10s')));
    req.on('error', err =>
      resolve({ answered: false, message: `${url}: ${err.message}` }),
    );
    req.end(body);
  });
}

/**
 * Whether a webhook configuration's webhooks answer: a dry-run
 * AdmissionReview of a CREATE of a kind they intercept, sent to the server
 * behind them (a Service through the API server's proxy, or a URL directly).
 */
export async function probeWebhooks(
  client: KubeClient,
  config: WebhookConfigObject,
  namespace: string,
): Promise<ProbeResult> {
  const hook = config.webhooks?.find(h =>
    h.rules?.some(r => r.operations?.some(op => op === 'CREATE' || op === '*')),
  );
  const rule = hook?.rules?.find(r =>
    r.operations?.some(op => op === 'CREATE' || op === '*'),
  );
  const group = rule?.apiGroups?.[0];
  const version = rule?.apiVersions?.[0];
  const plural = rule?.resources?.[0];
  if (
    !hook ||
    group === undefined ||
    !version ||
    !plural ||
    plural.includes('*')
  ) {
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
  const target: ReviewTarget = {
    kind: rt.kind,
    group,
    version,
    plural,
    namespace: rt.namespaced ? namespace : undefined,
  };
  if (hook.clientConfig?.service)
    return probeThroughServiceProxy(client, hook, target);
  if (hook.clientConfig?.url) return probeUrl(hook, target);
  return {
    answered: false,
    message: `${hook.name} has neither a Service nor a URL`,
  };
}

export { CustomResourceDefinitions, Deployments };

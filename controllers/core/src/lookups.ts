/**
 * The cluster facts the core looks up besides its caches: whether a Secret
 * exists (metadata only: its value never crosses the wire), whether the
 * gateway CRDs are installed, the Gateways, the model's Service and a
 * provider's InferencePool.
 */
import http from 'node:http';
import https from 'node:https';
import {
  CustomResourceDefinitions,
  isNotFound,
  type KubeClient,
  type KubeObject,
  type ResourceType,
  Services,
} from '@runway-portal/controller-runtime';
import {
  GATEWAY_API_GROUP,
  GATEWAY_CRDS,
  type GatewayInfo,
  INFERENCE_POOL_GROUP,
  type ModelServiceInfo,
} from '@runway-portal/plugin-runway-common';

export const Gateways: ResourceType = {
  group: GATEWAY_API_GROUP,
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
  namespaced: true,
};
export const InferencePools: ResourceType = {
  group: INFERENCE_POOL_GROUP,
  version: 'v1',
  plural: 'inferencepools',
  kind: 'InferencePool',
  namespaced: true,
};

/**
 * GET of a Secret as PartialObjectMetadata: the API server answers with
 * metadata only, so the controller never receives the Secret's data.
 * (KubeClient always asks for full JSON; this adapter sets the Accept header.)
 */
export async function secretExists(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<boolean> {
  const auth: https.RequestOptions = {};
  await client.kubeConfig.applyToHTTPSOptions(auth);
  const url = new URL(
    `${client.server}/api/v1/namespaces/${encodeURIComponent(
      namespace,
    )}/secrets/${encodeURIComponent(name)}`,
  );
  const headers: http.OutgoingHttpHeaders = {
    ...(auth.headers as http.OutgoingHttpHeaders | undefined),
    Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  };
  const transport = url.protocol === 'https:' ? https : http;
  const status = await new Promise<number>((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'GET',
        headers,
        ca: auth.ca,
        cert: auth.cert,
        key: auth.key,
        rejectUnauthorized: auth.rejectUnauthorized,
        signal: AbortSignal.timeout(10_000),
      },
      res => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
  if (status === 200) return true;
  if (status === 404) return false;
  throw new Error(
    `checking Secret ${namespace}/${name} failed with HTTP ${status} (the core needs "get" on secrets)`,
  );
}

/** The gateway CRDs the cluster lacks, looked up at most once per `ttlMs`. */
export class GatewayCrdCheck {
  private cached?: { at: number; missing: string[] };

  constructor(
    private readonly client: KubeClient,
    private readonly ttlMs = 30_000,
  ) {}

  async missing(): Promise<string[]> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs)
      return this.cached.missing;
    const missing: string[] = [];
    for (const name of GATEWAY_CRDS) {
      try {
        await this.client.get(CustomResourceDefinitions, { name });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        missing.push(name);
      }
    }
    this.cached = { at: Date.now(), missing };
    return missing;
  }
}

/**
 * The Gateways in the cluster, listed at most once per `ttlMs` (every
 * gateway-enabled deployment needs them; a new or relabelled Gateway is seen
 * within the TTL).
 */
/** How long the Gateway list is reused. */
export const GATEWAY_LIST_TTL_MS = 2_000;

export class GatewayList {
  private cached?: { at: number; gateways: Promise<GatewayInfo[]> };

  constructor(
    private readonly client: KubeClient,
    private readonly ttlMs = GATEWAY_LIST_TTL_MS,
  ) {}

  list(): Promise<GatewayInfo[]> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs)
      return this.cached.gateways;
    const gateways = this.client
      .list<GatewayInfo & KubeObject>(Gateways)
      .then(l => l.items);
    this.cached = { at: Date.now(), gateways };
    // A failed list is not kept: the next reconcile asks again.
    gateways.catch(() => (this.cached = undefined));
    return gateways;
  }
}

/** The Service the provider reports (selector and ports only); null when it does not exist. */
export async function modelService(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<ModelServiceInfo | null> {
  try {
    const svc = await client.get<KubeObject & { spec?: ModelServiceInfo }>(
      Services,
      { namespace, name },
    );
    return { selector: svc.spec?.selector, ports: svc.spec?.ports };
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export async function inferencePoolExists(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<boolean> {
  try {
    await client.get(InferencePools, { namespace, name });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

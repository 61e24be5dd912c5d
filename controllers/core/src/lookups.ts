/**
 * The cluster facts the core looks up besides its caches (whether a Secret
 * exists is controller-runtime's `secretExists`): whether the gateway CRDs
 * are installed, the Gateways, the model's Service and a
 * provider's InferencePool.
 */
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

/**
 * The two cluster facts the core looks up besides its caches: whether a
 * Secret exists (metadata only: its value never crosses the wire) and
 * whether the gateway CRDs are installed.
 */
import http from 'node:http';
import https from 'node:https';
import { CustomResourceDefinitions, isNotFound, type KubeClient } from '@runway-portal/controller-runtime';
import { GATEWAY_CRDS } from './decide';

/**
 * GET of a Secret as PartialObjectMetadata: the API server answers with
 * metadata only, so the controller never receives the Secret's data.
 * (KubeClient always asks for full JSON; this adapter sets the Accept header.)
 */
export async function secretExists(client: KubeClient, namespace: string, name: string): Promise<boolean> {
  const auth: https.RequestOptions = {};
  await client.kubeConfig.applyToHTTPSOptions(auth);
  const url = new URL(`${client.server}/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`);
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
  throw new Error(`checking Secret ${namespace}/${name} failed with HTTP ${status} (the core needs "get" on secrets)`);
}

/** The gateway CRDs the cluster lacks, looked up at most once per `ttlMs`. */
export class GatewayCrdCheck {
  private cached?: { at: number; missing: string[] };

  constructor(
    private readonly client: KubeClient,
    private readonly ttlMs = 30_000,
  ) {}

  async missing(): Promise<string[]> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.missing;
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

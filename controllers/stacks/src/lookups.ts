/**
 * What the operator looks up besides its caches: whether a Secret exists,
 * as metadata only (its value never crosses the wire: FR-073, NFR-003), and
 * a ConfigMap's data (override configs and CA bundles are not secret).
 */
import http from 'node:http';
import https from 'node:https';
import {
  ConfigMaps,
  isNotFound,
  type KubeClient,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import type { StackReferenceLookup } from '@runway-portal/plugin-runway-common';

/**
 * GET of a Secret as PartialObjectMetadata: the API server answers with
 * metadata only. (KubeClient always asks for full JSON; this sets the Accept header.)
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
    `checking Secret ${namespace}/${name} failed with HTTP ${status} (the stack operator needs "get" on secrets)`,
  );
}

export async function getConfigMap(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await client.get(ConfigMaps, { namespace, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The lookup runway-common's `checkStackReferences` takes, on the real cluster. */
export function clusterLookup(client: KubeClient): StackReferenceLookup {
  return {
    secretExists: (namespace, name) => secretExists(client, namespace, name),
    configMapKeys: async (namespace, name) => {
      const cm = await getConfigMap(client, namespace, name);
      return cm
        ? Object.keys({ ...(cm.data as object), ...(cm.binaryData as object) })
        : undefined;
    },
  };
}

import http from 'node:http';
import https from 'node:https';
import type { KubeClient } from './client';

/**
 * Whether a Secret exists, without ever receiving its data: a GET as
 * PartialObjectMetadata, so the API server answers with metadata only.
 * (KubeClient always asks for full JSON; this sets the Accept header.)
 * RBAC still needs `get` on secrets; `requester` names who needs it in the
 * error ("the core", "the stack operator").
 *
 * @public
 */
export async function secretExists(
  client: KubeClient,
  namespace: string,
  name: string,
  requester: string,
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
    `checking Secret ${namespace}/${name} failed with HTTP ${status} (${requester} needs "get" on secrets)`,
  );
}

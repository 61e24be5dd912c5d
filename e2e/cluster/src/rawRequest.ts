import type { KubeConfig } from '@kubernetes/client-node';
import { request, type RequestOptions } from 'node:https';

export interface RawResponse {
  status: number;
  body: any;
}

/**
 * One request with a JSON body sent exactly as given. client-node's typed
 * serializer would drop wire-format keys of built-in kinds it maps to other
 * names (`x-kubernetes-validations`, `enum`, `$ref` in a CRD schema), so
 * objects read from YAML go through here.
 */
export async function rawRequest(
  kubeConfig: KubeConfig,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<RawResponse> {
  const server = kubeConfig.getCurrentCluster()?.server;
  if (!server) throw new Error('The kubeconfig has no current cluster');
  const options: RequestOptions = {
    method,
    agent: false,
    headers: { Accept: 'application/json' },
  };
  await kubeConfig.applyToHTTPSOptions(options);
  const payload =
    body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  if (payload) {
    options.headers = {
      ...options.headers,
      'Content-Type': contentType,
      'Content-Length': payload.length,
    };
  }
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server), options, response => {
      const chunks: Buffer[] = [];
      response.on('data', chunk => chunks.push(chunk));
      response.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON (rare error pages): keep the text.
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
    });
    req.once('error', reject);
    req.end(payload);
  });
}

/** Server-side apply of a cluster-scoped or namespaced object at `path`; throws with the API server's message. */
export async function serverSideApply(
  kubeConfig: KubeConfig,
  path: string,
  object: unknown,
  fieldManager: string,
): Promise<any> {
  const query = new URLSearchParams({ fieldManager, force: 'true' });
  const response = await rawRequest(
    kubeConfig,
    'PATCH',
    `${path}?${query}`,
    object,
    'application/apply-patch+yaml',
  );
  if (response.status >= 300) {
    const message =
      typeof response.body === 'object'
        ? response.body?.message
        : String(response.body);
    throw new Error(`HTTP ${response.status}: ${message}`);
  }
  return response.body;
}

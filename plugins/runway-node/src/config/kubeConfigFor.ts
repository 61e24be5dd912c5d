import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterSpec } from './readClusters';

/** Where Kubernetes mounts a pod's service account token. */
export const IN_CLUSTER_TOKEN_FILE =
  '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * The client configuration of one configured cluster. Credentials are the
 * portal's own (a service account token, or a kubeconfig context for local
 * development); the server URL is the configured one, never a request's.
 *
 * @public
 */
export function kubeConfigFor(spec: ClusterSpec): KubeConfig {
  const kc = new KubeConfig();
  if (spec.auth.type === 'kubeconfig') {
    if (spec.auth.path) kc.loadFromFile(spec.auth.path);
    else kc.loadFromDefault();
    kc.setCurrentContext(spec.auth.context);
    return kc;
  }
  const user = spec.auth.token
    ? { name: spec.name, token: spec.auth.token }
    : {
        name: spec.name,
        // Re-read on expiry, as projected tokens rotate.
        authProvider: {
          name: 'tokenFile',
          config: { tokenFile: IN_CLUSTER_TOKEN_FILE },
        },
      };
  kc.loadFromOptions({
    clusters: [
      {
        name: spec.name,
        server: spec.url,
        caData: spec.caData?.replace(/\s+/g, ''),
        caFile: spec.caFile,
        skipTLSVerify: spec.skipTLSVerify,
      },
    ],
    users: [user],
    contexts: [{ name: spec.name, cluster: spec.name, user: spec.name }],
    currentContext: spec.name,
  });
  return kc;
}

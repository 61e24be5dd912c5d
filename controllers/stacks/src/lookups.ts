/**
 * What the operator looks up besides its caches: whether a Secret exists
 * (controller-runtime's `secretExists`, metadata only: its value never
 * crosses the wire, FR-073, NFR-003), and
 * a ConfigMap's data (override configs and CA bundles are not secret).
 * The one exception: the image pull Secrets of a stack's ServiceAccount,
 * whose values are registry credentials the operator needs to read the
 * image's config labels as the kubelet would pull it (FR-027h).
 */
import {
  ConfigMaps,
  isNotFound,
  type KubeClient,
  type KubeObject,
  type ResourceType,
  Secrets,
  secretExists,
} from '@runway-portal/controller-runtime';
import type { StackReferenceLookup } from '@runway-portal/plugin-runway-common';
import {
  credentialsFromDockerConfig,
  type RegistryCredential,
} from './oci/image';

export const ServiceAccounts: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
  kind: 'ServiceAccount',
  namespaced: true,
};

/** `get`, undefined when the object does not exist. */
async function getIfExists<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType,
  namespace: string,
  name: string,
): Promise<T | undefined> {
  try {
    return await client.get<T>(rt, { namespace, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * The registry credentials the kubelet would use for the stack's pods
 * ("k8schain", FR-027h): the `imagePullSecrets` of the ServiceAccount they
 * run as (the stack has no pull secrets of its own), each a
 * `kubernetes.io/dockerconfigjson` (or legacy `dockercfg`) Secret, in
 * order. A missing ServiceAccount or Secret is skipped, as the kubelet
 * does; the values stay in memory for the one registry read.
 */
export async function pullCredentials(
  client: KubeClient,
  namespace: string,
  serviceAccount: string,
): Promise<RegistryCredential[]> {
  const account = await getIfExists<
    KubeObject & { imagePullSecrets?: Array<{ name?: string }> }
  >(client, ServiceAccounts, namespace, serviceAccount);
  const credentials: RegistryCredential[] = [];
  for (const ref of account?.imagePullSecrets ?? []) {
    if (!ref.name) continue;
    const secret = await getIfExists<
      KubeObject & { data?: Record<string, string> }
    >(client, Secrets, namespace, ref.name);
    const encoded =
      secret?.data?.['.dockerconfigjson'] ?? secret?.data?.['.dockercfg'];
    if (encoded)
      credentials.push(
        ...credentialsFromDockerConfig(
          Buffer.from(encoded, 'base64').toString('utf8'),
        ),
      );
  }
  return credentials;
}

export async function getConfigMap(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<KubeObject | undefined> {
  return getIfExists(client, ConfigMaps, namespace, name);
}

/** The lookup runway-common's `checkStackReferences` takes, on the real cluster. */
export function clusterLookup(client: KubeClient): StackReferenceLookup {
  return {
    secretExists: (namespace, name) =>
      secretExists(client, namespace, name, 'the stack operator'),
    configMapKeys: async (namespace, name) => {
      const cm = await getConfigMap(client, namespace, name);
      return cm
        ? Object.keys({ ...(cm.data as object), ...(cm.binaryData as object) })
        : undefined;
    },
  };
}

const SubjectAccessReviews: ResourceType = {
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  namespaced: false,
};

/** The webhook's ConfigMapAccess: a SubjectAccessReview of `get configmaps/<name>` for the requesting user. */
export function configMapAccess(client: KubeClient) {
  return async (
    user: {
      username?: string;
      groups?: string[];
      uid?: unknown;
      extra?: unknown;
    },
    namespace: string,
    name: string,
  ): Promise<boolean> => {
    const review = await client.create<
      KubeObject & { status?: { allowed?: boolean } }
    >(SubjectAccessReviews, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: user.username,
        groups: user.groups,
        ...(typeof user.uid === 'string' ? { uid: user.uid } : {}),
        ...(user.extra && typeof user.extra === 'object'
          ? { extra: user.extra }
          : {}),
        resourceAttributes: {
          verb: 'get',
          resource: 'configmaps',
          namespace,
          name,
        },
      },
    } as KubeObject);
    return review.status?.allowed === true;
  };
}

/**
 * What the operator looks up besides its caches: whether a Secret exists
 * (controller-runtime's `secretExists`, metadata only: its value never
 * crosses the wire, FR-073, NFR-003), and
 * a ConfigMap's data (override configs and CA bundles are not secret).
 */
import {
  ConfigMaps,
  isNotFound,
  type KubeClient,
  type KubeObject,
  type ResourceType,
  secretExists,
} from '@runway-portal/controller-runtime';
import type { StackReferenceLookup } from '@runway-portal/plugin-runway-common';

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

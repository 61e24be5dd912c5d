/**
 * The portal's identity in a local cluster: a ServiceAccount bound to the
 * permissions the portal needs (plugin-runway-node's ClusterRole),
 * and a token for it, as an administrator would set a real cluster up.
 */
import {
  Namespaces,
  type KubeClient,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { portalClusterRole } from '@runway-portal/plugin-runway-node';
import { serviceAccountToken } from '@runway-portal/e2e-testing';

const FIELD_MANAGER = 'runway-local-system';
export const PORTAL_NAMESPACE = 'runway-system';
export const PORTAL_ACCOUNT = 'runway-portal';
/** A week: long enough for a local session; a restart issues a new one. */
export const TOKEN_SECONDS = 7 * 24 * 3600;

const rbac = (kind: string, plural: string): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind,
  plural,
  namespaced: false,
});
const ServiceAccounts: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
};

/** The portal's permissions: one definition, in plugin-runway-node (its README says how to apply it). */
export const PORTAL_CLUSTER_ROLE: KubeObject =
  // The local system shows the credentials picker: its clusters hold no one's secrets.
  portalClusterRole(PORTAL_ACCOUNT, { listSecretNames: true });

/** Creates (or updates) the portal's account and returns a fresh token for it. */
export async function portalToken(client: KubeClient): Promise<string> {
  const options = { fieldManager: FIELD_MANAGER, force: true };
  await client.apply(
    Namespaces,
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: PORTAL_NAMESPACE },
    },
    options,
  );
  await client.apply(
    ServiceAccounts,
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: PORTAL_ACCOUNT, namespace: PORTAL_NAMESPACE },
    },
    options,
  );
  await client.apply(
    rbac('ClusterRole', 'clusterroles'),
    PORTAL_CLUSTER_ROLE,
    options,
  );
  await client.apply(
    rbac('ClusterRoleBinding', 'clusterrolebindings'),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: PORTAL_ACCOUNT },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: PORTAL_ACCOUNT,
      },
      subjects: [
        {
          kind: 'ServiceAccount',
          name: PORTAL_ACCOUNT,
          namespace: PORTAL_NAMESPACE,
        },
      ],
    } as KubeObject,
    options,
  );
  return serviceAccountToken(
    client,
    { namespace: PORTAL_NAMESPACE, name: PORTAL_ACCOUNT },
    TOKEN_SECONDS,
  );
}

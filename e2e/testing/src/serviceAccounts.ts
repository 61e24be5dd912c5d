/**
 * A controller's identity as the `runway` CLI installs it (its bundle's
 * ServiceAccount, RBAC and admission policy): which ServiceAccount, a token
 * for it and a kubeconfig with that token. So the local system (e2e/system)
 * and the integration tests run every controller with the rights it ships
 * with, not cluster-admin.
 */
import type { KubeClient, KubeObject } from '@runway-portal/controller-runtime';
import {
  CATALOG,
  catalogEntry,
  defaultDeployDir,
  loadCatalogBundle,
} from '@runway-portal/cli';
import { stringify } from 'yaml';

/** A week, as the portal's token: long enough for a local session or a test run; a restart issues new ones. */
export const CONTROLLER_TOKEN_SECONDS = 7 * 24 * 3600;

export interface ServiceAccountRef {
  namespace: string;
  name: string;
}

/** The one ServiceAccount a controller's objects define. */
export function serviceAccountOf(
  docs: readonly KubeObject[],
  where: string,
): ServiceAccountRef {
  const accounts = docs.filter(d => d.kind === 'ServiceAccount');
  const [account] = accounts;
  if (
    accounts.length !== 1 ||
    !account.metadata?.name ||
    !account.metadata.namespace
  ) {
    throw new Error(
      `${where} must define exactly one ServiceAccount with a name and a namespace (found ${accounts.length}): the local system and the tests run the controller as it`,
    );
  }
  return {
    namespace: account.metadata.namespace,
    name: account.metadata.name,
  };
}

/** The full user name Kubernetes gives a ServiceAccount. */
export function serviceAccountUser(account: ServiceAccountRef): string {
  return `system:serviceaccount:${account.namespace}:${account.name}`;
}

/** A kubeconfig (YAML) that authenticates to `server` with a ServiceAccount token. */
export function tokenKubeconfig(input: {
  cluster: string;
  server: string;
  caData: string;
  user: string;
  token: string;
}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: input.cluster,
        cluster: {
          server: input.server,
          'certificate-authority-data': input.caData,
        },
      },
    ],
    users: [{ name: input.user, user: { token: input.token } }],
    contexts: [
      {
        name: input.cluster,
        context: { cluster: input.cluster, user: input.user },
      },
    ],
    'current-context': input.cluster,
  });
}

/**
 * The ServiceAccount a controller runs as: the one of its bundle, as the
 * CLI installs it (`component` is its name in the CLI's catalog).
 */
export function controllerServiceAccount(
  component: string,
  deployDir = defaultDeployDir(),
): ServiceAccountRef {
  const entry = catalogEntry(component);
  if (!entry)
    throw new Error(
      `component "${component}" is not in the runway CLI's catalog (packages/cli/src/bundles/catalog.ts): name one of its entries (${CATALOG.map(
        e => e.name,
      ).join(', ')})`,
    );
  return serviceAccountOf(
    loadCatalogBundle(entry, deployDir).objects,
    `the bundle ${entry.dir}`,
  );
}

/** A token for a ServiceAccount (TokenRequest), valid for `seconds`. */
export async function serviceAccountToken(
  admin: KubeClient,
  account: ServiceAccountRef,
  seconds: number,
): Promise<string> {
  const review = await admin.request<{ status?: { token?: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${account.namespace}/serviceaccounts/${account.name}/token`,
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: seconds },
    },
  });
  const token = review.status?.token;
  if (!token)
    throw new Error(
      `the API server issued no token for ${account.namespace}/${account.name}: check the cluster's service-account signing key`,
    );
  return token;
}

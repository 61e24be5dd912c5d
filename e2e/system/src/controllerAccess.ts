/**
 * Each controller's identity in a local cluster, as an installer sets it up:
 * the shipped namespace, RBAC and admission policy of `controllers/deploy/<dir>`
 * (applied by the admin), the webhook configurations the ServiceAccount may
 * only patch (created empty, as the shipped webhooks.yaml would create them),
 * and a kubeconfig with a token for that ServiceAccount. So the local system
 * runs every controller with the rights it ships with, not cluster-admin.
 */
import {
  isAlreadyExists,
  type KubeClient,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

const FIELD_MANAGER = 'runway-local-system';
/** A week, as the portal's token: long enough for a local session; a restart issues new ones. */
export const CONTROLLER_TOKEN_SECONDS = 7 * 24 * 3600;
const WEBHOOK_KINDS: Record<string, string> = {
  validatingwebhookconfigurations: 'ValidatingWebhookConfiguration',
  mutatingwebhookconfigurations: 'MutatingWebhookConfiguration',
};

export interface ServiceAccountRef {
  namespace: string;
  name: string;
}

/** The documents of a YAML file (empty documents dropped). */
export function readManifest(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map(d => d.toJSON() as KubeObject | null)
    .filter((o): o is KubeObject => Boolean(o?.kind));
}

/** The files an installer applies for a controller's identity: its RBAC, and its admission policy when it ships one. */
export function accessManifests(deployDir: string): string[] {
  const policy = join(deployDir, 'admission-policy.yaml');
  return [
    join(deployDir, 'rbac.yaml'),
    ...(existsSync(policy) ? [policy] : []),
  ];
}

/** The one ServiceAccount an RBAC manifest defines. */
export function serviceAccountOf(
  docs: readonly KubeObject[],
  file: string,
): ServiceAccountRef {
  const accounts = docs.filter(d => d.kind === 'ServiceAccount');
  const [account] = accounts;
  if (
    accounts.length !== 1 ||
    !account.metadata?.name ||
    !account.metadata.namespace
  ) {
    throw new Error(
      `${file} must define exactly one ServiceAccount with a name and a namespace (found ${accounts.length}): the local system runs the controller as it`,
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

/**
 * The webhook configurations a manifest's rules let its ServiceAccount patch
 * by name: the installer creates them (the controller may not), the
 * controller in url mode fills them in.
 */
export function patchableWebhookConfigurations(
  docs: readonly KubeObject[],
): KubeObject[] {
  const out: KubeObject[] = [];
  for (const doc of docs) {
    if (doc.kind !== 'ClusterRole') continue;
    const rules = (doc as { rules?: Array<Record<string, string[]>> }).rules;
    for (const rule of rules ?? []) {
      if (!rule.apiGroups?.includes('admissionregistration.k8s.io')) continue;
      for (const resource of rule.resources ?? []) {
        const kind = WEBHOOK_KINDS[resource];
        if (!kind) continue;
        for (const name of rule.resourceNames ?? [])
          out.push({
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind,
            metadata: { name },
          });
      }
    }
  }
  return out;
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
 * Applies a controller's shipped identity (namespace, RBAC, admission
 * policy), creates the webhook configurations it may only patch, and
 * returns its ServiceAccount with a fresh token.
 */
export async function prepareControllerAccess(
  admin: KubeClient,
  deployDir: string,
  namespaceManifest: string,
): Promise<{ account: ServiceAccountRef; token: string }> {
  const options = { fieldManager: FIELD_MANAGER, force: true };
  const files = [namespaceManifest, ...accessManifests(deployDir)];
  const docs = files.flatMap(readManifest);
  for (const obj of docs)
    await admin.apply(
      await admin.resolve(obj.apiVersion!, obj.kind!),
      obj,
      options,
    );
  for (const config of patchableWebhookConfigurations(docs)) {
    try {
      await admin.create(
        await admin.resolve(config.apiVersion!, config.kind!),
        config,
      );
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
  const account = serviceAccountOf(docs, join(deployDir, 'rbac.yaml'));
  return {
    account,
    token: await serviceAccountToken(admin, account, CONTROLLER_TOKEN_SECONDS),
  };
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

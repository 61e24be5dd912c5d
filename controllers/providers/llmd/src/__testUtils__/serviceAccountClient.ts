/**
 * Runs a provider in tests with exactly the permissions its install
 * manifests grant: applies `controllers/deploy/<provider>/rbac.yaml` and
 * returns a client authenticated as that ServiceAccount (a TokenRequest
 * token), so any missing rule fails the test that needs it.
 */
import fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeObject, Namespaces, isAlreadyExists } from '@runway-portal/controller-runtime';
import YAML from 'yaml';

export async function serviceAccountClient(admin: KubeClient, rbacFile: string): Promise<KubeClient> {
  const objects = YAML.parseAllDocuments(fs.readFileSync(rbacFile, 'utf8')).map(d => d.toJSON() as KubeObject);
  const namespaces = new Set(objects.map(o => o.metadata?.namespace).filter((n): n is string => !!n));
  for (const name of namespaces) {
    await admin.create(Namespaces, { metadata: { name } }).catch(err => {
      if (!isAlreadyExists(err)) throw err;
    });
  }
  for (const obj of objects) {
    await admin.apply(await admin.resolve(obj.apiVersion!, obj.kind!), obj, { fieldManager: 'rbac-test', force: true });
  }
  const account = objects.find(o => o.kind === 'ServiceAccount')!;
  const { status } = await admin.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${account.metadata!.namespace}/serviceaccounts/${account.metadata!.name}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  const cluster = admin.kubeConfig.getCurrentCluster()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name: account.metadata!.name!, token: status.token }],
    contexts: [{ name: 'sa', cluster: cluster.name, user: account.metadata!.name! }],
    currentContext: 'sa',
  });
  return new KubeClient(kc);
}

import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultLeaseName } from '@runway-portal/controller-runtime';
import { webhookConfiguration } from './main';
import { MODELS_PROGRAM } from './options';

/** The first document of `kind` in a file of controllers/deploy/models. */
function shipped(file: string, kind: string) {
  return parseAllDocuments(
    fs.readFileSync(
      path.resolve(__dirname, '../../deploy/models', file),
      'utf8',
    ),
  )
    .map(d => d.toJSON())
    .find(d => d?.kind === kind);
}

describe('the shipped leader-election Role', () => {
  it('names the Lease the operator renews (the one `runway doctor` reads when there is no Deployment)', () => {
    const role = shipped('rbac.yaml', 'Role');
    expect(
      role.rules.filter(
        (r: { resources: string[]; resourceNames?: string[] }) =>
          r.resources.includes('leases') && r.resourceNames,
      ),
    ).toEqual([
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: [defaultLeaseName(MODELS_PROGRAM)],
        verbs: ['get', 'update'],
      },
    ]);
  });
});

describe("the shipped ClusterRole's pod access", () => {
  it('reads pod logs (get on pods/log) and lists pods, nothing more: progress is read, never written', () => {
    const role = shipped('rbac.yaml', 'ClusterRole');
    const podRules = role.rules.filter(
      (r: { apiGroups: string[]; resources: string[] }) =>
        r.apiGroups.includes('') &&
        r.resources.some(x => x === '*' || x.startsWith('pods')),
    );
    expect(podRules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    ]);
  });
});

describe('the injection webhook configuration', () => {
  it('is the shipped one in url mode: the same failure policy, selector and match condition', () => {
    const config = shipped('webhook.yaml', 'MutatingWebhookConfiguration');
    const [hook] = webhookConfiguration(
      'https://127.0.0.1:9443/mutate',
    ).webhooks;
    const [yaml] = config.webhooks;
    const { clientConfig: _url, ...local } = hook;
    const { clientConfig: _service, ...inCluster } = yaml;
    expect(local).toEqual(inCluster);
    expect(local.matchConditions).toEqual([
      expect.objectContaining({ name: 'injection-requested' }),
    ]);
  });
});

import { KIND_INFO, RUNWAY_KINDS, UPSTREAM_KINDS } from './kinds';
import {
  doctorRules,
  portalAccessManifests,
  portalClusterRole,
  portalRules,
} from './rbac';
import { rbacList } from './cli/rbac';

const allowed = (group: string, resource: string, verb: string) =>
  portalRules().some(
    r =>
      r.apiGroups.includes(group) &&
      r.resources.includes(resource) &&
      r.verbs.includes(verb),
  );

describe('portal RBAC', () => {
  it("grants every verb on Runway's kinds and only reads elsewhere", () => {
    for (const kind of RUNWAY_KINDS) {
      for (const verb of [
        'get',
        'list',
        'watch',
        'create',
        'update',
        'patch',
        'delete',
      ]) {
        expect(
          allowed(KIND_INFO[kind].group, KIND_INFO[kind].plural, verb),
        ).toBe(true);
      }
    }
    for (const [group, resource] of [
      ['airunway.ai', 'inferenceproviderconfigs'],
      ['', 'events'],
      ['', 'nodes'],
      ['', 'pods'],
      ['kaito.sh', 'workspaces'],
      ['apps', 'deployments'],
      ['batch', 'jobs'],
      ['', 'persistentvolumeclaims'],
      ['', 'configmaps'],
      ['', 'serviceaccounts'],
      ['rbac.authorization.k8s.io', 'roles'],
      ['rbac.authorization.k8s.io', 'rolebindings'],
    ]) {
      expect(allowed(group, resource, 'watch')).toBe(true);
      expect(allowed(group, resource, 'create')).toBe(false);
      expect(allowed(group, resource, 'delete')).toBe(false);
    }
    // Pod logs: read, nothing else (no exec, attach or port-forward).
    expect(allowed('', 'pods/log', 'get')).toBe(true);
    expect(allowed('', 'pods/log', 'list')).toBe(false);
    expect(allowed('', 'pods/exec', 'create')).toBe(false);
    expect(allowed('', 'pods/exec', 'get')).toBe(false);
    // Try it: the service proxy (POST is create), nothing else on services or pods' proxy.
    expect(allowed('', 'services/proxy', 'create')).toBe(true);
    expect(allowed('', 'services/proxy', 'get')).toBe(true);
    expect(allowed('', 'services/proxy', 'delete')).toBe(false);
    expect(allowed('', 'services', 'create')).toBe(false);
    expect(allowed('', 'pods/proxy', 'create')).toBe(false);
    // Secrets: nothing unless chosen (list would also read their values).
    expect(allowed('', 'secrets', 'get')).toBe(false);
    expect(allowed('', 'secrets', 'watch')).toBe(false);
    expect(allowed('', 'secrets', 'list')).toBe(false);
    expect(allowed('storage.k8s.io', 'storageclasses', 'list')).toBe(true);
    expect(allowed('', 'serviceaccounts/token', 'create')).toBe(false);
    expect(allowed('rbac.authorization.k8s.io', 'roles', 'bind')).toBe(false);
    expect(allowed('rbac.authorization.k8s.io', 'roles', 'escalate')).toBe(
      false,
    );
  });

  it("lets the doctor's checks read what they need, by name, and nothing more", () => {
    const rule = (resource: string) =>
      portalRules().find(r => r.resources.includes(resource));
    expect(rule('customresourcedefinitions')).toMatchObject({
      apiGroups: ['apiextensions.k8s.io'],
      verbs: ['get'],
      resourceNames: expect.arrayContaining([
        'modeldeployments.airunway.ai',
        'workspaces.kaito.sh',
        'gateways.gateway.networking.k8s.io',
      ]),
    });
    expect(rule('validatingwebhookconfigurations')).toMatchObject({
      verbs: ['get'],
      resourceNames: expect.arrayContaining(['airunway-core-validating']),
    });
    expect(rule('mutatingwebhookconfigurations')).toMatchObject({
      verbs: ['get'],
      resourceNames: expect.arrayContaining(['airunway-core-mutating']),
    });
    expect(rule('leases')).toEqual({
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      verbs: ['get'],
      resourceNames: expect.arrayContaining([
        'airunway-core-leader',
        'kaito-provider-leader',
        'airunway-models-leader',
      ]),
    });
    expect(allowed('coordination.k8s.io', 'leases', 'list')).toBe(false);
    expect(allowed('coordination.k8s.io', 'leases', 'update')).toBe(false);
    expect(allowed('gateway.networking.k8s.io', 'gateways', 'list')).toBe(true);
    expect(
      allowed('apiextensions.k8s.io', 'customresourcedefinitions', 'list'),
    ).toBe(false);
    // No webhook probe among the doctor's rules (services/proxy is Try it's, tested there).
    expect(
      doctorRules().some(r => r.resources.includes('services/proxy')),
    ).toBe(false);
  });

  it('covers every upstream kind the cluster cache reads', () => {
    for (const kind of RUNWAY_KINDS) {
      for (const upstream of UPSTREAM_KINDS[kind])
        expect(allowed(upstream.group, upstream.plural, 'list')).toBe(true);
    }
  });

  it('binds the role to the service account, in apply order', () => {
    const manifests = portalAccessManifests({
      name: 'portal',
      namespace: 'tools',
    });
    expect(manifests.map(m => m.kind)).toEqual([
      'Namespace',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
    ]);
    expect(manifests[3]).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'portal' },
      subjects: [
        { kind: 'ServiceAccount', name: 'portal', namespace: 'tools' },
      ],
    });
    expect(portalClusterRole().metadata?.name).toBe('runway-portal');
  });

  it('prints a List to apply, and names a bad flag', () => {
    const list = rbacList(['--namespace', 'platform']);
    expect(list.kind).toBe('List');
    expect(list.items).toHaveLength(4);
    expect(list.items[1]).toMatchObject({
      kind: 'ServiceAccount',
      metadata: { name: 'runway-portal', namespace: 'platform' },
    });
    expect(() => rbacList(['--namespace', 'Bad_NS'])).toThrow(
      '--namespace "Bad_NS" is not a valid Kubernetes name',
    );
    expect(() => rbacList(['--nmespace', 'x'])).toThrow(/nmespace/);
  });
});

describe('listSecretNames', () => {
  it('adds list on Secrets, and nothing more on them, only when chosen', () => {
    const secretRules = (rules: ReturnType<typeof portalRules>) =>
      rules.filter(r => r.resources?.includes('secrets'));
    expect(secretRules(portalRules())).toEqual([]);
    expect(secretRules(portalRules({ listSecretNames: true }))).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
    ]);
    const role = portalAccessManifests({ listSecretNames: true }).find(
      m => m.kind === 'ClusterRole',
    ) as { rules: ReturnType<typeof portalRules> };
    expect(secretRules(role.rules)).toHaveLength(1);
  });
});

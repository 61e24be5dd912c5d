import {
  buildEndpointPicker,
  MANAGED_BY_LABEL,
} from '@runway-portal/plugin-runway-common';
import { matchesLabels, parseLabelSelector } from './cluster/labelSelector';
import { RUNWAY_CREATED_SELECTORS, UPSTREAM_KINDS } from './kinds';

/** How many of the selectors the cache watches ConfigMaps (etc.) with select these labels. */
const selectedBy = (labels: Record<string, string> | undefined) =>
  RUNWAY_CREATED_SELECTORS.filter(s =>
    matchesLabels(parseLabelSelector(s), labels),
  ).length;

describe('upstream kinds of a deployment', () => {
  const byKind = Object.fromEntries(
    UPSTREAM_KINDS.deployments.map(k => [k.kind, k]),
  );

  it('include the storage, configuration and endpoint-picker objects providers and the core create', () => {
    expect(Object.keys(byKind)).toEqual(
      expect.arrayContaining([
        'PersistentVolumeClaim',
        'ConfigMap',
        'ServiceAccount',
        'Role',
        'RoleBinding',
        'Deployment',
        'Service',
      ]),
    );
    expect(byKind.Role).toMatchObject({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      plural: 'roles',
    });
  });

  it('watch the kinds every namespace has many of only where Runway labelled them', () => {
    for (const kind of ['ConfigMap', 'ServiceAccount', 'Role', 'RoleBinding']) {
      expect(byKind[kind].labelSelectors).toBe(RUNWAY_CREATED_SELECTORS);
    }
    expect(byKind.PersistentVolumeClaim.labelSelectors).toBeUndefined();
  });

  it("select each Runway-created object exactly once, and nobody else's", () => {
    const core = buildEndpointPicker({
      name: 'm-epp',
      namespace: 'team-a',
      poolName: 'm',
    });
    // llm-d's picker: its own app.kubernetes.io/managed-by, plus the label every provider object gets.
    const llmd = buildEndpointPicker({
      name: 'm-epp',
      namespace: 'team-a',
      poolName: 'm',
      managedBy: 'airunway-provider-llmd',
    }).map(o => ({
      ...o,
      metadata: {
        ...o.metadata,
        labels: { ...o.metadata.labels, [MANAGED_BY_LABEL]: 'airunway' },
      },
    }));
    for (const obj of [...core, ...llmd])
      expect(selectedBy(obj.metadata.labels)).toBe(1);
    expect(selectedBy({ [MANAGED_BY_LABEL]: 'airunway' })).toBe(1); // e.g. KAITO's inference ConfigMap
    expect(selectedBy(undefined)).toBe(0);
    expect(selectedBy({ 'app.kubernetes.io/managed-by': 'Helm' })).toBe(0);
  });
});

/**
 * The Kubernetes RBAC the portal's ServiceAccount needs in each cluster,
 * derived from the kinds the ClusterClient reads and writes (kinds.ts), so
 * that the role and the client cannot drift apart. The same manifests serve
 * a platform engineer (`yarn workspace @runway-portal/plugin-runway-node
 * rbac | kubectl apply -f -`), the local system and the integration tests.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  bundledExpectations,
  doctorReadTargets,
} from '@runway-portal/cli/doctor';
import {
  EVENTS,
  KIND_INFO,
  NODES,
  PODS,
  PROVIDER_CONFIGS,
  RUNWAY_KINDS,
  UPSTREAM_KINDS,
} from './kinds';

/** Default names of the portal's identity in a cluster. @public */
export const PORTAL_SERVICE_ACCOUNT = 'runway-portal';
/** @public */
export const PORTAL_NAMESPACE = 'runway-system';

const READ = ['get', 'list', 'watch'];
const WRITE = [...READ, 'create', 'update', 'patch', 'delete'];

interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** One rule per API group, resources sorted: a stable, readable role. */
function rulesFor(
  resources: Array<{ group: string; plural: string }>,
  verbs: string[],
): PolicyRule[] {
  const byGroup = new Map<string, Set<string>>();
  for (const r of resources) {
    const set = byGroup.get(r.group) ?? new Set<string>();
    set.add(r.plural);
    byGroup.set(r.group, set);
  }
  return [...byGroup.entries()].map(([group, plurals]) => ({
    apiGroups: [group],
    resources: [...plurals].sort(),
    verbs,
  }));
}

/**
 * What the doctor's checks (`runway doctor`, run by the backend per cluster)
 * read beyond the rules above (which already cover Deployments and
 * provider registrations): `get` on Runway's CRDs, the providers' upstream
 * CRDs and the Gateway CRD, on Runway's webhook configurations and on the
 * controllers' leader Leases (a controller running outside the cluster has
 * no Deployment but renews its Lease), each by name; `list` on Gateways. Read-only; the webhook probe (`create` on
 * `services/proxy`) is not granted, so that check says "not checked".
 *
 * @public
 */
export function doctorRules(): PolicyRule[] {
  const targets = doctorReadTargets(bundledExpectations());
  const byName = (group: string, resource: string, names: string[]) => ({
    apiGroups: [group],
    resources: [resource],
    verbs: ['get'],
    resourceNames: [...names].sort(),
  });
  return [
    byName('apiextensions.k8s.io', 'customresourcedefinitions', targets.crds),
    byName(
      'admissionregistration.k8s.io',
      'validatingwebhookconfigurations',
      targets.validatingWebhookConfigurations,
    ),
    byName(
      'admissionregistration.k8s.io',
      'mutatingwebhookconfigurations',
      targets.mutatingWebhookConfigurations,
    ),
    byName('coordination.k8s.io', 'leases', targets.leases),
    {
      apiGroups: ['gateway.networking.k8s.io'],
      resources: ['gateways'],
      verbs: ['list'],
    },
  ];
}

/** What the forms' storage class picker lists. */
const PICKER_READS = [{ group: 'storage.k8s.io', plural: 'storageclasses' }];

/** @public */
export interface PortalRuleOptions {
  /**
   * Adds `list` on Secrets, for the forms' credentials picker (names only:
   * read as metadata). Off by default: RBAC cannot say "names only", so
   * `list` would also let the portal's token read every Secret's value. Off,
   * the picker says it cannot list the names and takes a typed one.
   */
  listSecretNames?: boolean;
}

/**
 * The rules: every verb on Runway's own kinds (the portal creates, updates
 * and deletes them); read on provider registrations, events, nodes and pods
 * (GPU capacity) and on every upstream kind the detail view shows; `get`
 * on `pods/log`; `create` and `get` on `services/proxy` (Try it).
 *
 * @public
 */
export function portalRules(options: PortalRuleOptions = {}): PolicyRule[] {
  const upstream = RUNWAY_KINDS.flatMap(kind => UPSTREAM_KINDS[kind]);
  const read = [PROVIDER_CONFIGS, EVENTS, NODES, PODS, ...upstream];
  return [
    ...rulesFor(
      RUNWAY_KINDS.map(kind => KIND_INFO[kind]),
      WRITE,
    ),
    ...rulesFor(read, READ),
    // The forms' pickers: storage classes, and, when chosen, Secret names (listed as metadata only; no get, no watch).
    ...rulesFor(PICKER_READS, ['list']),
    ...(options.listSecretNames
      ? [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]
      : []),
    // Pod logs (the detail view's Logs tab), read only after the user's runway.logs.read is checked.
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    // The doctor's checks, each object by name.
    ...doctorRules(),
    // "Try it" (a chat request to a Running deployment's Service through the API server), sent only after the user's runway.chat.send is checked.
    {
      apiGroups: [''],
      resources: ['services/proxy'],
      verbs: ['create', 'get'],
    },
  ];
}

/** @public */
export interface PortalAccessOptions extends PortalRuleOptions {
  /** Name of the ServiceAccount, ClusterRole and ClusterRoleBinding; default `runway-portal`. */
  name?: string;
  /** Namespace of the ServiceAccount; default `runway-system`. */
  namespace?: string;
}

/** The ClusterRole the portal's ServiceAccount is bound to. @public */
export function portalClusterRole(
  name = PORTAL_SERVICE_ACCOUNT,
  options: PortalRuleOptions = {},
): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules: portalRules(options),
  } as KubeObject;
}

/**
 * Everything to apply in a cluster for the portal, in order: its
 * Namespace, ServiceAccount, ClusterRole and ClusterRoleBinding. The token
 * for `serviceAccountToken` is then issued for the ServiceAccount
 * (`kubectl create token`).
 *
 * @public
 */
export function portalAccessManifests(
  options: PortalAccessOptions = {},
): KubeObject[] {
  const name = options.name ?? PORTAL_SERVICE_ACCOUNT;
  const namespace = options.namespace ?? PORTAL_NAMESPACE;
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
    portalClusterRole(name, options),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name,
      },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    } as KubeObject,
  ];
}

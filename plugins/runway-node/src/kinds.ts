/**
 * The three kinds the portal serves — deployments, models and stacks — and
 * the kinds around them: provider registrations, and the upstream objects
 * Runway's controllers create for them (looked up by owner reference).
 */
import type { ResourceType } from '@runway-portal/controller-runtime';
import {
  type CrdDefinition,
  GATEWAY_MANAGED_BY,
  inferenceProviderConfigCrd,
  MANAGED_BY_LABEL,
  modelCrd,
  modelDeploymentCrd,
  type RunwayKind,
  stackCrd,
} from '@runway-portal/plugin-runway-common';

// The kinds themselves are runway-common's (the frontend and the permissions need them); this package's files use them from here.
export {
  RUNWAY_KINDS,
  isRunwayKind,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';

/** @public */
export interface KindInfo {
  name: RunwayKind;
  group: string;
  kind: string;
  plural: string;
  /** API versions accepted in request bodies (the served ones, newest first). */
  versions: readonly string[];
  /** The version the cache lists and watches: the CRD's storage version, readable without conversion. */
  cacheVersion: string;
}

/** Group, names and versions come from runway-common's CRD definitions: one source of truth. */
function kindInfo(name: RunwayKind, crd: CrdDefinition): KindInfo {
  const served = crd.versions.filter(v => v.served).map(v => v.name);
  const storage = crd.versions.find(v => v.storage)?.name ?? served[0];
  return {
    name,
    group: crd.group,
    kind: crd.names.kind,
    plural: crd.names.plural,
    versions: [...served].reverse(),
    cacheVersion: storage,
  };
}

/** @public */
export const KIND_INFO: Record<RunwayKind, KindInfo> = {
  deployments: kindInfo('deployments', modelDeploymentCrd),
  models: kindInfo('models', modelCrd),
  stacks: kindInfo('stacks', stackCrd),
};

/** @public */
export function resourceTypeOf(
  info: KindInfo,
  version = info.cacheVersion,
): ResourceType {
  return {
    group: info.group,
    version,
    plural: info.plural,
    kind: info.kind,
    namespaced: true,
  };
}

/** `airunway.ai/v1alpha1` for the cached version. @public */
export function apiVersionOfKind(
  info: KindInfo,
  version = info.cacheVersion,
): string {
  return `${info.group}/${version}`;
}

/** Provider registrations (cluster-scoped). @public */
export const PROVIDER_CONFIGS: ResourceType = {
  group: inferenceProviderConfigCrd.group,
  version: kindInfo('deployments', inferenceProviderConfigCrd).cacheVersion,
  plural: inferenceProviderConfigCrd.names.plural,
  kind: inferenceProviderConfigCrd.names.kind,
  namespaced: false,
};

/** @public */
export const NODES: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
};
/** @public */
export const PODS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
};
/** @public */
export const EVENTS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
};

/**
 * A kind whose objects Runway's controllers may create for a resource. Core
 * kinds carry their version; for custom kinds the served version is
 * discovered, and a cluster without the CRD simply has none of them.
 *
 * @public
 */
export interface UpstreamKind {
  group: string;
  kind: string;
  /** Set for core kinds only: custom kinds are resolved through discovery. */
  version?: string;
  /** The resource name, as RBAC rules name it. */
  plural: string;
  /**
   * For kinds every namespace has many of (ConfigMaps, ServiceAccounts,
   * RBAC): only objects matching one of these selectors are listed and
   * watched (one watch per selector), so the cache never holds every
   * ConfigMap of a big cluster. Unset: every object of the kind is watched,
   * and kept only when a Runway kind owns it.
   */
  labelSelectors?: readonly string[];
}

const core = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  labelSelectors?: readonly string[],
): UpstreamKind => ({
  group,
  version,
  kind,
  plural,
  ...(labelSelectors ? { labelSelectors } : {}),
});

/**
 * The labels of what Runway's controllers create: every provider object
 * carries `airunway.ai/managed-by` (llm-d's endpoint picker too); the core's
 * gateway objects carry `app.kubernetes.io/managed-by: airunway-core` only.
 * The second selector excludes the first's objects so no object is listed twice.
 *
 * @public
 */
export const RUNWAY_CREATED_SELECTORS: readonly string[] = [
  MANAGED_BY_LABEL,
  `app.kubernetes.io/managed-by=${GATEWAY_MANAGED_BY},!${MANAGED_BY_LABEL}`,
];

/**
 * The stack operator's generated config ConfigMaps (controller-stacks'
 * `CONFIG_MAP_LABEL`; its objects carry `app.kubernetes.io/managed-by: runway-stacks`).
 *
 * @public
 */
export const STACK_CONFIG_SELECTOR = 'llamastack.io/generated-config=true';

/** @public */
export const UPSTREAM_KINDS: Record<RunwayKind, readonly UpstreamKind[]> = {
  // The provider's resource, the storage PVCs of every provider, KAITO's inference ConfigMap, and
  // what llm-d and the core's gateway create directly (pool, route, and the endpoint picker's
  // ServiceAccount, Role, RoleBinding, ConfigMap, Deployment and Service).
  deployments: [
    { group: 'kaito.sh', kind: 'Workspace', plural: 'workspaces' },
    {
      group: 'nvidia.com',
      kind: 'DynamoGraphDeployment',
      plural: 'dynamographdeployments',
    },
    { group: 'ray.io', kind: 'RayService', plural: 'rayservices' },
    {
      group: 'inference.networking.k8s.io',
      kind: 'InferencePool',
      plural: 'inferencepools',
    },
    {
      group: 'gateway.networking.k8s.io',
      kind: 'HTTPRoute',
      plural: 'httproutes',
    },
    core('apps', 'v1', 'Deployment', 'deployments'),
    core('', 'v1', 'Service', 'services'),
    core('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'),
    core('', 'v1', 'ConfigMap', 'configmaps', RUNWAY_CREATED_SELECTORS),
    core(
      '',
      'v1',
      'ServiceAccount',
      'serviceaccounts',
      RUNWAY_CREATED_SELECTORS,
    ),
    core(
      'rbac.authorization.k8s.io',
      'v1',
      'Role',
      'roles',
      RUNWAY_CREATED_SELECTORS,
    ),
    core(
      'rbac.authorization.k8s.io',
      'v1',
      'RoleBinding',
      'rolebindings',
      RUNWAY_CREATED_SELECTORS,
    ),
  ],
  // The model operator's PVC and download Job.
  models: [
    core('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'),
    core('batch', 'v1', 'Job', 'jobs'),
  ],
  // The stack operator's server Deployment, Service and storage, and its generated config.yaml
  // ConfigMaps (only those it labels: the detail view shows the config the server runs).
  stacks: [
    core('apps', 'v1', 'Deployment', 'deployments'),
    core('', 'v1', 'Service', 'services'),
    core('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'),
    core('', 'v1', 'ConfigMap', 'configmaps', [STACK_CONFIG_SELECTOR]),
  ],
};

/** The API groups of Runway's own kinds: an upstream object matters when one of them owns it. @public */
export const RUNWAY_GROUPS: ReadonlySet<string> = new Set(
  Object.values(KIND_INFO).map(k => k.group),
);

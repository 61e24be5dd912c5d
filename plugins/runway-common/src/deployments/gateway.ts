/**
 * Gateway API integration of a ModelDeployment (seed 002: `status.gateway.*`
 * and `GatewayReady` belong to the core controller), as pure builders and one
 * pure decision. The core controller looks up the facts (CRDs, Gateways, the
 * model's Service, a provider's InferencePool), calls `planGateway`, and
 * applies or deletes what it returns; provider controllers that run their own
 * InferencePool (llm-d) reuse the endpoint picker builder.
 *
 * Objects, all in the deployment's namespace and named from its name
 * (`gatewayObjectNames`, each at most 63 characters):
 * - InferencePool `<name>` (`inference.networking.k8s.io/v1`) selecting the
 *   model's pods with the selector of the Service the provider reports in
 *   `status.endpoint.service` (the same pods upstream labels one by one), on
 *   that Service's target port, with `endpointPickerRef` to `<name>-epp`;
 * - the endpoint picker (EPP) `<name>-epp`: ServiceAccount, Role and
 *   RoleBinding (read pods, inferencepools, inferenceobjectives and
 *   inferencemodelrewrites in the namespace), ConfigMap with the
 *   EndpointPickerConfig `default-plugins.yaml`, Deployment and Service
 *   (gRPC ext-proc 9002, health 9003, metrics 9090);
 * - HTTPRoute `<name>`: parent the Gateway, match the
 *   `X-Gateway-Model-Name` header (set by body-based routing from the
 *   request's `model` field), backend the InferencePool.
 */
import type { Condition } from '../generated';
import {
  API_FORMATS,
  type ApiFormat,
  CONDITION_TYPES,
  DEPLOYMENTS_API_VERSION,
  type GatewayReadyReason,
} from './constants';
import { resolveServedName } from './defaults';
import { defaultImage } from './images';
import { engineCapabilities } from './normalise';
import type {
  EngineCapability,
  InferenceProviderConfig,
  ModelDeployment,
  ModelDeploymentSpec,
} from './types';

/** @public */
export const INFERENCE_POOL_GROUP = 'inference.networking.k8s.io';
/** @public */
export const INFERENCE_POOL_API_VERSION = `${INFERENCE_POOL_GROUP}/v1`;
/** @public */
export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
/** @public */
export const GATEWAY_API_VERSION = `${GATEWAY_API_GROUP}/v1`;

/** The CRDs the gateway integration needs. @public */
export const GATEWAY_CRDS = [
  `inferencepools.${INFERENCE_POOL_GROUP}`,
  `gateways.${GATEWAY_API_GROUP}`,
  `httproutes.${GATEWAY_API_GROUP}`,
] as const;

/** Marks the Gateway to route through when a cluster has several. @public */
export const INFERENCE_GATEWAY_LABEL = 'airunway.ai/inference-gateway';
/** Who created the gateway objects (the EPP pods carry it too). @public */
export const GATEWAY_MANAGED_BY = 'airunway-core';

/** The core's default endpoint picker: GAIE's EPP, from the one image table (images.ts). @public */
export const DEFAULT_EPP_IMAGE = defaultImage('core', 'epp');
/** @public */
export const EPP_PORTS = { grpc: 9002, health: 9003, metrics: 9090 } as const;
/** EndpointPickerConfig with no plugins listed: the EPP then runs its default scheduling plugins. @public */
export const DEFAULT_EPP_CONFIG =
  'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
/** @public */
export const EPP_CONFIG_FILE = 'default-plugins.yaml';
/** Header body-based routing sets from the request's `model` field; the HTTPRoute matches on it. @public */
export const MODEL_NAME_HEADER = 'X-Gateway-Model-Name';
/** Long generations: the route's request timeout. @public */
export const ROUTE_REQUEST_TIMEOUT = '300s';
/** Used when a Service port does not say (upstream's default serving port). @public */
export const DEFAULT_TARGET_PORT = 8000;

/** A Kubernetes object as the builders return it (structurally a controller-runtime KubeObject). @public */
export interface GatewayK8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
  };
  [field: string]: unknown;
}

// ---- names ----

const MAX_NAME = 63;

/** FNV-1a (32 bit), hex: a short stable suffix without node:crypto (this package also runs in browsers). */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * `base + suffix` when it fits 63 characters (a Service name and a label
 * value must), otherwise base cut short plus a hash of the full name, so two
 * long names never collide.
 *
 * @public
 */
export function boundedName(base: string, suffix = ''): string {
  const full = `${base}${suffix}`;
  if (full.length <= MAX_NAME) return full;
  const keep = MAX_NAME - suffix.length - 9;
  return `${base.slice(0, keep).replace(/-+$/, '')}-${shortHash(
    full,
  )}${suffix}`;
}

/** @public */
export interface GatewayObjectNames {
  inferencePool: string;
  endpointPicker: string;
  httpRoute: string;
}

/** @public */
export function gatewayObjectNames(deploymentName: string): GatewayObjectNames {
  return {
    inferencePool: boundedName(deploymentName),
    endpointPicker: boundedName(deploymentName, '-epp'),
    httpRoute: boundedName(deploymentName),
  };
}

/** Which object of a kind and name (what the core deletes when it no longer wants it). @public */
export interface GatewayObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
}

/** Every object the core may create for a deployment, by group. @public */
export function gatewayObjectRefs(
  names: GatewayObjectNames,
): Record<
  'inferencePool' | 'endpointPicker' | 'httpRoute',
  GatewayObjectRef[]
> {
  const picker = (apiVersion: string, kind: string) => ({
    apiVersion,
    kind,
    name: names.endpointPicker,
  });
  return {
    inferencePool: [
      {
        apiVersion: INFERENCE_POOL_API_VERSION,
        kind: 'InferencePool',
        name: names.inferencePool,
      },
    ],
    endpointPicker: [
      picker('apps/v1', 'Deployment'),
      picker('v1', 'Service'),
      picker('v1', 'ConfigMap'),
      picker('rbac.authorization.k8s.io/v1', 'RoleBinding'),
      picker('rbac.authorization.k8s.io/v1', 'Role'),
      picker('v1', 'ServiceAccount'),
    ],
    httpRoute: [
      {
        apiVersion: GATEWAY_API_VERSION,
        kind: 'HTTPRoute',
        name: names.httpRoute,
      },
    ],
  };
}

// ---- provider capabilities and model name ----

/** @public */
export type GatewayCapabilities = NonNullable<EngineCapability['gateway']>;

/** The gateway capabilities the provider declares for the engine (undefined: none, the core runs pool and EPP). @public */
export function gatewayCapabilities(
  provider: InferenceProviderConfig | undefined,
  engine: string | undefined,
): GatewayCapabilities | undefined {
  return provider
    ? engineCapabilities(provider).find(e => e.name === engine)?.gateway
    : undefined;
}

/** API formats the provider's engine serves (empty in the registration means openai-chat). @public */
export function engineApiFormats(
  provider: InferenceProviderConfig | undefined,
  engine: string | undefined,
): ApiFormat[] {
  const formats =
    (provider &&
      engineCapabilities(provider).find(e => e.name === engine)?.apiFormats) ??
    [];
  const known = formats.filter((f): f is ApiFormat =>
    (API_FORMATS as readonly string[]).includes(f),
  );
  return known.length > 0 ? known : ['openai-chat'];
}

/**
 * The model name clients send (and the route matches): spec.gateway.modelName,
 * else the name the engine serves, unless the provider says its engine
 * ignores served names, else the model id.
 *
 * @public
 */
export function gatewayModelName(
  spec: ModelDeploymentSpec,
  capabilities?: GatewayCapabilities,
): string {
  if (spec.gateway?.modelName) return spec.gateway.modelName;
  const served = capabilities?.ignoresServedName
    ? undefined
    : resolveServedName(spec);
  return served || spec.model?.id || '';
}

/** A provider pool name/namespace pattern with `{name}` and `{namespace}` filled in (empty: the fallback). @public */
export function resolvePoolPattern(
  pattern: string | undefined,
  name: string,
  namespace: string,
  fallback: string,
): string {
  if (!pattern) return fallback;
  return pattern
    .split('{name}')
    .join(name)
    .split('{namespace}')
    .join(namespace);
}

// ---- builders ----

/** @public */
export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** The ModelDeployment as controlling owner (garbage collection deletes the objects with it). @public */
export function deploymentOwner(md: ModelDeployment): OwnerRef {
  return {
    apiVersion: md.apiVersion ?? DEPLOYMENTS_API_VERSION,
    kind: md.kind ?? 'ModelDeployment',
    name: md.metadata?.name ?? '',
    uid: md.metadata?.uid ?? '',
  };
}

function meta(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  owner?: OwnerRef,
): GatewayK8sObject['metadata'] {
  return {
    name,
    namespace,
    labels,
    ...(owner
      ? {
          ownerReferences: [
            { ...owner, controller: true, blockOwnerDeletion: true },
          ],
        }
      : {}),
  };
}

function commonLabels(
  instance: string,
  managedBy: string = GATEWAY_MANAGED_BY,
): Record<string, string> {
  return {
    'app.kubernetes.io/instance': boundedName(instance),
    'app.kubernetes.io/managed-by': managedBy,
  };
}

/** @public */
export interface InferencePoolInput {
  name: string;
  namespace: string;
  /** Labels of the model's pods (the Service's selector). */
  selector: Record<string, string>;
  targetPort: number;
  endpointPickerName: string;
  owner?: OwnerRef;
}

/** @public */
export function buildInferencePool(
  input: InferencePoolInput,
): GatewayK8sObject {
  return {
    apiVersion: INFERENCE_POOL_API_VERSION,
    kind: 'InferencePool',
    metadata: meta(
      input.name,
      input.namespace,
      commonLabels(input.name),
      input.owner,
    ),
    spec: {
      selector: { matchLabels: { ...input.selector } },
      targetPorts: [{ number: input.targetPort }],
      endpointPickerRef: {
        name: input.endpointPickerName,
        port: { number: EPP_PORTS.grpc },
      },
    },
  };
}

/** @public */
export interface EndpointPickerInput {
  /** Name of every EPP object (ServiceAccount, Role, RoleBinding, ConfigMap, Deployment, Service). */
  name: string;
  namespace: string;
  poolName: string;
  /** `capabilities…gateway.endpointPicker`: image and EndpointPickerConfig YAML; empty uses the defaults. */
  endpointPicker?: { image?: string; configData?: string };
  owner?: OwnerRef;
  /**
   * `app.kubernetes.io/managed-by` of the objects and the picker's pods: who
   * runs the picker (the core's gateway cleanup removes only its own). The
   * core's value when unset.
   */
  managedBy?: string;
}

/** The EPP's namespace-scoped permissions (what it watches to pick endpoints). @public */
export const EPP_ROLE_RULES = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
  {
    apiGroups: [INFERENCE_POOL_GROUP],
    resources: ['inferencepools'],
    verbs: ['get', 'list', 'watch'],
  },
  {
    apiGroups: ['inference.networking.x-k8s.io'],
    resources: ['inferenceobjectives', 'inferencemodelrewrites'],
    verbs: ['get', 'list', 'watch'],
  },
];

/** ServiceAccount, Role, RoleBinding, ConfigMap, Deployment and Service of one endpoint picker, in that order. @public */
export function buildEndpointPicker(
  input: EndpointPickerInput,
): GatewayK8sObject[] {
  const { name, namespace, owner } = input;
  const labels = commonLabels(input.poolName, input.managedBy);
  const podLabels = { 'app.kubernetes.io/name': name, ...labels };
  const image = input.endpointPicker?.image || DEFAULT_EPP_IMAGE;
  const config = input.endpointPicker?.configData || DEFAULT_EPP_CONFIG;
  const healthProbe = {
    grpc: { port: EPP_PORTS.health, service: 'inference-extension' },
  };
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta(name, namespace, labels, owner),
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(name, namespace, labels, owner),
      rules: EPP_ROLE_RULES,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(name, namespace, labels, owner),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(name, namespace, labels, owner),
      data: { [EPP_CONFIG_FILE]: config },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(name, namespace, labels, owner),
      spec: {
        replicas: 1,
        // One picker at a time: two would each hold their own view of the pool.
        strategy: { type: 'Recreate' },
        selector: {
          matchLabels: {
            'app.kubernetes.io/name': name,
            'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'],
          },
        },
        template: {
          metadata: { labels: podLabels },
          spec: {
            serviceAccountName: name,
            // As long as the longest request the pool's model servers finish on shutdown.
            terminationGracePeriodSeconds: 130,
            containers: [
              {
                name: 'epp',
                image,
                imagePullPolicy: 'IfNotPresent',
                args: [
                  '--pool-name',
                  input.poolName,
                  '--pool-namespace',
                  namespace,
                  '--zap-encoder',
                  'json',
                  '--grpc-port',
                  String(EPP_PORTS.grpc),
                  '--grpc-health-port',
                  String(EPP_PORTS.health),
                  '--config-file',
                  `/config/${EPP_CONFIG_FILE}`,
                ],
                ports: [
                  { name: 'grpc', containerPort: EPP_PORTS.grpc },
                  { name: 'grpc-health', containerPort: EPP_PORTS.health },
                  { name: 'metrics', containerPort: EPP_PORTS.metrics },
                ],
                env: [
                  {
                    name: 'NAMESPACE',
                    valueFrom: {
                      fieldRef: { fieldPath: 'metadata.namespace' },
                    },
                  },
                  {
                    name: 'POD_NAME',
                    valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
                  },
                ],
                livenessProbe: {
                  ...healthProbe,
                  initialDelaySeconds: 5,
                  periodSeconds: 10,
                },
                readinessProbe: {
                  ...healthProbe,
                  initialDelaySeconds: 5,
                  periodSeconds: 10,
                },
                volumeMounts: [
                  { name: 'plugins-config', mountPath: '/config' },
                ],
              },
            ],
            volumes: [{ name: 'plugins-config', configMap: { name } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(name, namespace, labels, owner),
      spec: {
        type: 'ClusterIP',
        selector: {
          'app.kubernetes.io/name': name,
          'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'],
        },
        ports: [
          {
            name: 'grpc-ext-proc',
            protocol: 'TCP',
            port: EPP_PORTS.grpc,
            targetPort: EPP_PORTS.grpc,
            appProtocol: 'kubernetes.io/h2c',
          },
          {
            name: 'grpc-health',
            protocol: 'TCP',
            port: EPP_PORTS.health,
            targetPort: EPP_PORTS.health,
          },
          {
            name: 'metrics',
            protocol: 'TCP',
            port: EPP_PORTS.metrics,
            targetPort: EPP_PORTS.metrics,
          },
        ],
      },
    },
  ];
}

/** @public */
export interface HTTPRouteInput {
  name: string;
  namespace: string;
  gateway: { name: string; namespace: string };
  modelName: string;
  pool: { name: string; namespace: string };
  owner?: OwnerRef;
}

/** @public */
export function buildHTTPRoute(input: HTTPRouteInput): GatewayK8sObject {
  return {
    apiVersion: GATEWAY_API_VERSION,
    kind: 'HTTPRoute',
    metadata: meta(
      input.name,
      input.namespace,
      commonLabels(input.pool.name),
      input.owner,
    ),
    spec: {
      parentRefs: [
        {
          group: GATEWAY_API_GROUP,
          kind: 'Gateway',
          name: input.gateway.name,
          namespace: input.gateway.namespace,
        },
      ],
      rules: [
        {
          matches: [
            {
              path: { type: 'PathPrefix', value: '/' },
              headers: [
                {
                  type: 'Exact',
                  name: MODEL_NAME_HEADER,
                  value: input.modelName,
                },
              ],
            },
          ],
          backendRefs: [
            {
              group: INFERENCE_POOL_GROUP,
              kind: 'InferencePool',
              name: input.pool.name,
              namespace: input.pool.namespace,
            },
          ],
          timeouts: { request: ROUTE_REQUEST_TIMEOUT },
        },
      ],
    },
  };
}

// ---- Gateways ----

/** What the core reads of a Gateway (gateway.networking.k8s.io/v1). @public */
export interface GatewayInfo {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
  };
  spec?: {
    listeners?: Array<{
      name?: string;
      port?: number;
      protocol?: string;
      hostname?: string;
      allowedRoutes?: { namespaces?: { from?: string } };
    }>;
  };
  status?: { addresses?: Array<{ type?: string; value?: string }> };
}

const ref = (gw: GatewayInfo) =>
  `${gw.metadata?.namespace ?? ''}/${gw.metadata?.name ?? ''}`;

/** @public */
export type GatewayChoice =
  | { ok: true; gateway: GatewayInfo }
  | { ok: false; message: string };

/**
 * The Gateway to route through: the one named by the core's flags, else one
 * labelled `airunway.ai/inference-gateway=true` (first by namespace/name when
 * several are), else the only Gateway in the cluster.
 *
 * @public
 */
export function chooseGateway(
  gateways: GatewayInfo[],
  explicit?: { name: string; namespace: string },
): GatewayChoice {
  if (explicit) {
    const found = gateways.find(
      g =>
        g.metadata?.name === explicit.name &&
        g.metadata?.namespace === explicit.namespace,
    );
    return found
      ? { ok: true, gateway: found }
      : {
          ok: false,
          message: `Gateway ${explicit.namespace}/${explicit.name} (the core's --gateway-namespace/--gateway-name) not found: create it or correct the flags`,
        };
  }
  const sorted = [...gateways].sort((a, b) => ref(a).localeCompare(ref(b)));
  const labelled = sorted.filter(
    g => g.metadata?.labels?.[INFERENCE_GATEWAY_LABEL] === 'true',
  );
  if (labelled.length > 0) return { ok: true, gateway: labelled[0] };
  if (sorted.length === 1) return { ok: true, gateway: sorted[0] };
  if (sorted.length === 0) {
    return {
      ok: false,
      message: `No Gateway (${GATEWAY_API_VERSION}) in the cluster: create one with an implementation that supports the Inference Extension, or set spec.gateway.enabled=false`,
    };
  }
  return {
    ok: false,
    message: `${sorted.length} Gateways found (${sorted
      .map(ref)
      .join(
        ', ',
      )}) but none labelled ${INFERENCE_GATEWAY_LABEL}=true: label the one to use, or start the core with --gateway-name and --gateway-namespace`,
  };
}

/** Whether the Gateway's listeners accept HTTPRoutes from `namespace` (unset `from` is Same, as in Gateway API). @public */
export function gatewayAcceptsNamespace(
  gateway: GatewayInfo,
  namespace: string,
): boolean {
  const listeners = gateway.spec?.listeners ?? [];
  if (listeners.length === 0) return true;
  return listeners.some(l => {
    const from = l.allowedRoutes?.namespaces?.from ?? 'Same';
    // A Selector depends on namespace labels the core does not read: the Gateway decides.
    return (
      from === 'All' ||
      from === 'Selector' ||
      (from === 'Same' && gateway.metadata?.namespace === namespace)
    );
  });
}

/** The listeners' `allowedRoutes.namespaces.from` values, for messages. */
function listenerFroms(gateway: GatewayInfo): string {
  const froms = (gateway.spec?.listeners ?? []).map(
    l => l.allowedRoutes?.namespaces?.from ?? 'Same',
  );
  return [...new Set(froms)].join(', ');
}

/**
 * The URL clients call: the Gateway's first status address, with the scheme
 * and port of its first HTTP(S) listener (port left out when it is the
 * scheme's default). Undefined until the implementation reports an address.
 *
 * @public
 */
export function gatewayEndpoint(gateway: GatewayInfo): string | undefined {
  const address = gateway.status?.addresses?.find(a => a.value)?.value;
  if (!address) return undefined;
  const listener = gateway.spec?.listeners?.find(
    l => l.protocol === 'HTTP' || l.protocol === 'HTTPS',
  );
  const scheme = listener?.protocol === 'HTTPS' ? 'https' : 'http';
  const host =
    address.includes(':') && !address.startsWith('[')
      ? `[${address}]`
      : address;
  const port = listener?.port;
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${host}${port && port !== defaultPort ? `:${port}` : ''}`;
}

// ---- the model's Service ----

/** What the core reads of the Service the provider reports in status.endpoint.service. @public */
export interface ModelServiceInfo {
  selector?: Record<string, string>;
  ports?: Array<{ name?: string; port?: number; targetPort?: number | string }>;
}

/** The pods' port behind the Service: the http port's numeric targetPort, else its port (upstream's rule). @public */
export function serviceTargetPort(
  service: ModelServiceInfo,
  fallback?: number,
): number {
  const ports = service.ports ?? [];
  const http =
    ports.find(p => p.name === 'http' || p.port === 80 || p.port === 8080) ??
    ports[0];
  if (!http) return fallback ?? DEFAULT_TARGET_PORT;
  if (typeof http.targetPort === 'number' && http.targetPort > 0)
    return http.targetPort;
  return http.port ?? fallback ?? DEFAULT_TARGET_PORT;
}

// ---- the decision ----

/** @public */
export interface GatewayInput {
  md: ModelDeployment;
  /** The provider in status.provider.name, when registered. */
  provider?: InferenceProviderConfig;
  /** Gateway CRDs the cluster lacks (empty: all there). */
  missingCrds: readonly string[];
  /** Gateways in the cluster (undefined: not looked up, i.e. the CRDs are missing). */
  gateways?: GatewayInfo[];
  explicitGateway?: { name: string; namespace: string };
  /** status.endpoint.service as read: undefined when not looked up, null when not found. */
  modelService?: ModelServiceInfo | null;
  /** Whether the provider's own InferencePool exists (providers with managesInferencePool). */
  providerPoolExists?: boolean;
}

/** @public */
export interface GatewayStatus {
  endpoint?: string;
  modelName?: string;
  gatewayNamespace?: string;
  apiFormats?: ApiFormat[];
}

/** @public */
export interface GatewayOutcome {
  status: 'True' | 'False';
  reason: GatewayReadyReason;
  message: string;
}

/**
 * What the core does about one deployment's gateway:
 * - `none`: nothing to say (gateway disabled on a cluster without the CRDs);
 * - `report`: write the condition only (missing CRDs, no Gateway, waiting);
 * - `cleanup`: delete the objects the core created (spec.gateway.enabled=false);
 * - `configure`: apply `objects` (pool and EPP group, route), delete the
 *   core's earlier HTTPRoute once spec.gateway.httpRouteRef is set
 *   (`remove`), then report `outcome` with `status`.
 * `remove` lists names only: the caller deletes an object only if it is one
 * the core created for this deployment (owner and managed-by label).
 *
 * @public
 */
export type GatewayPlan =
  | { action: 'none' }
  | { action: 'report'; outcome: GatewayOutcome; recheck: boolean }
  | { action: 'cleanup'; outcome: GatewayOutcome; remove: GatewayObjectRef[] }
  | {
      action: 'configure';
      outcome: GatewayOutcome;
      status: GatewayStatus;
      /** The three groups; a failure is reported with its group's reason (the first failing group in this order). */
      objects: {
        inferencePool: GatewayK8sObject[];
        endpointPicker: GatewayK8sObject[];
        httpRoute: GatewayK8sObject[];
      };
      remove: GatewayObjectRef[];
      /** The provider-managed pool the route points at, when the core has no pool of its own. */
      providerPool?: { name: string; namespace: string };
      /** The Gateway has no address yet: look again later. */
      recheck: boolean;
    };

/** The engine the provider runs: the core's resolved one, else the spec's (before the core first wrote status). */
const engineOf = (md: ModelDeployment) =>
  md.status?.engine?.type ?? md.spec?.engine?.type;

/** What a deployment needs looked up before `planGateway` can decide (the reconciler reads only these). @public */
export function gatewayLookups(
  md: ModelDeployment,
  provider: InferenceProviderConfig | undefined,
  missingCrds: readonly string[],
) {
  const active =
    md.spec?.gateway?.enabled !== false && missingCrds.length === 0;
  const name = md.metadata?.name ?? '';
  const namespace = md.metadata?.namespace ?? 'default';
  const capabilities = gatewayCapabilities(provider, engineOf(md));
  const manages = capabilities?.managesInferencePool === true;
  const service = md.status?.endpoint?.service;
  return {
    gateways: active,
    modelService:
      active && !manages && service ? { name: service, namespace } : undefined,
    providerPool:
      active && manages && md.status?.provider?.name
        ? {
            name: resolvePoolPattern(
              capabilities?.inferencePoolNamePattern,
              name,
              namespace,
              name,
            ),
            namespace: resolvePoolPattern(
              capabilities?.inferencePoolNamespace,
              name,
              namespace,
              namespace,
            ),
          }
        : undefined,
  };
}

const outcome = (
  status: 'True' | 'False',
  reason: GatewayReadyReason,
  message: string,
): GatewayOutcome => ({ status, reason, message });

/** @public */
export function planGateway(input: GatewayInput): GatewayPlan {
  const { md, provider } = input;
  const name = md.metadata?.name ?? '';
  const namespace = md.metadata?.namespace ?? 'default';
  const names = gatewayObjectNames(name);
  const capabilities = gatewayCapabilities(provider, engineOf(md));
  const manages = capabilities?.managesInferencePool === true;

  const refs = gatewayObjectRefs(names);
  if (md.spec?.gateway?.enabled === false) {
    if (input.missingCrds.length > 0) return { action: 'none' };
    return {
      action: 'cleanup',
      outcome: outcome(
        'False',
        'GatewayDisabled',
        'spec.gateway.enabled is false: the InferencePool, endpoint picker and HTTPRoute the core created are removed; set it to true (or remove it) to route through the Gateway again',
      ),
      remove: [
        ...refs.httpRoute,
        ...refs.inferencePool,
        ...refs.endpointPicker,
      ],
    };
  }
  if (input.missingCrds.length > 0) {
    return {
      action: 'report',
      outcome: outcome(
        'False',
        'CRDsNotAvailable',
        `Gateway API / Inference Extension CRDs not installed (${input.missingCrds.join(
          ', ',
        )}); the model is reachable through its Service only`,
      ),
      recheck: false,
    };
  }

  const choice = chooseGateway(input.gateways ?? [], input.explicitGateway);
  if (!choice.ok)
    return {
      action: 'report',
      outcome: outcome('False', 'NoGateway', choice.message),
      recheck: true,
    };
  const gateway = choice.gateway;
  const gatewayRef = {
    name: gateway.metadata?.name ?? '',
    namespace: gateway.metadata?.namespace ?? '',
  };
  if (!gatewayAcceptsNamespace(gateway, namespace)) {
    return {
      action: 'report',
      outcome: outcome(
        'False',
        'NoGateway',
        `Gateway ${gatewayRef.namespace}/${
          gatewayRef.name
        } does not accept HTTPRoutes from namespace '${namespace}' (listeners' allowedRoutes.namespaces.from: ${listenerFroms(
          gateway,
        )}): allow it on a listener (from: All, or a Selector matching it) or deploy in '${
          gatewayRef.namespace
        }'`,
      ),
      recheck: true,
    };
  }

  const providerName = md.status?.provider?.name;
  if (!providerName) {
    return {
      action: 'report',
      outcome: outcome(
        'False',
        'WaitingForProvider',
        'Waiting for a provider to be selected (see ProviderSelected)',
      ),
      recheck: false,
    };
  }
  const objects: {
    inferencePool: GatewayK8sObject[];
    endpointPicker: GatewayK8sObject[];
    httpRoute: GatewayK8sObject[];
  } = {
    inferencePool: [],
    endpointPicker: [],
    httpRoute: [],
  };
  const owner = deploymentOwner(md);
  let pool: { name: string; namespace: string };
  let providerPool: { name: string; namespace: string } | undefined;
  if (manages) {
    const lookups = gatewayLookups(md, provider, input.missingCrds);
    pool = lookups.providerPool!;
    if (pool.namespace !== namespace) {
      return {
        action: 'report',
        outcome: outcome(
          'False',
          'InferencePoolFailed',
          `Provider '${providerName}' runs its InferencePool in namespace '${pool.namespace}': routes across namespaces (ReferenceGrant) are not supported; the pool must be in '${namespace}'`,
        ),
        recheck: false,
      };
    }
    if (!input.providerPoolExists) {
      return {
        action: 'report',
        outcome: outcome(
          'False',
          'WaitingForProvider',
          `Waiting for provider '${providerName}' to create its InferencePool ${pool.namespace}/${pool.name}`,
        ),
        recheck: true,
      };
    }
    providerPool = pool;
  } else {
    const serviceName = md.status?.endpoint?.service;
    // One message for both waits (nothing reported yet; reported but not created yet): the
    // provider reporting the Service's name is no transition of GatewayReady, and a message
    // naming it would cost every deployment a status write on its way to ResourceCreated.
    // The name itself is in status.endpoint.service.
    if (!serviceName || !input.modelService) {
      return {
        action: 'report',
        outcome: outcome(
          'False',
          'WaitingForProvider',
          `Waiting for the model's Service from provider '${providerName}' (status.endpoint.service, in namespace '${namespace}'): the InferencePool selects the pods behind it`,
        ),
        // Reported but not there yet: look again (the provider's status may not change when it appears).
        recheck: Boolean(serviceName) && input.modelService === null,
      };
    }
    const selector = input.modelService.selector ?? {};
    if (Object.keys(selector).length === 0) {
      return {
        action: 'report',
        outcome: outcome(
          'False',
          'InferencePoolFailed',
          `Service '${serviceName}' has no selector: the InferencePool selects the model's pods with the Service's selector, so the provider's Service must select its pods`,
        ),
        recheck: false,
      };
    }
    pool = { name: names.inferencePool, namespace };
    objects.inferencePool.push(
      buildInferencePool({
        name: names.inferencePool,
        namespace,
        selector,
        targetPort: serviceTargetPort(
          input.modelService,
          md.status?.endpoint?.port,
        ),
        endpointPickerName: names.endpointPicker,
        owner,
      }),
    );
    objects.endpointPicker.push(
      ...buildEndpointPicker({
        name: names.endpointPicker,
        namespace,
        poolName: names.inferencePool,
        endpointPicker: capabilities?.endpointPicker,
        owner,
      }),
    );
  }

  const modelName = gatewayModelName(
    (md.spec ?? {}) as ModelDeploymentSpec,
    capabilities,
  );
  const userRoute = md.spec?.gateway?.httpRouteRef;
  if (!userRoute) {
    objects.httpRoute.push(
      buildHTTPRoute({
        name: names.httpRoute,
        namespace,
        gateway: gatewayRef,
        modelName,
        pool,
        owner,
      }),
    );
  }
  const endpoint = gatewayEndpoint(gateway);
  const via = userRoute
    ? `the HTTPRoute '${userRoute}' (spec.gateway.httpRouteRef)`
    : `HTTPRoute '${names.httpRoute}'`;
  const poolText = manages
    ? `provider '${providerName}''s InferencePool '${pool.name}'`
    : `InferencePool '${pool.name}'`;
  const addressText = endpoint
    ? `at ${endpoint}`
    : '(the Gateway reports no address yet)';
  return {
    action: 'configure',
    outcome: outcome(
      'True',
      'GatewayConfigured',
      `Model '${modelName}' is routed through Gateway ${gatewayRef.namespace}/${gatewayRef.name} ${addressText} by ${via} to ${poolText}`,
    ),
    status: {
      ...(endpoint ? { endpoint } : {}),
      modelName,
      gatewayNamespace: gatewayRef.namespace,
      apiFormats: engineApiFormats(provider, engineOf(md)),
    },
    objects,
    // A provider that manages its pool may use the same names (llm-d: <name>, <name>-epp): its objects are
    // never candidates, so a core pool left from before a provider switch goes with the deployment.
    remove: userRoute ? refs.httpRoute : [],
    providerPool,
    recheck: !endpoint,
  };
}

/** The condition for a failed apply of one group of objects (the API server's message says what). @public */
export function gatewayApplyFailure(
  group: 'inferencePool' | 'endpointPicker' | 'httpRoute',
  objectName: string,
  error: string,
): GatewayOutcome {
  const what = {
    inferencePool: ['InferencePoolFailed', 'InferencePool'],
    endpointPicker: ['EPPFailed', 'endpoint picker'],
    httpRoute: ['HTTPRouteFailed', 'HTTPRoute'],
  } as const;
  const [reason, label] = what[group];
  return outcome(
    'False',
    reason,
    `Could not apply the ${label} '${objectName}': ${error}`,
  );
}

/** GatewayReady as a condition. @public */
export function gatewayReadyCondition(
  result: GatewayOutcome,
  context: { observedGeneration?: number; lastTransitionTime: string },
): Condition {
  return {
    type: CONDITION_TYPES.GatewayReady,
    status: result.status,
    reason: result.reason,
    message: result.message,
    lastTransitionTime: context.lastTransitionTime,
    ...(context.observedGeneration === undefined
      ? {}
      : { observedGeneration: context.observedGeneration }),
  };
}

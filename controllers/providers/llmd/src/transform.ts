/**
 * ModelDeployment → what llm-d's current guides deploy (llm-d has no CRD of
 * its own any more; its ModelService CRD was deprecated in July 2025):
 *
 * - vLLM model-server Deployments, labelled as llm-d's modelservice chart
 *   labels them (`llm-d.ai/inference-serving`, `llm-d.ai/model`,
 *   `llm-d.ai/role`): `<name>-decode` always, `<name>-prefill` when
 *   disaggregated (then decode pods run llm-d's routing sidecar on the
 *   serving port and vLLM behind it, both sides with the NIXL connector);
 *   `spec.model.storage.volumes` are mounted on them (runway-common's
 *   storage translation), and the PVCs of volumes with a `size` created;
 * - a ClusterIP Service `<name>` on the decode pods (the plain endpoint);
 * - a Gateway API Inference Extension InferencePool `<name>`
 *   (`inference.networking.k8s.io/v1`) over all model-server pods, pointing
 *   at the endpoint picker (EPP) `<name>-epp`;
 * - that endpoint picker, as llm-d's guides run one per pool: ServiceAccount,
 *   Role and RoleBinding (read pods and pools), ConfigMap (plugins config),
 *   Deployment (llm-d's inference scheduler) and Service (gRPC 9002, health
 *   9003, metrics 9090), built by runway-common's `buildEndpointPicker`, the
 *   core's builder for other providers. With `endpointPicker.name` the user
 *   runs the picker and none is deployed.
 *
 * The InferencePool is the primary object (its CRD is what the provider
 * needs installed). Pure: the same input gives the same objects; the shared
 * loop adds namespace, owner reference and labels.
 */
import {
  ConfigMaps,
  Deployments,
  type KubeObject,
  PersistentVolumeClaims,
  type ResourceType,
  Services,
} from '@runway-portal/controller-runtime';
import {
  EPP_PORTS,
  INFERENCE_POOL_API_VERSION,
  buildEndpointPicker,
  defaultImage,
  gatewayObjectNames,
  gpuResourceName,
  managedClaims,
  resolveServedName,
  type ModelDeployment,
  type ModelDeploymentSpec,
  type PodStorage,
} from '@runway-portal/plugin-runway-common';
import {
  TransformError,
  modelContainerFields,
  modelServerEnv,
  podStorageOf,
  podVolumeFields,
} from '@runway-portal/provider-shared';
import {
  LLMD_EPP_CONFIG,
  LLMD_PD_EPP_CONFIG,
  type LlmdOverrides,
  readLlmdOverrides,
} from './overrides';

export type Json = Record<string, unknown>;

export { INFERENCE_POOL_GROUP } from '@runway-portal/plugin-runway-common';

/** llm-d's CUDA model-server image (the release of the modelservice chart's examples). */
export const DEFAULT_LLMD_IMAGE = defaultImage('llmd', 'vllm');
/** The serving port of every model-server pod (the sidecar's, on disaggregated decode pods). */
export const SERVING_PORT = 8000;
/** vLLM's port behind the routing sidecar on disaggregated decode pods. */
export const DECODE_VLLM_PORT = 8200;
const NIXL_PORT = 5600;
export const KV_TRANSFER_CONFIG =
  '{"kv_connector":"NixlConnector","kv_role":"kv_both"}';

export const MODEL_DEPLOYMENT_LABEL = 'airunway.ai/model-deployment';
export const ROLE_LABEL = 'llm-d.ai/role';

export type Role = 'prefill' | 'decode';
/** vLLM's cache root, pointed at a compilationCache volume (runway-common's name for it). */
export { COMPILATION_CACHE_ENV as VLLM_CACHE_ENV } from '@runway-portal/plugin-runway-common';

interface ModelServer {
  role: Role;
  name: string;
  replicas: number;
  gpus: number;
  memory?: string;
  cpu?: string;
}

export function decodeName(md: ModelDeployment): string {
  return `${md.metadata?.name}-decode`;
}

/** The Deployments a deployment needs: decode (all traffic when aggregated), plus prefill when disaggregated. */
export function modelServers(md: ModelDeployment): ModelServer[] {
  const spec = md.spec;
  const name = md.metadata?.name ?? '';
  const q = (v: string | number | undefined) =>
    v === undefined ? undefined : String(v);
  if (spec.serving?.mode === 'disaggregated') {
    const side = (role: Role): ModelServer => {
      const s = spec.scaling?.[role];
      return {
        role,
        name: `${name}-${role}`,
        replicas: s?.replicas ?? 1,
        gpus: s?.gpu?.count ?? 0,
        memory: q(s?.memory),
      };
    };
    return [side('decode'), side('prefill')];
  }
  return [
    {
      role: 'decode',
      name: `${name}-decode`,
      replicas: spec.scaling?.replicas ?? 1,
      gpus: spec.resources?.gpu?.count ?? 0,
      memory: q(spec.resources?.memory),
      cpu: q(spec.resources?.cpu),
    },
  ];
}

/** Labels every model-server pod of this deployment carries (the InferencePool selects on them). */
export function poolSelector(md: ModelDeployment): Record<string, string> {
  return {
    'llm-d.ai/inference-serving': 'true',
    [MODEL_DEPLOYMENT_LABEL]: md.metadata?.name ?? '',
  };
}

const ARG_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** `vllm serve` arguments (seed 000 section 15). */
export function vllmArgs(
  spec: ModelDeploymentSpec,
  port: number,
  gpus: number,
  disaggregated: boolean,
): string[] {
  const e = spec.engine ?? {};
  const args: string[] = [];
  if (spec.model?.id) args.push(spec.model.id);
  args.push('--port', String(port));
  const served = resolveServedName(spec);
  if (served) args.push('--served-model-name', served);
  if (e.contextLength !== undefined)
    args.push('--max-model-len', String(e.contextLength));
  if (e.trustRemoteCode) args.push('--trust-remote-code');
  if (e.enablePrefixCaching === false) args.push('--no-enable-prefix-caching');
  if (e.enforceEager) args.push('--enforce-eager');
  if (gpus > 1) args.push('--tensor-parallel-size', String(gpus));
  if (disaggregated) args.push('--kv-transfer-config', KV_TRANSFER_CONFIG);
  const userArgs = e.args ?? {};
  for (const key of Object.keys(userArgs).sort()) {
    if (!ARG_KEY.test(key)) {
      throw new TransformError(
        'spec.engine.args',
        `key ${JSON.stringify(
          key,
        )} is not a flag name: use letters, digits, '-', '_' or '.', without the leading '--'`,
      );
    }
    if (key === 'port') {
      throw new TransformError(
        'spec.engine.args.port',
        `cannot be set for llm-d: the Service, InferencePool and probes use port ${SERVING_PORT}`,
      );
    }
    args.push(`--${key}`);
    if (userArgs[key] !== '') args.push(userArgs[key]);
  }
  return [...args, ...(e.extraArgs ?? [])];
}

function resources(
  spec: ModelDeploymentSpec,
  server: ModelServer,
): Json | undefined {
  const limits: Record<string, string> = {};
  const requests: Record<string, string> = {};
  if (server.gpus > 0) {
    limits[gpuResourceName(spec)] = String(server.gpus);
    requests[gpuResourceName(spec)] = String(server.gpus);
  }
  if (server.memory) {
    limits.memory = server.memory;
    requests.memory = server.memory;
  }
  if (server.cpu) requests.cpu = server.cpu;
  if (Object.keys(requests).length === 0) return undefined;
  return Object.keys(limits).length > 0 ? { limits, requests } : { requests };
}

const httpProbe = (
  port: number,
  periodSeconds: number,
  failureThreshold: number,
) => ({
  httpGet: { path: '/health', port },
  periodSeconds,
  failureThreshold,
});

function modelServerDeployment(
  md: ModelDeployment,
  server: ModelServer,
  overrides: LlmdOverrides,
  storage: PodStorage,
): KubeObject {
  const spec = md.spec;
  const disaggregated = spec.serving?.mode === 'disaggregated';
  const behindSidecar = disaggregated && server.role === 'decode';
  const vllmPort = behindSidecar ? DECODE_VLLM_PORT : SERVING_PORT;
  const selector = {
    [MODEL_DEPLOYMENT_LABEL]: md.metadata?.name ?? '',
    [ROLE_LABEL]: server.role,
  };
  const podLabels = {
    ...(spec.podTemplate?.metadata?.labels ?? {}),
    ...poolSelector(md),
    'llm-d.ai/model': md.metadata?.name ?? '',
    ...selector,
  };
  // The NIXL side channel of prefill/decode disaggregation, after the user's and the storage's.
  const env = modelServerEnv(
    spec,
    storage,
    disaggregated
      ? [
          {
            name: 'VLLM_NIXL_SIDE_CHANNEL_HOST',
            valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
          },
          { name: 'VLLM_NIXL_SIDE_CHANNEL_PORT', value: String(NIXL_PORT) },
        ]
      : [],
  );
  const requirements = resources(spec, server);
  const ports = [{ name: 'http', containerPort: vllmPort, protocol: 'TCP' }];
  if (disaggregated)
    ports.push({ name: 'nixl', containerPort: NIXL_PORT, protocol: 'TCP' });
  const container: Json = {
    name: 'vllm',
    image: spec.engine?.image || spec.image || DEFAULT_LLMD_IMAGE,
    command: ['vllm', 'serve'],
    args: vllmArgs(spec, vllmPort, server.gpus, disaggregated),
    ports,
    ...modelContainerFields({ env, spec, resources: requirements, storage }),
    startupProbe: httpProbe(vllmPort, 10, 60),
    readinessProbe: httpProbe(vllmPort, 5, 3),
  };
  const podSpec: Json = {
    containers: [container],
    ...podVolumeFields(storage),
  };
  if (behindSidecar) {
    // llm-d's routing sidecar (a native sidecar: an init container that keeps running) takes the
    // serving port, runs the prefill step the endpoint picker chose, then forwards to vLLM.
    podSpec.initContainers = [
      {
        name: 'routing-proxy',
        image: overrides.routingSidecar.image,
        args: [
          `--port=${SERVING_PORT}`,
          `--vllm-port=${DECODE_VLLM_PORT}`,
          '--connector=nixlv2',
          '--secure-proxy=false',
        ],
        ports: [{ containerPort: SERVING_PORT, protocol: 'TCP' }],
        restartPolicy: 'Always',
      },
    ];
  }
  if (spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0)
    podSpec.nodeSelector = spec.nodeSelector;
  if (spec.tolerations && spec.tolerations.length > 0)
    podSpec.tolerations = spec.tolerations;
  const annotations = spec.podTemplate?.metadata?.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: server.name },
    spec: {
      replicas: server.replicas,
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: podLabels,
          ...(annotations && Object.keys(annotations).length > 0
            ? { annotations }
            : {}),
        },
        spec: podSpec,
      },
    },
  };
}

function service(md: ModelDeployment): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: md.metadata?.name },
    spec: {
      type: 'ClusterIP',
      selector: {
        [MODEL_DEPLOYMENT_LABEL]: md.metadata?.name ?? '',
        [ROLE_LABEL]: 'decode',
      },
      ports: [
        {
          name: 'http',
          port: SERVING_PORT,
          targetPort: SERVING_PORT,
          protocol: 'TCP',
        },
      ],
    },
  };
}

/** The endpoint picker the pool hands scheduling to: the provider's own `<name>-epp`, or the user's. */
function endpointPickerRef(
  md: ModelDeployment,
  overrides: LlmdOverrides,
): { name: string; port: number } {
  const epp = overrides.endpointPicker;
  if (epp.external) return { name: epp.name, port: epp.port };
  return {
    name: gatewayObjectNames(md.metadata?.name ?? '').endpointPicker,
    port: EPP_PORTS.grpc,
  };
}

function inferencePool(
  md: ModelDeployment,
  overrides: LlmdOverrides,
): KubeObject {
  const ref = endpointPickerRef(md, overrides);
  return {
    apiVersion: INFERENCE_POOL_API_VERSION,
    kind: 'InferencePool',
    metadata: { name: md.metadata?.name ?? '' },
    spec: {
      selector: { matchLabels: poolSelector(md) },
      targetPorts: [{ number: SERVING_PORT }],
      endpointPickerRef: { name: ref.name, port: { number: ref.port } },
    },
  };
}

const rbac = (plural: string, kind: string): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural,
  kind,
  namespaced: true,
});

/** Every kind `buildLlmdObjects` returns besides the InferencePool: the loop's extra kinds. */
export const LLMD_EXTRA_KINDS: ResourceType[] = [
  Deployments,
  Services,
  PersistentVolumeClaims,
  {
    group: '',
    version: 'v1',
    plural: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
  },
  rbac('roles', 'Role'),
  rbac('rolebindings', 'RoleBinding'),
  ConfigMaps,
];

/** Who runs the picker, as its objects' and pods' managed-by label: the core's gateway cleanup leaves objects it did not create alone. */
const PICKER_MANAGED_BY = 'airunway-provider-llmd';

/** ServiceAccount, Role, RoleBinding, ConfigMap, Deployment and Service of the pool's picker; none for a user's picker. */
function endpointPicker(
  md: ModelDeployment,
  overrides: LlmdOverrides,
): KubeObject[] {
  const epp = overrides.endpointPicker;
  if (epp.external) return [];
  const defaultConfig =
    md.spec.serving?.mode === 'disaggregated'
      ? LLMD_PD_EPP_CONFIG
      : LLMD_EPP_CONFIG;
  return buildEndpointPicker({
    name: endpointPickerRef(md, overrides).name,
    namespace: md.metadata?.namespace ?? 'default',
    poolName: md.metadata?.name ?? '',
    endpointPicker: {
      image: epp.image,
      configData: epp.config ?? defaultConfig,
    },
    managedBy: PICKER_MANAGED_BY,
  });
}

/**
 * The objects of a resolved ModelDeployment (defaults applied, engine filled
 * in), InferencePool first. Throws TransformError for input llm-d cannot run.
 */
export function buildLlmdObjects(md: ModelDeployment): KubeObject[] {
  const engine = md.spec?.engine?.type;
  if (engine !== 'vllm') {
    throw new TransformError(
      'spec.engine.type',
      `${JSON.stringify(
        engine ?? '',
      )} cannot run on llm-d: llm-d only supports vllm engine`,
    );
  }
  const overrides = readLlmdOverrides(md.spec.provider?.overrides);
  const storage = podStorageOf(md, { runsVllm: true });
  return [
    inferencePool(md, overrides),
    // PVCs of `size` volumes, before the pods that mount them.
    ...managedClaims(md),
    ...modelServers(md).map(server =>
      modelServerDeployment(md, server, overrides, storage),
    ),
    service(md),
    ...endpointPicker(md, overrides),
  ];
}

export function llmdEndpoint(md: ModelDeployment): {
  service: string;
  port: number;
} {
  return { service: md.metadata?.name ?? '', port: SERVING_PORT };
}

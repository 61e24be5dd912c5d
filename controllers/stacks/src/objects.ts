/**
 * The objects a stack runs as, as pure functions of the (defaulted,
 * wire-form v1alpha2) stack and the resolved image and config: the
 * immutable config ConfigMap named by its hash (FR-023 to FR-025, NFR-005),
 * the Deployment (image, config, env and hash annotation in one object, so
 * one apply changes them together, FR-100; the same config gives the same
 * pod template, so no restart, FR-096), Service, Ingress, NetworkPolicy,
 * PVC, PDB and HPA. v1alpha1 objects reach the operator converted to
 * v1alpha2 by the API server, so these also give v1alpha1 users the released
 * upstream operator's objects.
 */
import { splitPems, type KubeObject } from '@runway-portal/controller-runtime';
import {
  DEFAULT_CA_BUNDLE_KEYS,
  DEFAULT_CONTAINER_NAME,
  DEFAULT_SERVER_PORT,
  DEFAULT_STORAGE_MOUNT_PATH,
  DEFAULT_STORAGE_SIZE,
  STACK_KIND,
  STACK_V1ALPHA2,
  v1alpha1Field,
  type LlamaStackDistributionV1alpha2,
} from '@runway-portal/plugin-runway-common';
import { TLS_MOUNT_PATH, type SecretEnvVar } from './config/generate';

/** @public */
export type Stack = LlamaStackDistributionV1alpha2 & KubeObject;

/** @public */
export const CONFIG_HASH_ANNOTATION = 'llamastack.io/config-hash';
/** @public */
export const CONFIG_MAP_LABEL = 'llamastack.io/generated-config';
/** @public */
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
/** @public */
export const NAME_LABEL = 'app.kubernetes.io/name';
/** @public */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
/** @public */
export const MANAGED_BY = 'runway-stacks';
/** @public */
export const CONFIG_MOUNT_PATH = '/etc/llama-stack';
/** @public */
export const CA_BUNDLE_MOUNT_PATH = '/etc/ssl/certs/ca-bundle';
/** The one file of the managed CA bundle (upstream's name, key and path). @public */
export const CA_BUNDLE_KEY = 'ca-bundle.crt';
/** On the pod template: the managed CA bundle's content hash, so new certificates roll the pods. @public */
export const CA_BUNDLE_HASH_ANNOTATION = 'llamastack.io/ca-bundle-hash';
/** Marks the managed CA bundle among the stack's ConfigMaps (it is not a config: never garbage-collected as one). @public */
export const CA_BUNDLE_LABEL = 'llamastack.io/ca-bundle';
/** The server's health endpoint: the kubelet's probes and the operator's HealthCheck ask it. @public */
export const HEALTH_PATH = '/v1/health';
/**
 * The llama-stack distribution images' group, set as the pod's fsGroup (as
 * upstream's operator does), so a PVC at the storage mount path, owned by
 * root on most storage, is writable to the server.
 */
const SERVER_FS_GROUP = 1001;

/** The config the Deployment mounts: a generated one (ours, immutable) or the user's (overrideConfig). @public */
export interface MountedConfig {
  configMapName: string;
  /** The key holding the config (config.yaml, or run.yaml in an old override ConfigMap). */
  key: string;
  /** `sha256:…` of the config text: the pod template annotation that rolls pods when it changes (FR-026). */
  hash: string;
}

/** @public */
export interface DeploymentInput {
  image: string;
  config: MountedConfig;
  /** Secret env vars of the generated config (FR-022). */
  secretEnv: SecretEnvVar[];
  /** `sha256:…` of the managed CA bundle (`desiredCaBundle`), when the stack has one. */
  caBundleHash?: string;
}

/** @public */
export interface ObjectOptions {
  /** Domain for generated Ingress hostnames (`<name>-<namespace>.<domain>`); unset: an Ingress rule without host. */
  ingressDomain?: string;
  /** Ingress class for exposed stacks; unset: the cluster default. */
  ingressClassName?: string;
  /** The operator's namespace: its pods may reach the server through `allowedFrom`'s NetworkPolicy (the health probe). */
  operatorNamespace?: string;
}

/** The operator's pod label (controllers/deploy/stacks/deployment.yaml): what the NetworkPolicy admits for the probe. @public */
export const OPERATOR_POD_LABELS = {
  'app.kubernetes.io/name': 'airunway-stacks',
};

/** @public */
export function selectorLabels(stack: Stack): Record<string, string> {
  return {
    [NAME_LABEL]: 'llama-stack',
    [INSTANCE_LABEL]: stack.metadata!.name!,
  };
}

function labels(stack: Stack): Record<string, string> {
  return { ...selectorLabels(stack), [MANAGED_BY_LABEL]: MANAGED_BY };
}

function ownerReference(stack: Stack) {
  return {
    apiVersion: STACK_V1ALPHA2,
    kind: STACK_KIND,
    name: stack.metadata!.name!,
    uid: stack.metadata!.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Metadata of an object owned by the stack, in its namespace. */
function meta(
  stack: Stack,
  name: string,
  extraLabels: Record<string, string> = {},
) {
  return {
    name,
    namespace: stack.metadata!.namespace,
    labels: { ...labels(stack), ...extraLabels },
    ownerReferences: [ownerReference(stack)],
  };
}

/** Keeps a derived name within 63 characters (Service and label value limit), still unique by a hash. */
function bounded(base: string, suffix: string, max = 63): string {
  if (base.length + suffix.length <= max) return base + suffix;
  return base.slice(0, max - suffix.length).replace(/-+$/, '') + suffix;
}

/** FR-024, the contract: `{name}-config-{hash[:8]}`. @public */
export function configMapName(stackName: string, hash: string): string {
  const hex = hash.replace(/^sha256:/, '');
  return bounded(stackName, `-config-${hex.slice(0, 8)}`, 253);
}

/** @public */
export const serviceName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-service');
/** Upstream's `{name}-ca-bundle`: the CA certificates of the listed keys, concatenated. @public */
export const caBundleName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-ca-bundle', 253);
/** @public */
export const pvcName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-pvc', 253);
/** @public */
export const ingressName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-ingress', 253);
/** @public */
export const networkPolicyName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-network-policy', 253);
/** @public */
export const pdbName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-pdb', 253);
/** @public */
export const hpaName = (stack: Stack) =>
  bounded(stack.metadata!.name!, '-hpa', 253);

/**
 * The server container's name: `llama-stack`, or a v1alpha1 user's
 * `containerSpec.name`, which v1alpha2 cannot hold and conversion keeps in
 * the `llamastack.io/v1alpha1-fields` annotation (the released operator names the container so).
 *
 * @public
 */
export function containerName(stack: Stack): string {
  // A broken annotation reads as absent: it must not stop the stack.
  const name = v1alpha1Field(stack, 'spec.server.containerSpec.name');
  return typeof name === 'string' &&
    /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name)
    ? name
    : DEFAULT_CONTAINER_NAME;
}

/** @public */
export const portOf = (stack: Stack) =>
  stack.spec.networking?.port ?? DEFAULT_SERVER_PORT;

/** The generated config as an immutable ConfigMap owned by the stack (NFR-005, FR-025). @public */
export function desiredConfigMap(
  stack: Stack,
  configYaml: string,
  hash: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      ...meta(stack, configMapName(stack.metadata!.name!, hash), {
        [CONFIG_MAP_LABEL]: 'true',
      }),
      annotations: { [CONFIG_HASH_ANNOTATION]: hash },
    },
    immutable: true,
    data: { 'config.yaml': configYaml },
  };
}

/**
 * The CA bundle's one file: the certificates (PEM blocks) of each listed key
 * (default `ca-bundle.crt`), in the order listed, as upstream concatenates
 * them; text around the blocks is dropped. A key without a certificate is an
 * error naming the field. Pure.
 *
 * @public
 */
export function concatCaBundle(
  data: Readonly<Record<string, string>>,
  bundle: { configMapName: string; configMapKeys?: string[] },
  namespace: string,
  path = 'spec.networking.tls.caBundle',
): { ok: true; text: string } | { ok: false; message: string } {
  const keys = bundle.configMapKeys?.length
    ? bundle.configMapKeys
    : DEFAULT_CA_BUNDLE_KEYS;
  const field = bundle.configMapKeys?.length
    ? `${path}.configMapKeys`
    : `${path}.configMapName`;
  const blocks: string[] = [];
  for (const key of keys) {
    const found = splitPems(data[key] ?? '');
    if (!found.length) {
      return {
        ok: false,
        message: `ConfigMap "${bundle.configMapName}" in namespace "${namespace}" has no PEM certificate (-----BEGIN CERTIFICATE-----) under key "${key}": put the CA certificates there or change ${field}`,
      };
    }
    blocks.push(...found);
  }
  return { ok: true, text: `${blocks.join('\n')}\n` };
}

/** The managed CA bundle ConfigMap (upstream's `{name}-ca-bundle`, key `ca-bundle.crt`), owned by the stack. @public */
export function desiredCaBundle(
  stack: Stack,
  text: string,
  hash: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      ...meta(stack, caBundleName(stack), {
        [CONFIG_MAP_LABEL]: 'true',
        [CA_BUNDLE_LABEL]: 'true',
      }),
      annotations: { [CA_BUNDLE_HASH_ANNOTATION]: hash },
    },
    data: { [CA_BUNDLE_KEY]: text },
  };
}

/** The server Deployment: image, config mount, env and hash annotation together (FR-100). @public */
export function desiredDeployment(
  stack: Stack,
  input: DeploymentInput,
): KubeObject {
  const spec = stack.spec;
  const workload = spec.workload ?? {};
  const overrides = workload.overrides ?? {};
  const port = portOf(stack);
  const tls = spec.networking?.tls;
  const caBundle = tls?.caBundle;

  const volumes: any[] = [
    {
      name: 'config',
      configMap: {
        name: input.config.configMapName,
        items: [{ key: input.config.key, path: 'config.yaml' }],
      },
    },
    workload.storage
      ? {
          name: 'lls-storage',
          persistentVolumeClaim: { claimName: pvcName(stack) },
        }
      : { name: 'lls-storage', emptyDir: {} },
  ];
  const mounts: any[] = [
    { name: 'config', mountPath: CONFIG_MOUNT_PATH, readOnly: true },
    {
      name: 'lls-storage',
      mountPath: workload.storage?.mountPath ?? DEFAULT_STORAGE_MOUNT_PATH,
    },
  ];
  const env: any[] = [
    { name: 'LLAMA_STACK_CONFIG', value: `${CONFIG_MOUNT_PATH}/config.yaml` },
  ];
  if (workload.workers !== undefined)
    env.push({ name: 'LLS_WORKERS', value: String(workload.workers) });
  if (tls?.enabled && tls.secretName) {
    volumes.push({ name: 'tls', secret: { secretName: tls.secretName } });
    mounts.push({ name: 'tls', mountPath: TLS_MOUNT_PATH, readOnly: true });
  }
  if (caBundle && input.caBundleHash) {
    // One file with every listed key's certificates (the server reads one SSL_CERT_FILE).
    volumes.push({
      name: 'ca-bundle',
      configMap: {
        name: caBundleName(stack),
        items: [{ key: CA_BUNDLE_KEY, path: CA_BUNDLE_KEY }],
      },
    });
    mounts.push({
      name: 'ca-bundle',
      mountPath: CA_BUNDLE_MOUNT_PATH,
      readOnly: true,
    });
    env.push({
      name: 'SSL_CERT_FILE',
      value: `${CA_BUNDLE_MOUNT_PATH}/${CA_BUNDLE_KEY}`,
    });
  }
  env.push(...input.secretEnv);
  // User env last: it may override ours (as upstream's containerSpec.env does).
  const userEnv = overrides.env ?? [];
  const userNames = new Set(userEnv.map(e => e.name));
  const container: any = {
    name: containerName(stack),
    image: input.image,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
    env: [...env.filter(e => !userNames.has(e.name)), ...userEnv],
    volumeMounts: [...mounts, ...(overrides.volumeMounts ?? [])],
    readinessProbe: {
      httpGet: {
        path: HEALTH_PATH,
        port,
        scheme: tls?.enabled ? 'HTTPS' : 'HTTP',
      },
      initialDelaySeconds: 5,
      periodSeconds: 10,
      failureThreshold: 3,
    },
    startupProbe: {
      httpGet: {
        path: HEALTH_PATH,
        port,
        scheme: tls?.enabled ? 'HTTPS' : 'HTTP',
      },
      periodSeconds: 5,
      failureThreshold: 60,
    },
  };
  if (overrides.command) container.command = overrides.command;
  if (overrides.args) container.args = overrides.args;
  if (workload.resources) container.resources = workload.resources;

  const podSpec: any = {
    containers: [container],
    volumes: [...volumes, ...(overrides.volumes ?? [])],
    securityContext: { fsGroup: SERVER_FS_GROUP },
  };
  if (overrides.serviceAccountName)
    podSpec.serviceAccountName = overrides.serviceAccountName;
  if (overrides.terminationGracePeriodSeconds !== undefined) {
    podSpec.terminationGracePeriodSeconds =
      overrides.terminationGracePeriodSeconds;
  }
  if (workload.topologySpreadConstraints?.length)
    podSpec.topologySpreadConstraints = workload.topologySpreadConstraints;

  const deploymentSpec: any = {
    selector: { matchLabels: selectorLabels(stack) },
    template: {
      metadata: {
        labels: labels(stack),
        annotations: {
          [CONFIG_HASH_ANNOTATION]: input.config.hash,
          ...(input.caBundleHash && caBundle
            ? { [CA_BUNDLE_HASH_ANNOTATION]: input.caBundleHash }
            : {}),
        },
      },
      spec: podSpec,
    },
  };
  // With an HPA the replica count is the HPA's: leaving it out keeps the apply from fighting it.
  if (!workload.autoscaling) deploymentSpec.replicas = workload.replicas ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      ...meta(stack, stack.metadata!.name!),
      annotations: { [CONFIG_HASH_ANNOTATION]: input.config.hash },
    },
    spec: deploymentSpec,
  };
}

/** @public */
export function desiredService(stack: Stack): KubeObject {
  const port = portOf(stack);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(stack, serviceName(stack)),
    spec: {
      selector: selectorLabels(stack),
      ports: [{ name: 'http', port, targetPort: port, protocol: 'TCP' }],
    },
  };
}

/** FR-064, FR-065: an Ingress for `expose` (`{}` = true, the seed's edge case), TLS when a secret is set. @public */
export function desiredIngress(
  stack: Stack,
  options: ObjectOptions = {},
): KubeObject | undefined {
  const expose = stack.spec.networking?.expose;
  if (!expose) return undefined;
  const name = stack.metadata!.name!;
  const host =
    expose.hostname ??
    (options.ingressDomain
      ? `${name}-${stack.metadata!.namespace}.${options.ingressDomain}`
      : undefined);
  const rule: any = {
    http: {
      paths: [
        {
          path: '/',
          pathType: 'Prefix',
          backend: {
            service: {
              name: serviceName(stack),
              port: { number: portOf(stack) },
            },
          },
        },
      ],
    },
  };
  if (host) rule.host = host;
  const spec: any = { rules: [rule] };
  if (options.ingressClassName)
    spec.ingressClassName = options.ingressClassName;
  const tls = stack.spec.networking?.tls;
  if (tls?.enabled && tls.secretName && host)
    spec.tls = [{ hosts: [host], secretName: tls.secretName }];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(stack, ingressName(stack)),
    spec,
  };
}

/**
 * FR-066: who may reach the server. Its own namespace always; `namespaces`
 * by name (`*` = every namespace); `labels` = namespaces carrying that label
 * key; the ingress controller's traffic when exposed comes through a
 * namespace the user lists.
 *
 * @public
 */
export function desiredNetworkPolicy(
  stack: Stack,
  options: ObjectOptions = {},
): KubeObject | undefined {
  const allowed = stack.spec.networking?.allowedFrom;
  if (!allowed) return undefined;
  const from: any[] = [{ podSelector: {} }];
  const names = allowed.namespaces ?? [];
  if (names.includes('*')) from.push({ namespaceSelector: {} });
  else if (names.length) {
    from.push({
      namespaceSelector: {
        matchExpressions: [
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'In',
            values: [...names].sort(),
          },
        ],
      },
    });
  }
  for (const key of [...(allowed.labels ?? [])].sort()) {
    from.push({
      namespaceSelector: { matchExpressions: [{ key, operator: 'Exists' }] },
    });
  }
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(stack, networkPolicyName(stack)),
    spec: {
      podSelector: { matchLabels: selectorLabels(stack) },
      policyTypes: ['Ingress'],
      ingress: [
        { from, ports: [{ protocol: 'TCP', port: portOf(stack) }] },
        // The operator's health probe (GET /v1/health at the pod IP), as upstream admits its namespace.
        ...(options.operatorNamespace
          ? [
              {
                from: [
                  {
                    namespaceSelector: {
                      matchLabels: {
                        'kubernetes.io/metadata.name':
                          options.operatorNamespace,
                      },
                    },
                    podSelector: { matchLabels: OPERATOR_POD_LABELS },
                  },
                ],
                ports: [{ protocol: 'TCP', port: portOf(stack) }],
              },
            ]
          : []),
      ],
    },
  };
}

/** @public */
export function desiredPvc(stack: Stack): KubeObject | undefined {
  const storage = stack.spec.workload?.storage;
  if (!storage) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(stack, pvcName(stack)),
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: {
        requests: { storage: String(storage.size ?? DEFAULT_STORAGE_SIZE) },
      },
    },
  };
}

/** @public */
export function desiredPdb(stack: Stack): KubeObject | undefined {
  const pdb = stack.spec.workload?.podDisruptionBudget;
  if (
    !pdb ||
    (pdb.minAvailable === undefined && pdb.maxUnavailable === undefined)
  )
    return undefined;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta(stack, pdbName(stack)),
    spec: { selector: { matchLabels: selectorLabels(stack) }, ...pdb },
  };
}

/** @public */
export function desiredHpa(stack: Stack): KubeObject | undefined {
  const a = stack.spec.workload?.autoscaling;
  if (!a) return undefined;
  const metrics: any[] = [];
  const resource = (name: string, target: number) => ({
    type: 'Resource',
    resource: {
      name,
      target: { type: 'Utilization', averageUtilization: target },
    },
  });
  if (a.targetCPUUtilizationPercentage !== undefined)
    metrics.push(resource('cpu', a.targetCPUUtilizationPercentage));
  if (a.targetMemoryUtilizationPercentage !== undefined)
    metrics.push(resource('memory', a.targetMemoryUtilizationPercentage));
  const spec: any = {
    scaleTargetRef: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: stack.metadata!.name!,
    },
    minReplicas: a.minReplicas ?? 1,
    maxReplicas: a.maxReplicas,
  };
  if (metrics.length) spec.metrics = metrics;
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(stack, hpaName(stack)),
    spec,
  };
}

/** Every object besides the ConfigMap and Deployment, by kind: present ones to apply, absent ones to delete. @public */
export function desiredSatellites(stack: Stack, options: ObjectOptions = {}) {
  return {
    Service: desiredService(stack),
    Ingress: desiredIngress(stack, options),
    NetworkPolicy: desiredNetworkPolicy(stack, options),
    PersistentVolumeClaim: desiredPvc(stack),
    PodDisruptionBudget: desiredPdb(stack),
    HorizontalPodAutoscaler: desiredHpa(stack),
  };
}

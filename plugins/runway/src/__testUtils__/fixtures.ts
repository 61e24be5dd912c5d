/**
 * Answers of the runway backend for component tests, shaped by the REST
 * contract (api/types.ts: runway-common's, from which the backend's OpenAPI
 * document is derived).
 */
import {
  BUILT_IN_PROVIDERS,
  type EngineCapability,
} from '@runway-portal/plugin-runway-common';
import type {
  ClusterFreshness,
  ClusterOverview,
  ClusterProvider,
  ClustersResponse,
  ListedDeployment,
  ListedObject,
  ListResponse,
} from '../api/types';

/**
 * A provider as the backend reports it: its registration is the built-in one
 * of that name (what its controller registers), with these engines.
 */
export function registered(
  summary: Omit<ClusterProvider, 'spec'>,
): ClusterProvider {
  const builtIn =
    BUILT_IN_PROVIDERS.find(b => b.metadata?.name === summary.name)?.spec ?? {};
  return {
    ...summary,
    spec: {
      ...builtIn,
      capabilities: {
        ...builtIn.capabilities,
        engines: summary.engines as EngineCapability[],
      },
    },
  };
}

export function cluster(
  name: string,
  overrides: Partial<ClusterOverview> = {},
): ClusterOverview {
  return {
    name,
    title: name,
    reachable: true,
    version: 'v1.36.3',
    namespaces: ['default', 'ml'],
    providers: [
      registered({
        name: 'kaito',
        displayName: 'KAITO',
        ready: true,
        message: 'ready',
        engines: [
          {
            name: 'vllm',
            servingModes: ['aggregated'],
            gpuSupport: true,
            cpuSupport: false,
          },
          {
            name: 'llamacpp',
            servingModes: ['aggregated'],
            gpuSupport: true,
            cpuSupport: true,
          },
        ],
      }),
      registered({
        name: 'dynamo',
        displayName: 'Dynamo',
        ready: true,
        message: 'ready',
        engines: [
          {
            name: 'vllm',
            servingModes: ['aggregated', 'disaggregated'],
            gpuSupport: true,
            cpuSupport: false,
          },
          {
            name: 'sglang',
            servingModes: ['aggregated', 'disaggregated'],
            gpuSupport: true,
            cpuSupport: false,
          },
        ],
      }),
    ],
    gpus: [
      {
        resource: 'nvidia.com/gpu',
        allocatable: 8,
        requested: 2,
        pending: 0,
        nodes: 2,
      },
    ],
    ...overrides,
  };
}

/** A cluster's state and data age in an answer: ok and current unless overridden. */
export function freshness(
  name: string,
  overrides: Partial<ClusterFreshness> = {},
): ClusterFreshness {
  return {
    cluster: name,
    synced: true,
    dataAgeMs: 0,
    state: 'ok',
    message: '',
    lastSeen: new Date().toISOString(),
    stale: false,
    ...overrides,
  };
}

/** Unreachable for `ageMs`: its data is the last known, stale since then. */
export function unreachable(name: string, ageMs = 42_000): ClusterFreshness {
  const since = new Date(Date.now() - ageMs).toISOString();
  return freshness(name, {
    state: 'unreachable',
    message: `cannot reach cluster "${name}" (connect ECONNREFUSED): check that its API server is up and that its url is right. Its data is the last known and is refreshed by itself when it answers again.`,
    lastSeen: since,
    stale: true,
    staleSince: since,
    dataAgeMs: ageMs,
  });
}

export function clustersResponse(
  items: ClusterOverview[],
  errors: ClustersResponse['errors'] = [],
  states: ClusterFreshness[] = [],
): ClustersResponse {
  return {
    items,
    clusters: items.map(
      c => states.find(s => s.cluster === c.name) ?? freshness(c.name),
    ),
    errors,
  };
}

export function deployment(
  clusterName: string,
  namespace: string,
  name: string,
  status: Record<string, any> = {},
): ListedDeployment {
  return {
    cluster: clusterName,
    object: {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: {
        name,
        namespace,
        creationTimestamp: new Date(Date.now() - 3600_000).toISOString(),
        uid: `${clusterName}-${namespace}-${name}`,
      },
      spec: {
        model: { id: `org/${name}` },
        scaling: { replicas: 1 },
        resources: { gpu: { count: 1 } },
      },
      status: {
        phase: 'Running',
        provider: { name: 'dynamo', selectedReason: 'default GPU provider' },
        engine: {
          type: 'vllm',
          selectedReason: 'vllm for GPU, aggregated serving',
        },
        replicas: { desired: 1, ready: 1 },
        endpoint: { service: name, port: 8000 },
        ...status,
      },
    },
  };
}

/** `count` deployments spread over `clusters`, phases and providers varied; every other one reachable through a gateway. */
export function manyDeployments(
  count: number,
  clusters: string[],
): ListResponse {
  const phases = ['Running', 'Deploying', 'Pending', 'Failed'];
  const providers = ['kaito', 'dynamo', 'kuberay', 'llmd'];
  const items = Array.from({ length: count }, (_, i) => {
    const name = `model-${String(i).padStart(5, '0')}`;
    return deployment(clusters[i % clusters.length], `team-${i % 7}`, name, {
      phase: phases[i % phases.length],
      provider: { name: providers[i % providers.length] },
      ...(i % 2 === 0
        ? {
            gateway: {
              endpoint: 'http://203.0.113.7',
              modelName: name,
              gatewayNamespace: 'gateways',
            },
          }
        : {}),
    });
  });
  return {
    items,
    clusters: clusters.map(c => freshness(c)),
    errors: [],
  };
}

/** A listed Model (models.airunway.ai) of a HuggingFace repository. */
export function model(
  clusterName: string,
  namespace: string,
  name: string,
  status: Record<string, any> = {},
  spec: Record<string, any> = {},
): ListedObject {
  return {
    cluster: clusterName,
    object: {
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      metadata: {
        name,
        namespace,
        creationTimestamp: new Date(Date.now() - 600_000).toISOString(),
        uid: `${clusterName}-${namespace}-model-${name}`,
      },
      spec: {
        source: { huggingFace: { repoId: `org/${name}`, revision: 'main' } },
        storage: {
          storageClass: 'standard',
          size: '20Gi',
          accessModes: ['ReadWriteOnce'],
        },
        ...spec,
      },
      status: { phase: 'Ready', progress: 100, ...status },
    },
  };
}

/** A listed LlamaStackDistribution (llamastack.io/v1alpha2). */
export function stack(
  clusterName: string,
  namespace: string,
  name: string,
  status: Record<string, any> = {},
): ListedObject {
  return {
    cluster: clusterName,
    object: {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: {
        name,
        namespace,
        creationTimestamp: new Date(Date.now() - 600_000).toISOString(),
        uid: `${clusterName}-${namespace}-stack-${name}`,
      },
      spec: { distribution: { name: 'starter' } },
      status: {
        phase: 'Ready',
        resolvedDistribution: { image: 'docker.io/llamastack/starter:0.2' },
        serviceURL: `http://${name}-service.${namespace}.svc:8321`,
        ...status,
      },
    },
  };
}

/** The answers of the three lists: `count` resources, 60% deployments, 20% models, 20% stacks. */
export function manyResources(
  count: number,
  clusters: string[],
): Record<'deployments' | 'models' | 'stacks', ListResponse> {
  const models = Math.floor(count / 5);
  const stacks = Math.floor(count / 5);
  const deployments = manyDeployments(count - models - stacks, clusters);
  const phases = ['Ready', 'Downloading', 'Pending', 'Failed'];
  const clusterStates = deployments.clusters;
  return {
    deployments,
    models: {
      items: Array.from({ length: models }, (_, i) =>
        model(
          clusters[i % clusters.length],
          `team-${i % 7}`,
          `weights-${String(i).padStart(5, '0')}`,
          {
            phase: phases[i % phases.length],
            progress: (i * 7) % 101,
            download: { bytesDownloaded: i * 1_000_000, totalBytes: 8e9 },
          },
        ),
      ),
      clusters: clusterStates,
      errors: [],
    },
    stacks: {
      items: Array.from({ length: stacks }, (_, i) =>
        stack(
          clusters[i % clusters.length],
          `team-${i % 7}`,
          `stack-${String(i).padStart(5, '0')}`,
          { phase: i % 3 ? 'Ready' : 'Initializing' },
        ),
      ),
      clusters: clusterStates,
      errors: [],
    },
  };
}

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
  ClusterOverview,
  ClusterProvider,
  ClustersResponse,
  ListedDeployment,
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

export function clustersResponse(
  items: ClusterOverview[],
  errors: ClustersResponse['errors'] = [],
): ClustersResponse {
  return {
    items,
    clusters: items.map(c => ({ cluster: c.name, synced: true, dataAgeMs: 0 })),
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
    clusters: clusters.map(c => ({ cluster: c, synced: true, dataAgeMs: 0 })),
    errors: [],
  };
}

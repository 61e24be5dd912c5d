/**
 * The deployments the benchmarks and fault tests create: one spec per
 * provider, round robin, and nodes with room for all of their pods.
 */
import type { ResourceType } from '@runway-portal/controller-runtime';
import { MODEL_DEPLOYMENTS_RESOURCE } from '@runway-portal/plugin-runway-common';
import type { NodeSpec } from '@runway-portal/e2e-cluster';
import {
  DYNAMO_GRAPH_DEPLOYMENT,
  KAITO_WORKSPACE,
  KUBERAY_RAY_SERVICE,
} from '@runway-portal/e2e-simulators';

export const MODEL_DEPLOYMENTS: ResourceType = MODEL_DEPLOYMENTS_RESOURCE;

/** An upstream kind without its version (the cluster's CRD says which it serves). */
export interface UpstreamKindRef {
  group: string;
  plural: string;
  kind: string;
}

/** llm-d's own pool (the core creates none when the provider's exists). */
const INFERENCE_POOL: UpstreamKindRef = {
  group: 'inference.networking.k8s.io',
  plural: 'inferencepools',
  kind: 'InferencePool',
};

/** Each deployment's spec, round robin; the core chooses the provider from it as a user's would be chosen. */
export const WORKLOADS = [
  {
    // llama.cpp on CPU: the core selects KAITO.
    provider: 'kaito',
    /** The one object its provider creates for it. */
    upstream: KAITO_WORKSPACE,
    spec: {
      model: {
        id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
        source: 'huggingface',
      },
      engine: { type: 'llamacpp' },
      resources: { cpu: '8', memory: '16Gi' },
      image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
    },
  },
  {
    // vLLM on a GPU, no provider named: the core's default, Dynamo.
    provider: 'dynamo',
    upstream: DYNAMO_GRAPH_DEPLOYMENT,
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '16Gi' },
    },
  },
  {
    provider: 'kuberay',
    upstream: KUBERAY_RAY_SERVICE,
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      provider: { name: 'kuberay' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '16Gi' },
    },
  },
  {
    // llm-d creates a real Deployment: kwok runs its pod on the GPU node.
    provider: 'llmd',
    upstream: INFERENCE_POOL,
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      provider: { name: 'llmd' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '8Gi' },
    },
  },
] as const;

export const workloadOf = (i: number) => WORKLOADS[i % WORKLOADS.length];

/** The i-th deployment of the run, in `namespace`. */
export function modelDeployment(
  i: number,
  namespace: string,
  spec = workloadOf(i).spec,
) {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: `md-${i}`, namespace },
    spec,
  };
}

/**
 * Room for every pod: one endpoint picker per deployment (the core's, or
 * llm-d's own) and one GPU model server per llm-d deployment; the kubelet
 * default of 110 pods per node would leave most Pending.
 */
export function nodesFor(count: number): NodeSpec[] {
  return [
    {
      name: 'gpu-0',
      gpus: count,
      cpu: String(4 * count + 32),
      memory: `${32 * count + 128}Gi`,
      pods: 2 * count + 10,
    },
    {
      name: 'cpu-0',
      cpu: String(8 * count + 16),
      memory: `${16 * count + 64}Gi`,
      pods: 2 * count + 10,
    },
  ];
}

/** Builders shared by the deployments tests (not exported from the package). */
import { BUILT_IN_PROVIDERS } from './providers';
import type {
  EngineCapability,
  InferenceProviderConfig,
  ModelDeployment,
  ModelDeploymentSpec,
} from './types';

/** A valid GPU deployment; `patch` replaces top-level spec fields. */
export function deployment(
  patch: Partial<ModelDeploymentSpec> = {},
  name = 'llama',
): ModelDeployment {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace: 'default' },
    spec: {
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 }, memory: '32Gi' },
      ...patch,
    },
  };
}

export function ready(
  config: InferenceProviderConfig,
  isReady = true,
): InferenceProviderConfig {
  return { ...config, status: { ...config.status, ready: isReady } };
}

/** The four built-in providers, all ready. */
export const READY_BUILT_INS = BUILT_IN_PROVIDERS.map(p => ready(p));

export function provider(
  name: string,
  selectionRules: Array<{
    condition: string;
    priority?: number;
    reason?: string;
  }>,
  engines: EngineCapability[] = [{ name: 'vllm', gpuSupport: true }],
  isReady = true,
): InferenceProviderConfig {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name },
    spec: { capabilities: { engines }, selectionRules },
    status: { ready: isReady },
  };
}

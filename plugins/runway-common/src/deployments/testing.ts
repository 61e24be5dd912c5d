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

/**
 * Seed 000 section 3.9's InferenceProviderConfig example, verbatim except
 * the API group (kubefoundry.ai is airunway.ai here): the flat capability
 * form, `engines` as names.
 */
export const SEED_FLAT_PROVIDER_CONFIG_YAML = `apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata:
  name: kaito
spec:
  # Capabilities this provider supports
  capabilities:
    engines: [vllm, llamacpp]
    servingModes: [aggregated]
    cpuSupport: true
    gpuSupport: true

  # Selection rules for auto-selection algorithm
  # Conditions use CEL (Common Expression Language) - same as K8s ValidatingAdmissionPolicy
  selectionRules:
    - condition: "!has(spec.resources.gpu) || spec.resources.gpu.count == 0"
      priority: 100  # Best for CPU workloads
    - condition: "spec.engine.type == 'llamacpp'"
      priority: 100  # Only llamacpp provider

  # Documentation link
  documentation: "https://github.com/kubefoundry/kaito-provider"

status:
  # Written by the provider controller on startup
  ready: true
  version: "kaito-provider:v1.2.0"
  lastHeartbeat: "2026-02-04T10:00:00Z"
  upstreamCRDVersion: "kaito.sh/v1alpha1"
  upstreamSchemaHash: "abc123def456"
`;

/** Seed 000 section 3.14's third-party registration (`newframework`: engines vllm and custom), as YAML. */
export const SEED_THIRD_PARTY_PROVIDER_CONFIG_YAML = `apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata:
  name: newframework
spec:
  capabilities:
    engines: [vllm, custom]
    servingModes: [aggregated]
    gpuSupport: true
  selectionRules:
    - condition: "spec.model.id.startsWith('newframework/')"
      priority: 100
`;

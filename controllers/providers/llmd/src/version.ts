/**
 * Which InferencePool API to write: GAIE's v1 (`inference.networking.k8s.io`,
 * current llm-d guides) when installed, else the older v1alpha2
 * (`inference.networking.x-k8s.io`), whose shape differs (flat selector,
 * `targetPortNumber`, `extensionRef`). Neither: llm-d still runs (its model
 * servers are plain Deployments), without a pool.
 */
export type InferencePoolVersion = 'inference.networking.k8s.io/v1' | 'inference.networking.x-k8s.io/v1alpha2';

export const INFERENCE_POOL_CRDS: ReadonlyArray<{ crd: string; version: string; apiVersion: InferencePoolVersion }> = [
  { crd: 'inferencepools.inference.networking.k8s.io', version: 'v1', apiVersion: 'inference.networking.k8s.io/v1' },
  { crd: 'inferencepools.inference.networking.x-k8s.io', version: 'v1alpha2', apiVersion: 'inference.networking.x-k8s.io/v1alpha2' },
];

interface Crd {
  metadata?: { name?: string };
  spec?: { versions?: Array<{ name?: string; served?: boolean }> };
}

/** The InferencePool version to write, from the installed CRDs (undefined when none fits). */
export function detectInferencePoolVersion(crds: Crd[]): InferencePoolVersion | undefined {
  for (const candidate of INFERENCE_POOL_CRDS) {
    const crd = crds.find(c => c.metadata?.name === candidate.crd);
    if (crd?.spec?.versions?.some(v => v.name === candidate.version && v.served)) return candidate.apiVersion;
  }
  return undefined;
}

/**
 * The llm-d provider: ModelDeployment → vLLM model-server Deployments, a
 * Service and an InferencePool, and back. `src/main.ts` is the process.
 *
 * @packageDocumentation
 */
export { llmdProvider, LLMD_PROVIDER_VERSION } from './definition';
export type { DeploymentLookup } from './definition';
export { buildLlmdObjects, llmdEndpoint, modelServers } from './transform';
export { mapLlmdStatus } from './status';
export { LLMD_OVERRIDES, readLlmdOverrides } from './overrides';

/**
 * The llm-d provider as a library: its `ProviderDefinition` (pure transform
 * into model-server Deployments, a Service and an InferencePool, and status
 * mapping), for the shared loop and for previews. Importing it starts
 * nothing; the process is `./main` (`src/main.ts`).
 *
 * @packageDocumentation
 */
export { LLMD_PROVIDER_VERSION, llmdProvider } from './definition';

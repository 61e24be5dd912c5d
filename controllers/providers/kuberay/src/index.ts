/**
 * The KubeRay provider as a library: its `ProviderDefinition` (pure transform
 * into a RayService and status mapping), for the shared loop and for
 * previews. Importing it starts nothing; the process is `./main`
 * (`src/main.ts`).
 *
 * @packageDocumentation
 */
export { KUBERAY_VERSION, kuberayProvider } from './definition';

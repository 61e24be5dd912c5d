/**
 * The KAITO provider as a library: its `ProviderDefinition` (pure transform
 * into a Workspace and status mapping), for the shared loop and for
 * previews. Importing it starts nothing; the process is `./main`
 * (`src/main.ts`).
 *
 * @packageDocumentation
 */
export { KAITO_VERSION, kaitoProvider } from './definition';

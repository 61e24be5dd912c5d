/**
 * The Dynamo provider as a library: its `ProviderDefinition` (pure transform
 * into a DynamoGraphDeployment and status mapping), for the shared loop and
 * for previews. Importing it starts nothing; the process is `./main`
 * (`src/main.ts`).
 *
 * @packageDocumentation
 */
export { DYNAMO_PROVIDER_VERSION, dynamoProvider } from './definition';

/**
 * The Dynamo provider: ModelDeployment → NVIDIA Dynamo DynamoGraphDeployment
 * (v1alpha1 or v1beta1) and back. `src/main.ts` is the process.
 *
 * @packageDocumentation
 */
export { dynamoProvider, DYNAMO_PROVIDER_VERSION } from './definition';
export { buildDynamoGraphDeployment, defaultDynamoImage, frontendEndpoint } from './transform';
export { mapDynamoStatus } from './status';
export { DYNAMO_OVERRIDES, readDynamoOverrides } from './overrides';

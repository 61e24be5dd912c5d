/**
 * Runway Portal's shared API: the schemas of deployments (ModelDeployment,
 * InferenceProviderConfig), models (Model) and stacks (LlamaStackDistribution),
 * their generated types and CRDs, defaulting, validation and selection.
 *
 * @packageDocumentation
 */
export * from './schema';
export * from './crd';
export * from './generated';
export * from './cel';
export * from './deployments';
export * from './models';
export * from './stacks';
export * from './permissions';
export * from './signals';
export * from './api';

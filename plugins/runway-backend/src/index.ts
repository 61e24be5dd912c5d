/**
 * The runway backend plugin: a REST API over deployments, models and stacks
 * in every registered Kubernetes cluster.
 *
 * @packageDocumentation
 */
export { runwayPlugin as default } from './plugin';
export { spec as runwayOpenApiSpec } from './service/openapi';
export type { Preview, PreviewMode } from './service/preview';
export type { SelectionPreview } from '@runway-portal/plugin-runway-common';

/**
 * The `runway` CLI as a library: the doctor's checks (shared with the
 * portal's backend), the bundle catalog and renderer, and `run`.
 *
 * @packageDocumentation
 */
export * from './doctor';
export {
  CATALOG,
  DEFAULT_NAMESPACE,
  FIELD_MANAGER,
  COMPONENT_LABEL,
  catalogEntry,
  defaultDeployDir,
} from './bundles/catalog';
export type { CatalogEntry, Guard } from './bundles/catalog';
export { renderKustomization, objectId } from './bundles/kustomize';
export type { FileSource, RenderedObject } from './bundles/kustomize';
export {
  buildPlan,
  outOfClusterPlan,
  phaseOf,
  providerBundleProblem,
} from './bundles/plan';
export type { PlannedObject, Phase } from './bundles/plan';
export { loadCatalogBundle, renderInstallYaml } from './bundles/load';
export { CliError } from './errors';
export { run, buildProgram } from './program';
export type { ProgramIO } from './program';
export { memoryReporter } from './install/reporter';
export type { Reporter } from './install/reporter';

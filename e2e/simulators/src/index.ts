/**
 * Test doubles for the KAITO, Dynamo and KubeRay operators: they move the
 * upstream objects' status the way the real operators do, after a delay,
 * and do nothing else (no pods, no nodes, no inference).
 *
 * @packageDocumentation
 */
export {
  FAIL_ANNOTATION,
  currentStage,
  decide,
  enteredAt,
  plannedStages,
  renderStage,
} from './stages';
export type {
  Condition,
  Decision,
  Json,
  RuntimeSimulation,
  Stage,
  StageEntry,
  UpstreamObject,
} from './stages';
export { kaitoSimulation, KAITO_WORKSPACE } from './kaito';
export { dynamoSimulation, dynamoComponents, DYNAMO_GRAPH_DEPLOYMENT } from './dynamo';
export { kuberaySimulation, serveApplications, KUBERAY_RAY_SERVICE } from './kuberay';
export {
  DEFAULT_STEP_DELAY_MS,
  SIMULATED_KINDS,
  SIMULATOR_NAMES,
  fieldManagerOf,
  registerSimulators,
  storageVersion,
} from './simulator';
export type { Registered, RegisterOptions, SimulatedKind } from './simulator';
export { UPSTREAM_CRDS_DIR, upstreamCrdFiles } from './upstreamCrds';

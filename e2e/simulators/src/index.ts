/**
 * Test doubles for the KAITO, Dynamo and KubeRay operators: they move the
 * upstream objects' status the way the real operators do, after a delay,
 * and create the model's Service as they do, nothing else (no pods, no
 * nodes, no inference); and a simulator of a Gateway API implementation
 * that only reports Gateways of its class as programmed.
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
  ModelService,
  RuntimeSimulation,
  Stage,
  StageEntry,
  UpstreamObject,
} from './stages';
export { kaitoSimulation, KAITO_WORKSPACE } from './kaito';
export {
  dynamoSimulation,
  dynamoComponents,
  DYNAMO_GRAPH_DEPLOYMENT,
} from './dynamo';
export {
  kuberaySimulation,
  serveApplications,
  KUBERAY_RAY_SERVICE,
} from './kuberay';
export {
  DEFAULT_STEP_DELAY_MS,
  GATEWAY_SIMULATOR,
  SIMULATED_KINDS,
  SIMULATOR_LABEL,
  SIMULATOR_NAMES,
  fieldManagerOf,
  modelServiceObject,
  registerSimulators,
  storageVersion,
} from './simulator';
export type { Registered, RegisterOptions, SimulatedKind } from './simulator';
export {
  GATEWAY_API_CRDS_DIR,
  UPSTREAM_CRDS_DIR,
  gatewayApiCrdFiles,
  upstreamCrdFiles,
} from './upstreamCrds';
export {
  GATEWAY_KIND,
  SIMULATED_GATEWAY_CLASS,
  gatewayStatus,
  simulatedGatewayAddress,
} from './gateway';
export { startHubStandIn } from './hubStandIn';
export {
  s3ErrorXml,
  signatureProblem,
  startS3SignatureCheck,
} from './s3Signatures';
export type {
  S3AuthError,
  S3Credentials,
  S3SignatureCheck,
} from './s3Signatures';
export type { HubStandIn, HubStandInOptions, StandInRepo } from './hubStandIn';
export {
  DEMO_MODEL_REPO,
  DOWNLOADS_NODE,
  LOCAL_GGUF_REPO,
  demoModelRepo,
  startLocalHub,
  MODEL_DOWNLOADS_SIMULATOR,
  podLogPath,
  registerModelDownloads,
  volumePath,
} from './modelDownloads';
export type { ModelDownloadsOptions } from './modelDownloads';
export {
  OPENAI_SIMULATOR,
  proxyableHostAddress,
  simulatedAnswer,
  startOpenAiSimulator,
} from './openAiSimulator';
export type {
  ChatCall,
  OpenAiSimulator,
  OpenAiSimulatorOptions,
} from './openAiSimulator';
export { readyNodeCondition, startSimulatedNode } from './simulatedNode';
export type { SimulatedNode } from './simulatedNode';
export {
  LLAMA_STACK_HEALTH_PATH,
  LLAMA_STACK_POD_SELECTOR,
  LLAMA_STACK_SIMULATOR,
  SIMULATED_HEALTH_ENV,
  SIMULATED_SCHEME_ENV,
  loopbackAddress,
  registerLlamaStackSimulator,
  serverEndpoint,
  startLlamaStackSimulator,
  simulatedHealth,
} from './llamaStack';
export type { LlamaStackSimulator } from './llamaStack';
export {
  REGISTRY_SIMULATOR,
  buildImage,
  startRegistrySimulator,
  tarArchive,
} from './registrySimulator';
export type {
  RegistrySimulator,
  RegistrySimulatorOptions,
  SimulatedImage,
} from './registrySimulator';

/**
 * Every CustomResourceDefinition of the project. `yarn generate` renders
 * these; add a definition here (one line) to have its CRD and types generated.
 */
import {
  inferenceProviderConfigCrd,
  modelDeploymentCrd,
} from '../deployments/crd';
import { modelCrd } from '../models/crd';
import { stackCrd } from '../stacks/crd';
import type { CrdDefinition } from './definition';

/** @public */
export const ALL_CRDS: CrdDefinition[] = [
  modelDeploymentCrd,
  inferenceProviderConfigCrd,
  modelCrd,
  stackCrd,
];

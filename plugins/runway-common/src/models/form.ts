/**
 * The model form's steps and the fields each one edits, written once (as
 * `deployments/form.ts` is for the deployment wizard): the portal renders
 * its steps from this list, validates a step's fields before leaving it,
 * and shows each field's help from the Model schema's own descriptions.
 * `models.test.ts` checks every spec path against the schema.
 */
import type { TSchema } from '@sinclair/typebox';
import { ModelSchema } from './schema';

export interface ModelFormStep {
  label: string;
  /** Fields validated before leaving the step. */
  fields: readonly string[];
}

/** Form-only editors and the spec field each one writes. */
export const MODEL_FORM_EDITORS = {
  cluster: undefined,
  /** Which of the three sources the form shows (the spec sets exactly one). */
  sourceType: 'spec.source',
  labels: 'metadata.labels',
  nodeSelector: 'spec.nodeSelector',
} as const;

export const MODEL_FORM_STEPS: readonly ModelFormStep[] = [
  {
    label: 'Cluster and namespace',
    fields: ['cluster', 'metadata.namespace', 'metadata.name'],
  },
  {
    label: 'Source',
    fields: [
      'sourceType',
      'spec.source.huggingFace.repoId',
      'spec.source.huggingFace.revision',
      'spec.source.s3.bucket',
      'spec.source.s3.key',
      'spec.source.s3.endpoint',
      'spec.source.s3.region',
      'spec.source.url.url',
      'spec.credentialsSecret',
      'spec.version',
    ],
  },
  {
    label: 'Storage and scheduling',
    fields: [
      'spec.storage.storageClass',
      'spec.storage.size',
      'spec.storage.accessModes',
      'nodeSelector',
      'labels',
    ],
  },
  { label: 'Review', fields: [] },
];

/** Every field of the model form: where a validation issue can be shown. */
export const MODEL_FORM_FIELDS: ReadonlySet<string> = new Set(
  MODEL_FORM_STEPS.flatMap(step => step.fields),
);

function descriptionAt(schema: TSchema | undefined, path: string[]) {
  let node: any = schema;
  for (const key of path) node = node?.properties?.[key];
  return typeof node?.description === 'string' ? node.description : undefined;
}

/** The Model schema's description of a field (`spec.storage.size` → "Size of the PVC, e.g. \"20Gi\"."): the form's help text. */
export function modelFieldHelp(path: string): string | undefined {
  return descriptionAt(ModelSchema, path.split('.'));
}

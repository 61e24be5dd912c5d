/**
 * The deployment form's steps and the fields each one edits, written once:
 * the wizard renders its steps from this list, validates a step's fields
 * before leaving it, and assigns every validation issue to one of these
 * fields. Field names are spec paths (`spec.resources.gpu.count`) where the
 * form edits the field as it is, or the name of a form-only editor for
 * maps and lists (`env`, `tolerations`, ...). `form.test.ts` checks every
 * spec path against the ModelDeployment schema, so a renamed field fails
 * here, not in the browser.
 */

export interface DeploymentFormStep {
  label: string;
  /** Fields validated before leaving the step. */
  fields: readonly string[];
}

/** The editors of fields that are maps or lists, and the spec field each one writes. */
export const DEPLOYMENT_FORM_EDITORS = {
  cluster: undefined,
  labels: 'metadata.labels',
  engineArgs: 'spec.engine.args',
  env: 'spec.env',
  // Kept as they are; the model step's "use a cached model" choice edits its entry.
  volumes: 'spec.model.storage.volumes',
  providerOverrides: 'spec.provider.overrides',
  nodeSelector: 'spec.nodeSelector',
  tolerations: 'spec.tolerations',
  podLabels: 'spec.podTemplate.metadata.labels',
} as const;

export const DEPLOYMENT_FORM_STEPS: readonly DeploymentFormStep[] = [
  {
    label: 'Cluster and namespace',
    fields: ['cluster', 'metadata.namespace', 'metadata.name'],
  },
  {
    label: 'Model',
    fields: [
      'spec.model',
      'spec.model.id',
      'spec.model.source',
      'spec.model.servedName',
      'volumes',
    ],
  },
  {
    label: 'Engine and provider',
    fields: ['spec.engine.type', 'spec.provider.name'],
  },
  {
    label: 'Resources and scaling',
    fields: [
      'spec.serving.mode',
      'spec.scaling.replicas',
      'spec.resources.gpu.count',
      'spec.resources.gpu.type',
      'spec.resources.memory',
      'spec.resources.cpu',
      'spec.scaling.prefill.replicas',
      'spec.scaling.prefill.gpu.count',
      'spec.scaling.prefill.memory',
      'spec.scaling.decode.replicas',
      'spec.scaling.decode.gpu.count',
      'spec.scaling.decode.memory',
    ],
  },
  {
    label: 'Advanced',
    fields: [
      'labels',
      'spec.image',
      'spec.engine.contextLength',
      'engineArgs',
      'env',
      'spec.secrets.huggingFaceToken',
      'providerOverrides',
      'nodeSelector',
      'tolerations',
      'podLabels',
      'spec.gateway.enabled',
      'spec.gateway.modelName',
      'spec.gateway.httpRouteRef',
    ],
  },
  { label: 'Review', fields: [] },
];

/** Every field of the form: where a validation issue can be shown. */
export const DEPLOYMENT_FORM_FIELDS: ReadonlySet<string> = new Set(
  DEPLOYMENT_FORM_STEPS.flatMap(step => step.fields),
);

/**
 * The deployment form's steps and the fields each one edits, written once:
 * the wizard renders its steps from this list, validates a step's fields
 * before leaving it, and assigns every validation issue to one of these
 * fields. Field names are spec paths (`spec.resources.gpu.count`) where the
 * form edits the field as it is, or the name of a form-only editor for
 * maps and lists (`env`, `tolerations`, ...). `form.test.ts` checks every
 * spec path against the ModelDeployment schema, so a renamed field fails
 * here, not in the browser. `DEPLOYMENT_FORM` describes each field
 * (label, help, input and options) for the wizard's field renderer.
 */
import {
  describeFormFields,
  editorPaths,
  type FormStep,
  onOffSelect,
} from '../schema/form';
import { ENGINE_DISPLAY_NAMES, ENGINE_TYPES } from './constants';
import { ModelDeploymentSchema } from './schema';

/** @public */
export type DeploymentFormStep = FormStep;

/** @public */
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

/** Every field of the form: where a validation issue can be shown. @public */
export const DEPLOYMENT_FORM_FIELDS: ReadonlySet<string> = new Set(
  DEPLOYMENT_FORM_STEPS.flatMap(step => step.fields),
);

/**
 * The wizard's fields: labels and help, input kinds and options from the
 * ModelDeployment schema. Help the wizard words differently from the
 * schema's description (or leaves out) is given here; the provider list
 * and the gateway's help depend on the cluster and are the wizard's.
 *
 * @public
 */
export const DEPLOYMENT_FORM = describeFormFields(ModelDeploymentSchema, {
  cluster: {
    label: 'Cluster',
    schemaPath: null,
    input: 'select',
    help: 'Where the deployment runs.',
  },
  'metadata.namespace': { label: 'Namespace', help: '' },
  'metadata.name': {
    label: 'Deployment name',
    help: "Lower-case letters, digits and '-'.",
  },
  'spec.model': { label: 'Model', help: '' },
  'spec.model.source': {
    label: 'Model source',
    help: '',
    options: [
      { value: 'huggingface', label: 'HuggingFace' },
      { value: 'custom', label: 'Custom image' },
    ],
  },
  'spec.model.id': {
    label: 'Model ID',
    help: 'e.g. meta-llama/Llama-3.1-8B-Instruct',
  },
  'spec.model.servedName': {
    label: 'Served model name',
    help: "The name clients use; defaults to the model ID's last part.",
  },
  // Kept as they are; the model step's "use a cached model" choice edits its entry.
  volumes: {
    label: 'Cached model',
    schemaPath: 'spec.model.storage.volumes',
    help: '',
  },
  'spec.engine.type': {
    label: 'Engine',
    help: '',
    emptyOption: 'Automatic',
    options: ENGINE_TYPES.map(e => ({
      value: e,
      label: ENGINE_DISPLAY_NAMES[e],
    })),
  },
  'spec.provider.name': {
    label: 'Provider',
    help: '',
    input: 'select',
    emptyOption: 'Automatic',
  },
  'spec.serving.mode': {
    label: 'Serving mode',
    help: '',
    options: [
      { value: 'aggregated', label: 'Aggregated' },
      { value: 'disaggregated', label: 'Disaggregated (prefill / decode)' },
    ],
  },
  'spec.scaling.replicas': { label: 'Replicas', help: '' },
  'spec.resources.gpu.count': {
    label: 'GPUs per replica',
    help: '0 runs on CPU.',
  },
  'spec.resources.memory': { label: 'Memory per replica', help: 'e.g. 32Gi' },
  'spec.resources.cpu': { label: 'CPU per replica', help: 'e.g. 4 or 500m' },
  'spec.scaling.prefill.replicas': { label: 'Prefill workers', help: '' },
  'spec.scaling.prefill.gpu.count': {
    label: 'GPUs per prefill worker',
    help: '',
  },
  'spec.scaling.prefill.memory': {
    label: 'Memory per prefill worker',
    help: 'e.g. 64Gi',
  },
  'spec.scaling.decode.replicas': { label: 'Decode workers', help: '' },
  'spec.scaling.decode.gpu.count': {
    label: 'GPUs per decode worker',
    help: '',
  },
  'spec.scaling.decode.memory': {
    label: 'Memory per decode worker',
    help: 'e.g. 64Gi',
  },
  'spec.resources.gpu.type': {
    label: 'GPU resource name',
    help: 'nvidia.com/gpu, amd.com/gpu, ...',
  },
  labels: {
    label: 'Deployment labels',
    schemaPath: 'metadata.labels',
    input: 'keyValue',
    rowLabels: { key: 'Label', value: 'Label value' },
  },
  'spec.image': {
    label: 'Container image',
    help: "The model server image; empty uses the provider's default for the engine.",
  },
  'spec.engine.contextLength': {
    label: 'Context length',
    help: 'Maximum tokens per request (engine default when empty).',
  },
  engineArgs: {
    label: 'Engine arguments',
    schemaPath: 'spec.engine.args',
    help: 'Passed to the engine as --name value.',
    input: 'keyValue',
    rowLabels: { key: 'Argument', value: 'Argument value' },
  },
  env: {
    label: 'Environment variables',
    schemaPath: 'spec.env',
    help: '',
    input: 'keyValue',
    rowLabels: { key: 'Variable', value: 'Variable value' },
  },
  'spec.secrets.huggingFaceToken': {
    label: 'HuggingFace token secret',
    help: 'Name of a Secret in the namespace with the key HF_TOKEN; its value is never read by the portal.',
  },
  providerOverrides: {
    label: 'Provider overrides (YAML)',
    schemaPath: 'spec.provider.overrides',
    help: 'Provider-specific settings, passed through as spec.provider.overrides.',
    input: 'yaml',
  },
  nodeSelector: {
    label: 'Node selector',
    schemaPath: 'spec.nodeSelector',
    help: '',
    input: 'keyValue',
    rowLabels: { key: 'Node label', value: 'Node label value' },
  },
  tolerations: {
    label: 'Tolerations',
    schemaPath: 'spec.tolerations',
    help: '',
  },
  podLabels: {
    label: 'Pod labels',
    schemaPath: 'spec.podTemplate.metadata.labels',
    help: '',
    input: 'keyValue',
    rowLabels: { key: 'Pod label', value: 'Pod label value' },
  },
  'spec.gateway.enabled': {
    label: 'Gateway routing',
    help: '',
    ...onOffSelect(
      'Automatic (when the cluster has a Gateway)',
      'Off (Service only)',
    ),
  },
  'spec.gateway.modelName': { label: 'Gateway model name' },
  'spec.gateway.httpRouteRef': { label: 'Existing HTTPRoute' },
});

/**
 * The form's editors of maps and lists (`env`, `tolerations`, ...) and the
 * resource field each one writes, read from `DEPLOYMENT_FORM` (a path is
 * written once, there): issues under such a path go to its editor.
 *
 * @public
 */
export const DEPLOYMENT_FORM_EDITORS: Readonly<Record<string, string>> =
  editorPaths(DEPLOYMENT_FORM);

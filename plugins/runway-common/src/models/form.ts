/**
 * The model form's steps and fields, written once (as `deployments/form.ts`
 * is for the deployment wizard): the portal renders its steps from this
 * list, validates a step's fields before leaving it, and renders each field
 * from `MODEL_FORM` (help, options and input kind from the Model schema).
 * `form.test.ts` checks every path against the schema.
 */
import { describeFormFields, type FormStep } from '../schema/form';
import { MAX_MODEL_NAME_LENGTH, ModelSchema } from './schema';

/** @public */
export const MODEL_FORM_STEPS: readonly FormStep[] = [
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

/** Every field of the model form: where a validation issue can be shown. @public */
export const MODEL_FORM_FIELDS: ReadonlySet<string> = new Set(
  MODEL_FORM_STEPS.flatMap(step => step.fields),
);

/** The model form's fields: labels, and what the Model schema says of each. @public */
export const MODEL_FORM = describeFormFields(ModelSchema, {
  cluster: {
    label: 'Cluster',
    schemaPath: null,
    input: 'select',
    help: 'Where the files are kept.',
  },
  'metadata.namespace': {
    label: 'Namespace',
    help: 'Only pods in this namespace can mount the model.',
  },
  'metadata.name': {
    label: 'Model name',
    help: `Up to ${MAX_MODEL_NAME_LENGTH} lower-case letters, digits and '-'; the PVC is model-<name>.`,
  },
  sourceType: {
    label: 'Source',
    schemaPath: 'spec.source',
    input: 'select',
    options: [
      { value: 'huggingface', label: 'Hugging Face Hub' },
      { value: 's3', label: 'S3 or S3-compatible storage' },
      { value: 'url', label: 'URL (one file over HTTP)' },
    ],
  },
  'spec.source.huggingFace.repoId': { label: 'Repository' },
  'spec.source.huggingFace.revision': { label: 'Revision' },
  'spec.source.s3.bucket': { label: 'Bucket' },
  'spec.source.s3.key': { label: 'Key or prefix' },
  'spec.source.s3.endpoint': { label: 'Endpoint', moreHelp: 'Empty for AWS.' },
  'spec.source.s3.region': { label: 'Region' },
  'spec.source.url.url': { label: 'URL' },
  'spec.credentialsSecret': {
    label: 'Credentials Secret',
    moreHelp: 'The portal never reads its values.',
  },
  'spec.version': { label: 'Version' },
  'spec.storage.storageClass': { label: 'Storage class' },
  'spec.storage.size': { label: 'Size' },
  'spec.storage.accessModes': {
    label: 'Access modes',
    moreHelp:
      'ReadOnlyMany or ReadWriteMany lets pods on several nodes mount it.',
  },
  nodeSelector: {
    label: 'Node selector of the download Job',
    schemaPath: 'spec.nodeSelector',
    // The label says it all.
    help: '',
    rowLabels: { key: 'Node label', value: 'Node label value' },
  },
  labels: {
    label: 'Model labels',
    schemaPath: 'metadata.labels',
    help: '',
    input: 'keyValue',
    rowLabels: { key: 'Label', value: 'Label value' },
  },
});

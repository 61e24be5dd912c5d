/**
 * The stack form's sections and fields, written once (as `models/form.ts`
 * is for the model form): the portal lays its one page out from
 * `STACK_FORM_SECTIONS` and renders each field from `STACK_FORM` (help,
 * options and input kind from the LlamaStackDistribution v1alpha2 schema).
 * Fields of a provider or model row are named without the row
 * (`provider.endpoint`); the form puts them in each row. `form.test.ts`
 * checks every path against the schema.
 */
import { describeFormFields, type FormStep, onOffSelect } from '../schema/form';
import { StackV1alpha2Schema } from './v1alpha2';

/** @public */
export interface StackFormSection extends FormStep {
  help?: string;
}

/** The stack form's steps: the whole stack on one page, then the dry run. @public */
export const STACK_FORM_STEPS = ['Stack', 'Dry-run preview'] as const;

/** @public */
export const STACK_FORM = describeFormFields(StackV1alpha2Schema, {
  cluster: {
    label: 'Cluster',
    schemaPath: null,
    input: 'select',
    help: "Where the stack runs; its providers can use that cluster's running deployments.",
  },
  'metadata.namespace': { label: 'Namespace' },
  'metadata.name': {
    label: 'Stack name',
    help: "Lower-case letters, digits and '-'.",
  },
  'ui.distributionSource': {
    label: 'Distribution source',
    schemaPath: 'spec.distribution',
    help: '',
    input: 'select',
    options: [
      { value: 'name', label: "The operator's distributions" },
      { value: 'image', label: 'An image' },
    ],
  },
  'spec.distribution.name': { label: 'Distribution', help: '' },
  'spec.distribution.image': {
    label: 'Distribution image',
    help: 'e.g. docker.io/llamastack/distribution-starter:0.4.0',
  },
  'provider.provider': {
    label: 'type',
    schemaPath: 'spec.providers.inference.provider',
    help: 'e.g. vllm, ollama, openai (remote::<type>), inline::llama-guard',
  },
  'provider.id': {
    label: 'id',
    schemaPath: 'spec.providers.inference.id',
    help: 'Optional with one provider (defaults to the type).',
  },
  'provider.endpoint': {
    label: 'endpoint',
    schemaPath: 'spec.providers.inference.endpoint',
    help: "The provider's URL, e.g. http://vllm.default.svc:8000/v1",
  },
  'provider.apiKey.secretKeyRef.name': {
    label: 'API key Secret',
    schemaPath: 'spec.providers.inference.apiKey.secretKeyRef.name',
    help: "A Secret in the stack's namespace; the portal never reads its value.",
  },
  'provider.apiKey.secretKeyRef.key': {
    label: 'API key Secret key',
    schemaPath: 'spec.providers.inference.apiKey.secretKeyRef.key',
    help: '',
  },
  'model.name': {
    label: 'name',
    schemaPath: 'spec.resources.models.name',
    help: 'The name the provider serves.',
  },
  'model.provider': {
    label: 'provider id',
    schemaPath: 'spec.resources.models.provider',
    help: 'Empty: the first inference provider.',
  },
  'model.contextLength': {
    label: 'context length',
    schemaPath: 'spec.resources.models.contextLength',
    help: '',
  },
  'ui.tools': {
    label: 'Tools',
    schemaPath: 'spec.resources.tools',
    input: 'text',
    help: 'Comma-separated, e.g. websearch, rag (builtin::<name> tool groups; need a tool runtime provider).',
  },
  'ui.shields': {
    label: 'Shields',
    schemaPath: 'spec.resources.shields',
    input: 'text',
    help: 'Comma-separated shield ids (need a safety provider).',
  },
  'spec.storage.kv.type': {
    label: 'Key-value store',
    help: '',
    emptyOption: "Distribution's default",
  },
  'spec.storage.kv.endpoint': {
    label: 'Redis endpoint',
    help: 'e.g. redis://redis.default.svc:6379',
  },
  'spec.storage.kv.password.secretKeyRef.name': {
    label: 'Redis password Secret',
    help: '',
  },
  'spec.storage.kv.password.secretKeyRef.key': {
    label: 'Redis password Secret key',
    help: '',
  },
  'spec.storage.sql.type': {
    label: 'SQL store',
    help: '',
    emptyOption: "Distribution's default",
  },
  'spec.storage.sql.connectionString.secretKeyRef.name': {
    label: 'Postgres connection string Secret',
    help: '',
  },
  'spec.storage.sql.connectionString.secretKeyRef.key': {
    label: 'Postgres connection string Secret key',
    help: '',
  },
  'spec.networking.port': { label: 'Server port', help: 'Default 8321.' },
  'ui.tlsEnabled': {
    label: 'TLS',
    schemaPath: 'spec.networking.tls.enabled',
    help: '',
    ...onOffSelect('Off (default)'),
  },
  'spec.networking.tls.secretName': {
    label: 'TLS Secret',
    help: "A kubernetes.io/tls Secret in the stack's namespace.",
  },
  'ui.expose': {
    label: 'Expose outside the cluster (an Ingress)',
    schemaPath: 'spec.networking.expose',
    help: '',
    input: 'switch',
  },
  'spec.networking.expose.hostname': {
    label: 'Hostname',
    help: "Empty: <name>-<namespace>.<the operator's ingress domain>.",
  },
  'ui.allowedNamespaces': {
    label: 'Allowed namespaces',
    schemaPath: 'spec.networking.allowedFrom.namespaces',
    input: 'text',
    help: 'Comma-separated; * for all. Empty with no labels: no NetworkPolicy.',
  },
  'ui.allowedLabels': {
    label: 'Allowed namespace labels',
    schemaPath: 'spec.networking.allowedFrom.labels',
    input: 'text',
    help: 'Comma-separated label keys of namespaces allowed in.',
  },
  'spec.workload.replicas': { label: 'Replicas', help: 'Default 1.' },
  'spec.workload.workers': {
    label: 'Server workers',
    help: 'uvicorn workers per pod.',
  },
  'spec.workload.resources.requests.cpu': {
    label: 'CPU request',
    help: 'e.g. 500m',
  },
  'spec.workload.resources.requests.memory': {
    label: 'Memory request',
    help: 'e.g. 1Gi',
  },
  'spec.workload.resources.limits.cpu': { label: 'CPU limit', help: '' },
  'spec.workload.resources.limits.memory': { label: 'Memory limit', help: '' },
  'spec.workload.storage.size': {
    label: 'Persistent storage size',
    help: "e.g. 10Gi; empty keeps the server's state in the pod (emptyDir).",
  },
  'spec.workload.storage.mountPath': {
    label: 'Storage mount path',
    help: 'Default /.llama.',
  },
});

/** @public */
export type StackFormField = keyof typeof STACK_FORM;

/** The sections of the stack's page and the fields each one shows (provider and model rows repeat theirs). @public */
export const STACK_FORM_SECTIONS: readonly (StackFormSection & {
  fields: readonly StackFormField[];
})[] = [
  {
    label: 'Where',
    fields: ['cluster', 'metadata.namespace', 'metadata.name'],
  },
  {
    label: 'Distribution',
    help: 'A distribution the stack operator embeds (an image and the base config.yaml written for it), or your own image (then its config must come from spec.overrideConfig).',
    fields: [
      'ui.distributionSource',
      'spec.distribution.name',
      'spec.distribution.image',
    ],
  },
  {
    label: 'Providers',
    help: 'Each becomes a provider in config.yaml (provider → provider_type remote::…, endpoint → its URL, API key → an env var from the Secret).',
    fields: [
      'provider.provider',
      'provider.id',
      'provider.endpoint',
      'provider.apiKey.secretKeyRef.name',
      'provider.apiKey.secretKeyRef.key',
    ],
  },
  {
    label: 'Resources',
    help: 'Models, tool groups and shields the server registers at start.',
    fields: [
      'model.name',
      'model.provider',
      'model.contextLength',
      'ui.tools',
      'ui.shields',
    ],
  },
  {
    label: 'Storage',
    help: "Where the server keeps its state; unset keeps the distribution's (sqlite in the pod's storage).",
    fields: [
      'spec.storage.kv.type',
      'spec.storage.kv.endpoint',
      'spec.storage.kv.password.secretKeyRef.name',
      'spec.storage.kv.password.secretKeyRef.key',
      'spec.storage.sql.type',
      'spec.storage.sql.connectionString.secretKeyRef.name',
      'spec.storage.sql.connectionString.secretKeyRef.key',
    ],
  },
  {
    label: 'Networking',
    fields: [
      'spec.networking.port',
      'ui.tlsEnabled',
      'spec.networking.tls.secretName',
      'ui.expose',
      'spec.networking.expose.hostname',
      'ui.allowedNamespaces',
      'ui.allowedLabels',
    ],
  },
  {
    label: 'Workload',
    fields: [
      'spec.workload.replicas',
      'spec.workload.workers',
      'spec.workload.resources.requests.cpu',
      'spec.workload.resources.requests.memory',
      'spec.workload.resources.limits.cpu',
      'spec.workload.resources.limits.memory',
      'spec.workload.storage.size',
      'spec.workload.storage.mountPath',
    ],
  },
];

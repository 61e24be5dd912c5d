/**
 * The model form's values and their mapping to a Model. Scalar fields mirror
 * the spec's paths (an issue at `spec.storage.size` lands on the field of
 * that name); the three sources are all kept in the values so switching
 * between them loses nothing, and only the chosen one is written. Pure:
 * validation is runway-common's `validateModel`, the same the API runs.
 */
import {
  dedupeIssues,
  MODEL_API_VERSION,
  MODEL_FORM_FIELDS,
  MODEL_KIND,
  type Model,
  type ModelSourceType,
  modelSourceType,
  validateModel,
} from '@runway-portal/plugin-runway-common';
import {
  type FieldIssue,
  fieldForIssue,
  fromMap,
  type KeyValue,
  prune,
  toMap,
} from './form';

export interface ModelFormValues {
  cluster: string;
  metadata: { name: string; namespace: string };
  /** Labels of the Model (e.g. backstage.io/kubernetes-id for a catalog entity). */
  labels: KeyValue[];
  sourceType: ModelSourceType;
  spec: {
    source: {
      huggingFace: { repoId: string; revision: string };
      s3: { bucket: string; key: string; endpoint: string; region: string };
      url: { url: string };
    };
    storage: { storageClass: string; size: string; accessModes: string[] };
    credentialsSecret: string;
    version: string;
  };
  nodeSelector: KeyValue[];
}

export function emptyModelValues(
  defaults: {
    cluster?: string;
    namespace?: string;
    labels?: Record<string, string>;
    repoId?: string;
  } = {},
): ModelFormValues {
  return {
    cluster: defaults.cluster ?? '',
    metadata: { name: '', namespace: defaults.namespace ?? 'default' },
    labels: fromMap(defaults.labels),
    sourceType: 'huggingface',
    spec: {
      source: {
        huggingFace: { repoId: defaults.repoId ?? '', revision: 'main' },
        s3: { bucket: '', key: '', endpoint: '', region: '' },
        url: { url: '' },
      },
      storage: {
        storageClass: '',
        size: '20Gi',
        accessModes: ['ReadWriteOnce'],
      },
      credentialsSecret: '',
      version: '',
    },
    nodeSelector: [],
  };
}

const text = (value: string | undefined) => {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? undefined : trimmed;
};

/** The Model the form describes: only the chosen source, no empty strings. */
export function toModel(values: ModelFormValues): Model {
  const source = values.spec.source;
  const chosen = {
    huggingface: {
      huggingFace: prune({
        repoId: text(source.huggingFace.repoId) ?? '',
        revision: text(source.huggingFace.revision),
      }),
    },
    s3: {
      s3: prune({
        bucket: text(source.s3.bucket) ?? '',
        key: text(source.s3.key) ?? '',
        endpoint: text(source.s3.endpoint),
        region: text(source.s3.region),
      }),
    },
    url: { url: { url: text(source.url.url) ?? '' } },
  }[values.sourceType];
  const storage = values.spec.storage;
  return {
    apiVersion: MODEL_API_VERSION,
    kind: MODEL_KIND,
    metadata:
      prune({
        name: values.metadata.name.trim(),
        namespace: values.metadata.namespace.trim(),
        labels: toMap(values.labels),
      }) ?? {},
    spec: {
      source: chosen as Model['spec']['source'],
      storage: {
        storageClass: storage.storageClass.trim(),
        size: storage.size.trim(),
        ...(storage.accessModes.length
          ? { accessModes: storage.accessModes as any }
          : {}),
      },
      ...prune({
        credentialsSecret: text(values.spec.credentialsSecret),
        version: text(values.spec.version),
        nodeSelector: toMap(values.nodeSelector),
      }),
    },
  };
}

/** The form values of an existing Model (for editing). */
export function fromModel(cluster: string, model: Model): ModelFormValues {
  const base = emptyModelValues({
    cluster,
    namespace: model.metadata?.namespace,
  });
  const spec = model.spec ?? ({} as Partial<Model['spec']>);
  const source = spec.source ?? {};
  return {
    ...base,
    metadata: {
      name: model.metadata?.name ?? '',
      namespace: model.metadata?.namespace ?? 'default',
    },
    labels: fromMap(model.metadata?.labels),
    sourceType: modelSourceType(source) ?? 'huggingface',
    spec: {
      source: {
        huggingFace: {
          repoId: source.huggingFace?.repoId ?? '',
          revision: source.huggingFace?.revision ?? 'main',
        },
        s3: {
          bucket: source.s3?.bucket ?? '',
          key: source.s3?.key ?? '',
          endpoint: source.s3?.endpoint ?? '',
          region: source.s3?.region ?? '',
        },
        url: { url: source.url?.url ?? '' },
      },
      storage: {
        storageClass: spec.storage?.storageClass ?? '',
        size: spec.storage?.size ?? '',
        accessModes: [...(spec.storage?.accessModes ?? [])],
      },
      credentialsSecret: spec.credentialsSecret ?? '',
      version: spec.version ?? '',
    },
    nodeSelector: fromMap(spec.nodeSelector),
  };
}

export interface ModelFormContext {
  /** Namespaces the cluster opens to the portal; undefined when any. */
  namespaces?: string[];
}

/**
 * Validates the form: runway-common's `validateModel` of the object the form
 * describes, plus what only the form knows (a cluster chosen, the namespace
 * allow-list). Every issue is assigned to a form field.
 */
export function validateModelForm(
  values: ModelFormValues,
  context: ModelFormContext = {},
): FieldIssue[] {
  const model = toModel(values);
  const issues = [...validateModel(model).issues];
  if (!values.cluster)
    issues.push({
      path: 'cluster',
      message: 'choose the cluster to keep the model in',
      severity: 'error',
    });
  const namespace = model.metadata?.namespace;
  if (!namespace) {
    issues.push({
      path: 'metadata.namespace',
      message:
        'metadata.namespace is required: the namespace the model files are kept in (the pods that use them run there)',
      severity: 'error',
    });
  } else if (
    context.namespaces?.length &&
    !context.namespaces.includes(namespace)
  ) {
    issues.push({
      path: 'metadata.namespace',
      message: `namespace ${namespace} is not open to the portal in cluster ${
        values.cluster
      }; choose one of ${context.namespaces.join(', ')}`,
      severity: 'error',
    });
  }
  if (!model.metadata?.name)
    issues.push({
      path: 'metadata.name',
      message:
        'metadata.name is required: lowercase letters, digits and "-", e.g. "llama-3-8b"',
      severity: 'error',
    });
  return dedupeIssues(issues).map(issue => ({
    ...issue,
    // The one-source rule cannot fail from the form (it writes one); its message belongs to the source choice.
    field:
      issue.path === 'spec.source'
        ? 'sourceType'
        : fieldForIssue(issue.path, MODEL_FORM_FIELDS),
  }));
}

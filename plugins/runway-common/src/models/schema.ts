/**
 * `Model` (models.airunway.ai/v1alpha1), seed 003: model files downloaded
 * from HuggingFace, S3 or a URL into a PVC by a Job. This is the only
 * description of the resource: the CRD, the generated types and the
 * structural checks all derive from it.
 */
import { Type } from '@sinclair/typebox';
// DNS-1123 subdomain (a Secret name) and label (a Model name: it becomes part of a volume name).
import { DNS_LABEL_PATTERN, DNS_SUBDOMAIN_PATTERN } from '../schema/names';
import {
  ConditionList,
  Int64,
  StringEnum,
  StringMap,
  celRules,
  typeMetaProperties,
} from '../schema';

/** @public */
export const MODEL_GROUP = 'models.airunway.ai';
/** @public */
export const MODEL_VERSION = 'v1alpha1';
/** @public */
export const MODEL_API_VERSION = `${MODEL_GROUP}/${MODEL_VERSION}`;
/** @public */
export const MODEL_KIND = 'Model';

/** Seed 003's patterns, shared with the validator's messages. @public */
export const HUGGINGFACE_REPO_ID_PATTERN = '^[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+$';
/** @public */
export const HTTP_URL_PATTERN = '^https?://';
/** @public */
export const STORAGE_SIZE_PATTERN = '^[0-9]+[KMGTPE]i?$';

/**
 * The longest Model name: the download Job is `model-download-<name>` and a
 * Job name must fit in a 63-character label value (`job-name`).
 *
 * @public
 */
export const MAX_MODEL_NAME_LENGTH = 63 - 'model-download-'.length;

/** @public */
export const MODEL_PHASES = [
  'Pending',
  'Downloading',
  'Ready',
  'Failed',
] as const;
/** @public */
export type ModelPhase = (typeof MODEL_PHASES)[number];

/** @public */
export const ACCESS_MODES = [
  'ReadWriteOnce',
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOncePod',
] as const;

/** @public */
export const HuggingFaceSourceSchema = Type.Object(
  {
    repoId: Type.String({
      description:
        'HuggingFace repository ID, e.g. "meta-llama/Llama-3.1-8B-Instruct".',
      pattern: HUGGINGFACE_REPO_ID_PATTERN,
      errorMessage:
        'must be a HuggingFace repository ID of the form "owner/name", e.g. "meta-llama/Llama-3.1-8B-Instruct"',
    }),
    revision: Type.Optional(
      Type.String({
        description: 'Git revision: branch, tag or commit hash.',
        default: 'main',
      }),
    ),
  },
  { description: 'Download from the HuggingFace Hub.' },
);

/** @public */
export const URLSourceSchema = Type.Object(
  {
    url: Type.String({
      description: 'Direct HTTP or HTTPS download URL.',
      pattern: HTTP_URL_PATTERN,
      errorMessage: 'must be an http:// or https:// URL',
    }),
  },
  { description: 'Download one file over HTTP(S).' },
);

/** @public */
export const S3SourceSchema = Type.Object(
  {
    bucket: Type.String({ description: 'Bucket name.', minLength: 1 }),
    key: Type.String({
      description: 'Object key or prefix (copied recursively).',
      minLength: 1,
    }),
    endpoint: Type.Optional(
      Type.String({
        description: 'Endpoint of S3-compatible storage such as MinIO.',
        pattern: HTTP_URL_PATTERN,
        errorMessage:
          'must be an http:// or https:// URL, e.g. "https://minio.example.com"',
      }),
    ),
    region: Type.Optional(Type.String({ description: 'AWS region.' })),
  },
  { description: 'Download from S3 or S3-compatible storage.' },
);

/** The CEL rule that makes `source` a union: also checked by `validateModel`. @public */
export const EXACTLY_ONE_SOURCE_RULE = {
  rule: '[has(self.huggingFace), has(self.url), has(self.s3)].filter(x, x).size() == 1',
  message:
    'spec.source must set exactly one of huggingFace, s3 or url: remove the others, or add one if none is set',
  reason: 'FieldValueInvalid' as const,
};

/** @public */
export const ModelSourceSchema = Type.Object(
  {
    huggingFace: Type.Optional(HuggingFaceSourceSchema),
    url: Type.Optional(URLSourceSchema),
    s3: Type.Optional(S3SourceSchema),
  },
  {
    description:
      'Where to download the model from: exactly one of huggingFace, url or s3.',
    ...celRules(EXACTLY_ONE_SOURCE_RULE),
  },
);

/** @public */
export const ModelStorageSchema = Type.Object(
  {
    storageClass: Type.String({
      description: 'StorageClass of the PVC, e.g. "longhorn" or "gp3".',
      minLength: 1,
    }),
    size: Type.String({
      description: 'Size of the PVC, e.g. "20Gi".',
      pattern: STORAGE_SIZE_PATTERN,
      errorMessage:
        'must be a whole number followed by a unit K, M, G, T, P or E (optionally with "i"), e.g. "20Gi"',
    }),
    accessModes: Type.Optional(
      Type.Array(StringEnum(ACCESS_MODES), {
        description: 'Access modes of the PVC.',
        default: ['ReadWriteOnce'],
      }),
    ),
  },
  { description: 'The PVC the model files are stored in.' },
);

/** @public */
export const ModelSpecSchema = Type.Object(
  {
    source: ModelSourceSchema,
    storage: ModelStorageSchema,
    version: Type.Optional(
      Type.String({ description: 'Version identifier, for tracking only.' }),
    ),
    credentialsSecret: Type.Optional(
      Type.String({
        description:
          'Secret with credentials: key HF_TOKEN for HuggingFace; AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for S3.',
        maxLength: 253,
        pattern: DNS_SUBDOMAIN_PATTERN,
        errorMessage:
          'must be the name of a Secret in the same namespace (lowercase letters, digits, "-" and ".")',
      }),
    ),
    nodeSelector: Type.Optional(
      StringMap({ description: 'Node selector of the download Job.' }),
    ),
  },
  { description: 'What to download and where to keep it.' },
);

/** @public */
export const ModelDownloadProgressSchema = Type.Object(
  {
    bytesDownloaded: Type.Optional(
      Int64({ minimum: 0, description: 'Bytes written so far.' }),
    ),
    totalBytes: Type.Optional(
      Int64({
        minimum: 0,
        description: 'Total size when the source reports it.',
      }),
    ),
    bytesPerSecond: Type.Optional(
      Int64({ minimum: 0, description: 'Recent download speed.' }),
    ),
    remainingSeconds: Type.Optional(
      Int64({
        minimum: 0,
        description: 'Estimated time left, when the total is known.',
      }),
    ),
  },
  {
    description:
      'Byte-level download progress, when the downloader reports it.',
  },
);

/** @public */
export const ModelStatusSchema = Type.Object(
  {
    phase: Type.Optional(
      StringEnum(MODEL_PHASES, {
        description: 'Pending, Downloading, Ready or Failed.',
      }),
    ),
    pvcName: Type.Optional(
      Type.String({ description: 'Name of the PVC holding the files.' }),
    ),
    message: Type.Optional(
      Type.String({ description: 'Human-readable status message.' }),
    ),
    progress: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'Download progress in percent.',
      }),
    ),
    download: Type.Optional(ModelDownloadProgressSchema),
    conditions: Type.Optional(ConditionList()),
    observedGeneration: Type.Optional(
      Int64({ description: 'The .metadata.generation this status describes.' }),
    ),
  },
  { description: 'Observed state of the Model.' },
);

/**
 * The rule that keeps derived object names (Job, PVC, volume) valid. Only
 * the root of a CRD schema can see metadata.name, and the API server does not
 * accept `fieldPath: .metadata.name` there, so the rule sits at the root.
 *
 * @public
 */
export const MODEL_NAME_RULE = {
  rule: `self.metadata.name.size() <= ${MAX_MODEL_NAME_LENGTH} && self.metadata.name.matches('${DNS_LABEL_PATTERN}')`,
  message: `metadata.name must be at most ${MAX_MODEL_NAME_LENGTH} characters of lowercase letters, digits and "-", starting and ending with a letter or digit, because the download Job is named model-download-<name>`,
  reason: 'FieldValueInvalid' as const,
};

/** @public */
export const ModelSchema = Type.Object(
  {
    ...typeMetaProperties(),
    spec: ModelSpecSchema,
    status: Type.Optional(ModelStatusSchema),
  },
  {
    $id: 'Model',
    description:
      'Model files downloaded from HuggingFace, S3 or a URL into a PersistentVolumeClaim.',
    ...celRules(MODEL_NAME_RULE),
  },
);

/** @public */
export type ModelSourceType = 'huggingface' | 's3' | 'url';

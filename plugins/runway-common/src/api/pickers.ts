/**
 * The answers of the form pickers' routes (part of the REST contract; see
 * contract.ts): the storage classes of a cluster, and the names of the
 * Secrets of a namespace (names only: the portal never reads a Secret's
 * data, it asks the API server for metadata).
 */
import { type Static, Type } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;

/** @public */
export const StorageClassSummarySchema = Type.Object(
  {
    name: Type.String(),
    provisioner: Type.String(),
    isDefault: Type.Boolean({
      description:
        'Annotated storageclass.kubernetes.io/is-default-class=true: what a PVC without a class gets.',
    }),
  },
  { $id: 'StorageClassSummary', ...closed },
);
/** @public */
export type StorageClassSummary = Static<typeof StorageClassSummarySchema>;

/** @public */
export const StorageClassesAnswerSchema = Type.Object(
  {
    cluster: Type.String(),
    items: Type.Array(StorageClassSummarySchema, {
      description: 'Sorted by name; the default class first.',
    }),
  },
  { $id: 'StorageClasses', ...closed },
);
/** @public */
export type StorageClassesAnswer = Static<typeof StorageClassesAnswerSchema>;

/** @public */
export const SecretNamesAnswerSchema = Type.Object(
  {
    cluster: Type.String(),
    namespace: Type.String(),
    items: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          type: Type.Optional(
            Type.String({
              description:
                'The Secret type (Opaque, kubernetes.io/tls, ...) when the server reports it in metadata.',
            }),
          ),
        },
        closed,
      ),
      {
        description:
          'Names only, sorted: the values are never read or returned.',
      },
    ),
  },
  { $id: 'SecretNames', ...closed },
);
/** @public */
export type SecretNamesAnswer = Static<typeof SecretNamesAnswerSchema>;

/** @public */
export const HubModelSummarySchema = Type.Object(
  {
    id: Type.String({ description: 'Repository id, owner/name.' }),
    parameters: Type.Optional(
      Type.Number({ description: 'Parameter count (safetensors metadata).' }),
    ),
    sizeBytes: Type.Optional(
      Type.Number({ description: 'Bytes stored in the repository.' }),
    ),
    license: Type.Optional(Type.String()),
    gated: Type.Boolean({
      description: 'Downloads need an accepted license and HF_TOKEN.',
    }),
    downloads: Type.Optional(Type.Number()),
    pipelineTag: Type.Optional(Type.String()),
  },
  { $id: 'HubModelSummary', ...closed },
);
/** @public */
export type HubModelSummary = Static<typeof HubModelSummarySchema>;

/** @public */
export const HubSearchAnswerSchema = Type.Object(
  {
    endpoint: Type.String({
      description:
        'The hub searched: HF_ENDPOINT of the backend, as the downloader uses it.',
    }),
    items: Type.Array(HubModelSummarySchema),
  },
  { $id: 'HubSearch', ...closed },
);
/** @public */
export type HubSearchAnswer = Static<typeof HubSearchAnswerSchema>;

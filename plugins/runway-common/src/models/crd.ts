/** The Model CRD (seed 003's printer columns, short name `mdl`, status subresource). */
import type { CrdDefinition } from '../crd/definition';
import { MODEL_GROUP, MODEL_VERSION, ModelSchema } from './schema';

/** @public */
export const modelCrd: CrdDefinition = {
  group: MODEL_GROUP,
  names: {
    kind: 'Model',
    listKind: 'ModelList',
    plural: 'models',
    singular: 'model',
    shortNames: ['mdl'],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: MODEL_VERSION,
      served: true,
      storage: true,
      schema: ModelSchema,
      subresources: { status: true },
      printerColumns: [
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Version', type: 'string', jsonPath: '.spec.version' },
        { name: 'Size', type: 'string', jsonPath: '.spec.storage.size' },
        {
          name: 'Progress',
          type: 'integer',
          jsonPath: '.status.progress',
          priority: 1,
        },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
};

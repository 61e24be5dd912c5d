/**
 * Defaults of a Model: the ones its schema declares (`revision: main`,
 * `accessModes: [ReadWriteOnce]`), applied the way the API server applies
 * the CRD's defaults, so a form and a controller see the object as the
 * cluster will store it.
 */
import { applySchemaDefaults } from '../schema';
import type { Model } from '../generated/model';
import { ModelSchema } from './schema';

/** Returns a copy of the Model with every default filled in; the input is not changed. @public */
export function defaultModel<T extends Model>(model: T): T {
  return applySchemaDefaults(ModelSchema, model);
}

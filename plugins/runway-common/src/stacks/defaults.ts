/**
 * Defaults of a LlamaStackDistribution: the ones the schemas declare, applied
 * as the API server applies the CRD's defaults (v1alpha2: port 8321 (FR-060),
 * one replica, `/.llama` mount path, sqlite stores when a store is given
 * without type (FR-050b, FR-051a); v1alpha1: upstream's defaults).
 */
import { applySchemaDefaults } from '../schema';
import type {
  LlamaStackDistributionV1alpha1,
  LlamaStackDistributionV1alpha2,
} from '../generated/llamaStackDistribution';
import { StackV1alpha1Schema } from './v1alpha1';
import { StackV1alpha2Schema } from './v1alpha2';

/** A defaulted copy of a wire-form v1alpha2 object; the input is not changed. @public */
export function defaultStackV1alpha2<T extends LlamaStackDistributionV1alpha2>(
  stack: T,
): T {
  return applySchemaDefaults(StackV1alpha2Schema, stack);
}

/** A defaulted copy of a v1alpha1 object; the input is not changed. @public */
export function defaultStackV1alpha1<T extends LlamaStackDistributionV1alpha1>(
  stack: T,
): T {
  return applySchemaDefaults(StackV1alpha1Schema, stack);
}

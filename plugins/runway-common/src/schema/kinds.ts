/**
 * TypeBox building blocks for Kubernetes-shaped schemas. Each returns a plain
 * JSON Schema object that is also valid in a CRD's structural
 * `openAPIV3Schema`: enums use `enum` (not `anyOf` of consts), int-or-string
 * uses `x-kubernetes-int-or-string`, free-form objects use
 * `x-kubernetes-preserve-unknown-fields`. Runtime checks for the custom kinds
 * are registered with TypeBox here, once, when this module loads.
 */
import {
  FormatRegistry,
  Kind,
  type SchemaOptions,
  type Static,
  type TObject,
  type TSchema,
  type TUnsafe,
  Type,
  TypeRegistry,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { QUANTITY_PATTERN } from './quantity';
import { isRecord } from './json';

/** @public */
export const STRING_ENUM_KIND = 'RunwayStringEnum';
/** @public */
export const INT_OR_STRING_KIND = 'RunwayIntOrString';
/** @public */
export const FREE_FORM_KIND = 'RunwayFreeForm';
/** @public */
export const NAME_OR_OBJECT_KIND = 'RunwayNameOrObject';

const quantityRe = new RegExp(QUANTITY_PATTERN);

function registerOnce(
  kind: string,
  check: (schema: any, value: unknown) => boolean,
) {
  if (!TypeRegistry.Has(kind)) TypeRegistry.Set(kind, check);
}

registerOnce(
  STRING_ENUM_KIND,
  (schema: { enum: string[] }, value) =>
    typeof value === 'string' && schema.enum.includes(value),
);
registerOnce(INT_OR_STRING_KIND, (schema: { pattern?: string }, value) => {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value !== 'string') return false;
  if (schema.pattern === QUANTITY_PATTERN) return quantityRe.test(value);
  return schema.pattern ? new RegExp(schema.pattern).test(value) : true;
});
registerOnce(FREE_FORM_KIND, (_schema, value) => isRecord(value));
registerOnce(
  NAME_OR_OBJECT_KIND,
  (schema: { anyOf: [{ enum: string[] }, TObject] }, value) =>
    typeof value === 'string'
      ? schema.anyOf[0].enum.includes(value)
      : isRecord(value) && Value.Check(schema.anyOf[1], value),
);

// RFC 3339 date-time, as metav1.Time serialises it.
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', value =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(
      value,
    ),
  );
}

/** A string restricted to the given values; rendered as `enum` in the CRD. @public */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({
    ...options,
    [Kind]: STRING_ENUM_KIND,
    type: 'string',
    enum: [...values],
  });
}

/** An integer or a string (`x-kubernetes-int-or-string`), e.g. a port name or number. @public */
export function IntOrString(
  options: SchemaOptions = {},
): TUnsafe<number | string> {
  return Type.Unsafe<number | string>({
    ...options,
    [Kind]: INT_OR_STRING_KIND,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  });
}

/** A Kubernetes resource quantity such as `4`, `500m` or `16Gi`. @public */
export function Quantity(
  options: SchemaOptions = {},
): TUnsafe<number | string> {
  return IntOrString({ pattern: QUANTITY_PATTERN, ...options });
}

/** An object whose content is not described (kept as is by the API server). @public */
export function FreeForm(
  options: SchemaOptions = {},
): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({
    ...options,
    [Kind]: FREE_FORM_KIND,
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  });
}

/**
 * A list item written either as a name (`vllm`) or as an object
 * (`{name: vllm, gpuSupport: true}`), as seed 000's flat
 * InferenceProviderConfig form and upstream's per-engine form write
 * `capabilities.engines[]`. A structural schema cannot say "string or
 * object", so the CRD renders the item as `x-kubernetes-preserve-unknown-fields`
 * without a type (the API server keeps it as is) and the checks are ours: a
 * name must be one of `names`, an object must match `object`
 * (`structuralIssues` reports the object's own fields). The `anyOf` is for
 * JSON Schema readers (the OpenAPI document, the generated type). Normalise
 * to the object form in code before reading it.
 *
 * @public
 */
export function NameOrObject<
  const N extends readonly string[],
  T extends TObject,
>(
  names: N,
  object: T,
  options: SchemaOptions = {},
): TUnsafe<N[number] | Static<T>> {
  return Type.Unsafe<N[number] | Static<T>>({
    ...options,
    [Kind]: NAME_OR_OBJECT_KIND,
    'x-kubernetes-preserve-unknown-fields': true,
    anyOf: [{ type: 'string', enum: [...names] }, object],
  });
}

/** A map of string to string (labels, annotations, engine args). @public */
export function StringMap(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), Type.String(), options);
}

/** A metav1.Time: an RFC 3339 timestamp string. @public */
export function DateTime(options: SchemaOptions = {}) {
  return Type.String({ format: 'date-time', ...options });
}

/** Integer formats Kubernetes understands (`int32`, `int64`). @public */
export function Int32(options: SchemaOptions = {}) {
  return Type.Integer({ format: 'int32', ...options });
}

/** @public */
export function Int64(options: SchemaOptions = {}) {
  return Type.Integer({ format: 'int64', ...options });
}

/** A CEL rule attached to a schema node (`x-kubernetes-validations`). @public */
export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?:
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** Options helper: `Type.Object({...}, celRules({ rule, message }))`. @public */
export function celRules(...rules: CelRule[]): {
  'x-kubernetes-validations': CelRule[];
} {
  return { 'x-kubernetes-validations': rules };
}

/** Returns true when a schema is one of this module's custom kinds. @public */
export function isCustomKind(schema: TSchema): boolean {
  const kind = (schema as unknown as Record<symbol, unknown>)[Kind];
  return (
    kind === STRING_ENUM_KIND ||
    kind === INT_OR_STRING_KIND ||
    kind === FREE_FORM_KIND ||
    kind === NAME_OR_OBJECT_KIND
  );
}

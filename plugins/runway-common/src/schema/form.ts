/**
 * What a portal form shows of a resource, derived from the resource's
 * TypeBox schema so a new field is one edit: its help is the schema's
 * description, a select's options are the schema's enum, a number field is
 * the schema's integer, and whether it is required is the parent's
 * `required`. The form states only what the schema cannot: the label, the
 * form field's name when it is not the schema path (a text list, a
 * tri-state select), and help the schema has no words for.
 */
import type { TSchema } from '@sinclair/typebox';

/** How a field is edited. @public */
export type FormInput =
  | 'text'
  | 'number'
  | 'select'
  | 'multiselect'
  | 'switch'
  | 'keyValue'
  | 'yaml';

/** @public */
export interface FormOption {
  value: string;
  label: string;
}

/** A step of a stepped form, or a section of a one-page form. @public */
export interface FormStep {
  label: string;
  /** Fields validated before leaving the step. */
  fields: readonly string[];
}

/** One field of a form, as the field renderer reads it. @public */
export interface FormFieldSpec {
  /** The form field's name (react-hook-form's dotted path). */
  name: string;
  /** The resource's field it writes (`spec.storage.size`); undefined for form-only fields (`cluster`). */
  schemaPath?: string;
  label: string;
  help?: string;
  input: FormInput;
  options?: readonly FormOption[];
  /** Shown for the empty value of a select of an optional field ("Automatic"). */
  emptyOption?: string;
  /** A key/value list's labels of one row's parts ("Node label", "Node label value"). */
  rowLabels?: { key: string; value: string };
  required: boolean;
}

/** What a form states about a field; the rest comes from the schema. @public */
export interface FormFieldInput {
  label: string;
  /** The resource's field, when the form field has another name; `null` for form-only fields. */
  schemaPath?: string | null;
  /** Replaces the schema's description. */
  help?: string;
  /** Added after the schema's description. */
  moreHelp?: string;
  input?: FormInput;
  /** Replaces the schema enum's options (labels other than the values). */
  options?: readonly FormOption[];
  emptyOption?: string;
  rowLabels?: { key: string; value: string };
}

/** The schema node at a dotted path, and whether its parent requires it; undefined when the schema has no such field. @public */
export function schemaAt(
  root: TSchema,
  path: string,
): { node: TSchema; required: boolean } | undefined {
  let node: any = root;
  let required = true;
  for (const key of path.split('.')) {
    const parent = node?.type === 'array' ? node.items : node;
    // A map (`requests.cpu`) takes any key; so does a free-form object.
    const map = parent?.properties
      ? undefined
      : (typeof parent?.additionalProperties === 'object'
          ? parent.additionalProperties
          : undefined) ?? Object.values(parent?.patternProperties ?? {})[0];
    const freeForm =
      !parent?.properties &&
      parent?.['x-kubernetes-preserve-unknown-fields'] === true;
    const next =
      parent?.properties?.[key] ?? map ?? (freeForm ? {} : undefined);
    if (next === undefined) return undefined;
    required = (parent.required ?? []).includes(key);
    node = next;
  }
  return { node, required };
}

function inputOf(node: any): FormInput {
  if (Array.isArray(node?.enum)) return 'select';
  if (node?.type === 'array' && Array.isArray(node.items?.enum))
    return 'multiselect';
  if (node?.type === 'integer' || node?.type === 'number') return 'number';
  if (node?.type === 'boolean') return 'switch';
  if (
    node?.type === 'object' &&
    !node.properties &&
    (node.additionalProperties || node.patternProperties)
  )
    return 'keyValue';
  return 'text';
}

function enumOptions(node: any): FormOption[] | undefined {
  const values = node?.enum ?? node?.items?.enum;
  return Array.isArray(values)
    ? values.map((v: unknown) => ({ value: String(v), label: String(v) }))
    : undefined;
}

/**
 * The fields of a form, keyed by form field name: each spec's schema path
 * (its name unless stated) is looked up in `root` (the resource schema,
 * `metadata` and `spec` at its top). Throws naming the field when the
 * schema has no such path, so a renamed schema field fails at load and in
 * the form's unit test.
 *
 * @public
 */
export function describeFormFields<K extends string>(
  root: TSchema,
  fields: Record<K, FormFieldInput>,
): Record<K, FormFieldSpec> {
  const out = {} as Record<K, FormFieldSpec>;
  for (const name of Object.keys(fields) as K[]) {
    const given = fields[name];
    const schemaPath =
      given.schemaPath === null ? undefined : given.schemaPath ?? name;
    const found = schemaPath ? schemaAt(root, schemaPath) : undefined;
    if (schemaPath && !found)
      throw new Error(
        `form field ${name}: the schema has no field ${schemaPath}; rename it to a field of the schema or set schemaPath: null for a form-only field`,
      );
    const node: any = found?.node;
    const description =
      typeof node?.description === 'string' ? node.description : undefined;
    const help =
      (given.help ?? [description, given.moreHelp].filter(Boolean).join(' ')) ||
      undefined;
    out[name] = {
      name,
      schemaPath,
      label: given.label,
      help,
      input: given.input ?? inputOf(node),
      options: given.options ?? enumOptions(node),
      emptyOption: given.emptyOption,
      rowLabels: given.rowLabels,
      required: found?.required ?? false,
    };
  }
  return out;
}

/**
 * A boolean edited as a select of On, Off and an empty choice that leaves
 * it unset (`unset` says what happens then: the controller's default).
 *
 * @public
 */
export function onOffSelect(
  unset: string,
  off: string = 'Off',
): Pick<FormFieldInput, 'input' | 'emptyOption' | 'options'> {
  return {
    input: 'select',
    emptyOption: unset,
    options: [
      { value: 'true', label: 'On' },
      { value: 'false', label: off },
    ],
  };
}

/**
 * The form fields that edit a resource field under another name (a map or
 * list edited as rows: `env` writes `spec.env`), and the field each writes:
 * an issue at or under that path belongs to that form field.
 *
 * @public
 */
export function editorPaths(
  fields: Record<string, FormFieldSpec>,
): Record<string, string> {
  return Object.fromEntries(
    Object.values(fields).flatMap(f =>
      f.schemaPath && f.schemaPath !== f.name ? [[f.name, f.schemaPath]] : [],
    ),
  );
}

/**
 * What the Runway scaffolder pickers share: where the sibling fields point
 * (cluster, and for some the namespace), the list fetched there, the help
 * line's waiting/loading/error/empty states, the select with a no-longer-listed
 * value kept visible, and the validator's fresh re-check. Each picker adds
 * only what it lists and how it shows one entry.
 */
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useApi, type ApiHolder } from '@backstage/core-plugin-api';
import {
  makeFieldSchema,
  type CustomFieldValidator,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { type RunwayApi, runwayApiRef } from '../../api/RunwayApi';

/**
 * The sibling fields a Runway picker reads (its ui:options): the cluster's,
 * default "cluster", and for some the namespace's. A type, not an
 * interface, so the field extensions' ui:options type is inferred from it.
 *
 * @public
 */
export type RunwayPickerOptions = {
  clusterField?: string;
  namespaceField?: string;
};

/** A Runway picker's validation. @public */
export type RunwayPickerValidator<V> = CustomFieldValidator<
  V,
  RunwayPickerOptions
>;

/** Where the sibling fields point, read the same way by a field and its validation. */
export interface PickerScope {
  clusterField: string;
  namespaceField?: string;
  cluster?: string;
  namespace?: string;
}

/** A scope with its cluster chosen: what a list is fetched for. */
export type ChosenScope = PickerScope & { cluster: string };

export const DEFAULT_CLUSTER_FIELD = 'cluster';

type Zod = Parameters<Parameters<typeof makeFieldSchema>[0]['output']>[0];

/** The `clusterField` ui:option every cluster-scoped picker documents. */
export const clusterFieldOption = (z: Zod) =>
  z
    .string()
    .optional()
    .describe(
      'The form field holding the cluster (a RunwayClusterPicker); default "cluster"',
    );

export function pickerScope(
  options: RunwayPickerOptions | undefined,
  formData: Record<string, unknown> | undefined,
): PickerScope {
  const clusterField = options?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const namespaceField = options?.namespaceField;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    clusterField,
    namespaceField,
    cluster: text(formData?.[clusterField]),
    namespace: namespaceField ? text(formData?.[namespaceField]) : undefined,
  };
}

export const where = ({ cluster, namespace }: PickerScope) =>
  namespace
    ? `namespace ${namespace} of cluster ${cluster ?? '?'}`
    : `cluster ${cluster ?? '?'}`;

/** What a picker lists in the scope its sibling fields name. */
export interface ScopedSource<T> {
  /** What the list holds, plural, for messages ("storage classes"). */
  noun: string;
  load(api: RunwayApi, scope: ChosenScope): Promise<T[]>;
}

/** The scope of a field and its list, fetched again when the scope changes. */
export function useScopedList<T>(
  source: ScopedSource<T>,
  props: FieldExtensionComponentProps<any, RunwayPickerOptions>,
) {
  const api = useApi(runwayApiRef);
  const scope = pickerScope(
    props.uiSchema?.['ui:options'],
    props.formContext?.formData,
  );
  const { cluster, namespace } = scope;
  const list = useAsync(
    async () =>
      cluster ? source.load(api, { ...scope, cluster, namespace }) : undefined,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, source, cluster, namespace],
  );
  return { scope, list, items: list.value ?? [] };
}

/** The help line: what to choose first, loading, the failure, the empty list, else the chosen entry's facts. */
export function scopedHelp(
  scope: PickerScope,
  list: { loading: boolean; error?: Error; value?: unknown[] },
  texts: {
    noun: string;
    loading?: string;
    empty: string;
    chosen?: string;
    description?: string;
  },
): string | undefined {
  if (!scope.cluster)
    return `Choose a cluster first (form field "${scope.clusterField}")`;
  if (scope.namespaceField && !scope.namespace)
    return `Choose a namespace first (form field "${scope.namespaceField}")`;
  if (list.loading) return texts.loading ?? `Loading the ${texts.noun}…`;
  if (list.error)
    return `Could not list the ${texts.noun} of ${where(scope)}: ${
      list.error.message
    }`;
  if (!list.value?.length) return texts.empty;
  return texts.chosen ?? texts.description;
}

/** One entry of a picker's menu; without `secondary` it is shown as plain text. */
export interface PickerOption {
  value: string;
  primary: string;
  secondary?: string;
  disabled?: boolean;
}

export interface PickerSelectProps {
  field: FieldExtensionComponentProps<any, any>;
  /** The id and label when the template gives none. */
  fallbackId: string;
  fallbackLabel: string;
  value: string;
  options: PickerOption[];
  /** Entries before the stale value (a "none" choice). */
  leading?: PickerOption[];
  /**
   * Why a value that is not among the options is not: such a value stays
   * visible (disabled), so the validation message has something to point at.
   */
  staleWhy: string;
  /** Disabled for the picker's own reasons (besides the form's). */
  blocked?: boolean;
  /** Why the list could not be loaded, if it could not. */
  error?: Error;
  help?: string;
  onPick(value: string): void;
  textField?: Partial<TextFieldProps>;
}

/** The value of the entry whose key is picked (undefined clears the field). */
export const picked = <T extends { ref: string }, V>(
  items: T[],
  ref: string,
  valueOf: (item: T) => V,
): V => {
  const item = items.find(i => i.ref === ref);
  // rjsf clears a field with undefined, which the value's type does not admit.
  return item ? valueOf(item) : (undefined as unknown as V);
};

const menuItem = (o: PickerOption) => (
  <MenuItem key={o.value} value={o.value} disabled={o.disabled}>
    {o.secondary === undefined ? (
      o.primary
    ) : (
      <ListItemText primary={o.primary} secondary={o.secondary} />
    )}
  </MenuItem>
);

/** The select every picker shows. */
export function PickerSelect(props: PickerSelectProps) {
  const { field, value } = props;
  const listed = [...(props.leading ?? []), ...props.options];
  const stale = value !== '' && !listed.some(o => o.value === value);
  return (
    <TextField
      id={field.idSchema?.$id ?? props.fallbackId}
      select
      fullWidth
      margin="normal"
      label={field.schema.title ?? props.fallbackLabel}
      required={field.required}
      disabled={Boolean(field.disabled || field.readonly || props.blocked)}
      value={value}
      onChange={e => props.onPick(e.target.value)}
      error={Boolean(props.error || field.rawErrors?.length)}
      helperText={props.help}
      {...props.textField}
    >
      {(props.leading ?? []).map(menuItem)}
      {stale &&
        menuItem({
          value,
          primary: value,
          secondary: props.staleWhy,
          disabled: true,
        })}
      {props.options.map(menuItem)}
    </TextField>
  );
}

const NOT_INSTALLED =
  'the Runway plugin is not installed in this app; add @runway-portal/plugin-runway';

/** The Runway API for a validator, or the error to report on the field. */
export function apiOrProblem(apiHolder: ApiHolder): RunwayApi | string {
  return apiHolder.get(runwayApiRef) ?? NOT_INSTALLED;
}

/**
 * A validator that needs the cluster its sibling field names: reports a
 * missing cluster or plugin, else runs `check`, whose answer (if any) is the
 * field's error as it is, the label given to it included.
 */
export function scopedValidator<V>(
  fallbackLabel: string,
  check: (
    value: V,
    scope: ChosenScope,
    api: RunwayApi,
    label: string,
  ) => Promise<string | undefined>,
  isEmpty: (value: V | undefined) => boolean = v => !v,
): RunwayPickerValidator<V> {
  return async (value, validation, context) => {
    if (isEmpty(value)) return;
    const { apiHolder, formData, schema, uiSchema } = context as any;
    const label = (schema.title as string | undefined) ?? fallbackLabel;
    const scope = pickerScope(uiSchema?.['ui:options'], formData);
    const { cluster } = scope;
    const api = apiOrProblem(apiHolder);
    let problem: string | undefined;
    if (!cluster)
      problem = `${label}: no cluster chosen in form field "${scope.clusterField}"; choose the cluster first`;
    else if (typeof api === 'string') problem = `${label}: ${api}`;
    else problem = await check(value, { ...scope, cluster }, api, label);
    if (problem) validation.addError(problem);
  };
}

/**
 * A validator that checks the value against a fresh list of the scope
 * (`check` says what is wrong with it, if anything, after the label).
 */
export function listedValidator<V, T>(
  fallbackLabel: string,
  source: ScopedSource<T>,
  check: (value: V, items: T[], scope: ChosenScope) => string | undefined,
  isEmpty?: (value: V | undefined) => boolean,
): RunwayPickerValidator<V> {
  return scopedValidator<V>(
    fallbackLabel,
    async (value, scope, api, label) => {
      let problem: string | undefined;
      try {
        problem = check(value, await source.load(api, scope), scope);
      } catch (e) {
        problem = `could not list the ${source.noun} of ${where(scope)} (${
          (e as Error).message
        }); try again`;
      }
      return problem && `${label}: ${problem}`;
    },
    isEmpty,
  );
}

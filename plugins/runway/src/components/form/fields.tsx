import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FormHelperText from '@mui/material/FormHelperText';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { createContext, type ReactNode, useContext } from 'react';
import {
  Controller,
  get,
  useFieldArray,
  useFormContext,
} from 'react-hook-form';
import type { FormFieldSpec } from '@runway-portal/plugin-runway-common';
import type { FieldIssue } from '../../lib/form';

/** Warnings of the current values, by field (errors come from RHF). */
export const WarningsContext = createContext<FieldIssue[]>([]);

export function useFieldMessages(name: string) {
  const { formState } = useFormContext();
  const error = get(formState.errors, name) as { message?: string } | undefined;
  const warnings = useContext(WarningsContext).filter(w => w.field === name);
  return {
    error: error?.message,
    warning: warnings.map(w => w.message).join('; ') || undefined,
  };
}

export function fieldId(name: string) {
  return `runway-${name.replace(/\./g, '-')}`;
}

/** A text (or select) field bound to the form; its message is the validation's. */
export function FormField(
  props: {
    name: string;
    label: string;
    help?: string;
    options?: Array<{ value: string; label: string }>;
  } & Omit<TextFieldProps, 'name' | 'label'>,
) {
  const { name, label, help, options, ...rest } = props;
  const { control } = useFormContext();
  const { error, warning } = useFieldMessages(name);
  return (
    <Controller
      name={name as any}
      control={control}
      render={({ field }) => (
        <TextField
          {...rest}
          {...field}
          value={field.value ?? ''}
          id={fieldId(name)}
          label={label}
          select={Boolean(options)}
          error={Boolean(error)}
          helperText={error ?? warning ?? help}
          FormHelperTextProps={
            {
              sx: warning && !error ? { color: 'warning.main' } : undefined,
              role: error || warning ? 'alert' : undefined,
            } as any
          }
          fullWidth
          margin="normal"
        >
          {options?.map(o => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** A message for a whole list field (engine args, env, ...). */
export function ListMessage({ name }: { name: string }) {
  const { error, warning } = useFieldMessages(name);
  if (!error && !warning) return null;
  return (
    <FormHelperText
      error={Boolean(error)}
      role="alert"
      sx={warning && !error ? { color: 'warning.main' } : undefined}
    >
      {error ?? warning}
    </FormHelperText>
  );
}

/** Rows of key/value pairs (engine args, env, node selector, pod labels). */
export function KeyValueRows(props: {
  name: string;
  title: string;
  keyLabel: string;
  valueLabel: string;
  help?: ReactNode;
}) {
  const { name, title, keyLabel, valueLabel, help } = props;
  const { control, register } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name });
  return (
    <Stack
      component="fieldset"
      sx={{ border: 0, p: 0, m: 0, mt: 2 }}
      aria-describedby={`${fieldId(name)}-help`}
    >
      <Typography component="legend" variant="subtitle1">
        {title}
      </Typography>
      {help && (
        <Typography
          variant="body2"
          color="text.secondary"
          id={`${fieldId(name)}-help`}
        >
          {help}
        </Typography>
      )}
      {fields.map((row, i) => (
        <Stack direction="row" spacing={1} key={row.id} alignItems="center">
          <TextField
            size="small"
            margin="dense"
            label={`${keyLabel} ${i + 1}`}
            id={`${fieldId(name)}-${i}-key`}
            {...register(`${name}.${i}.key`)}
          />
          <TextField
            size="small"
            margin="dense"
            label={`${valueLabel} ${i + 1}`}
            id={`${fieldId(name)}-${i}-value`}
            {...register(`${name}.${i}.value`)}
          />
          <IconButton
            aria-label={`Remove ${keyLabel.toLowerCase()} ${i + 1}`}
            onClick={() => remove(i)}
          >
            ×
          </IconButton>
        </Stack>
      ))}
      <ListMessage name={name} />
      <Button
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => append({ key: '', value: '' })}
      >
        Add {keyLabel.toLowerCase()}
      </Button>
    </Stack>
  );
}

/**
 * A field rendered from runway-common's description of it (label, help,
 * input kind, options): the one renderer of every plain field of the
 * deployment, model and stack forms. `name`, `label` and `help` replace
 * the description's for a field repeated in rows or with help that depends
 * on the values; `options` for a select whose choices come from the cluster.
 */
export function MetaField(
  props: {
    field: FormFieldSpec;
    name?: string;
    label?: string;
    help?: string;
    options?: Array<{ value: string; label: string }>;
  } & Omit<TextFieldProps, 'name' | 'label'>,
) {
  const {
    field,
    name = field.name,
    label = field.label,
    help: givenHelp,
    options: givenOptions,
    ...rest
  } = props;
  const help = 'help' in props ? givenHelp : field.help;
  const choices = givenOptions ?? field.options;
  const options = choices && [
    ...(field.emptyOption ? [{ value: '', label: field.emptyOption }] : []),
    ...choices,
  ];
  const empty = field.emptyOption
    ? {
        SelectProps: { displayEmpty: true },
        InputLabelProps: { shrink: true },
      }
    : {};
  switch (field.input) {
    case 'keyValue':
      return (
        <KeyValueRows
          name={name}
          title={label}
          keyLabel={field.rowLabels?.key ?? 'Key'}
          valueLabel={field.rowLabels?.value ?? 'Value'}
          help={help}
        />
      );
    case 'switch':
      return <CheckboxField name={name} label={label} />;
    case 'multiselect':
      return (
        <FormField
          {...rest}
          name={name}
          label={label}
          help={help}
          options={options}
          SelectProps={{ multiple: true }}
        />
      );
    case 'number':
      return (
        <FormField
          {...rest}
          name={name}
          label={label}
          help={help}
          type="number"
        />
      );
    case 'yaml':
      return (
        <FormField
          {...rest}
          name={name}
          label={label}
          help={help}
          multiline
          minRows={3}
        />
      );
    default:
      return (
        <FormField
          {...empty}
          {...rest}
          name={name}
          label={label}
          help={help}
          options={options}
        />
      );
  }
}

function CheckboxField({ name, label }: { name: string; label: string }) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          control={
            <Checkbox
              checked={Boolean(field.value)}
              onChange={e => field.onChange(e.target.checked)}
            />
          }
          label={label}
        />
      )}
    />
  );
}

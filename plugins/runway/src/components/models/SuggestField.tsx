import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { Controller, useFormContext } from 'react-hook-form';
import type { FormFieldSpec } from '@runway-portal/plugin-runway-common';
import { fieldId, useFieldMessages } from '../form/fields';

export interface Suggestion {
  value: string;
  /** Shown next to the value, e.g. "default" or the provisioner. */
  detail?: string;
}

/**
 * A text field bound to the form that suggests values read from the cluster
 * (storage classes, Secret names) and still accepts any text: a list that
 * could not be read never blocks the form; `problem` says why it is empty.
 */
export function SuggestField(props: {
  /** runway-common's description of the field: its name, label and help. */
  field: FormFieldSpec;
  suggestions: Suggestion[];
  loading?: boolean;
  problem?: string;
}) {
  const { suggestions, loading, problem } = props;
  const { name, label, help } = props.field;
  const { control } = useFormContext();
  const { error, warning } = useFieldMessages(name);
  const byValue = new Map(suggestions.map(s => [s.value, s]));
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Autocomplete
          id={fieldId(name)}
          freeSolo
          autoSelect
          loading={loading}
          options={suggestions.map(s => s.value)}
          value={field.value ?? ''}
          inputValue={field.value ?? ''}
          onInputChange={(_e, value) => field.onChange(value)}
          onChange={(_e, value) => field.onChange(value ?? '')}
          onBlur={field.onBlur}
          getOptionLabel={option => option}
          renderOption={(optionProps, option) => (
            <li {...optionProps} key={option}>
              {option}
              {byValue.get(option)?.detail
                ? ` (${byValue.get(option)!.detail})`
                : ''}
            </li>
          )}
          renderInput={params => (
            <TextField
              {...params}
              inputRef={field.ref}
              label={label}
              error={Boolean(error)}
              helperText={
                error ?? warning ?? [help, problem].filter(Boolean).join(' ')
              }
              FormHelperTextProps={
                {
                  sx: warning && !error ? { color: 'warning.main' } : undefined,
                  role: error || warning ? 'alert' : undefined,
                } as any
              }
              fullWidth
              margin="normal"
            />
          )}
        />
      )}
    />
  );
}

import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FormHelperText from '@mui/material/FormHelperText';
import { createContext, type ReactNode, useContext } from 'react';
import {
  Controller,
  get,
  useFieldArray,
  useFormContext,
} from 'react-hook-form';
import {
  gatewayModelName,
  INFERENCE_GATEWAY_LABEL,
  type ModelDeploymentSpec,
} from '@runway-portal/plugin-runway-common';
import type { FieldIssue, WizardValues } from '../../lib/form';

/** Warnings of the current values, by field (errors come from RHF). */
export const WarningsContext = createContext<FieldIssue[]>([]);

export function useFieldMessages(name: string) {
  const { formState } = useFormContext<WizardValues>();
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
  const { control } = useFormContext<WizardValues>();
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
function ListMessage({ name }: { name: string }) {
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
  name: 'engineArgs' | 'env' | 'nodeSelector' | 'podLabels' | 'labels';
  title: string;
  keyLabel: string;
  valueLabel: string;
  help?: ReactNode;
}) {
  const { name, title, keyLabel, valueLabel, help } = props;
  const { control, register } = useFormContext<WizardValues>();
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
            {...register(`${name}.${i}.key` as const)}
          />
          <TextField
            size="small"
            margin="dense"
            label={`${valueLabel} ${i + 1}`}
            id={`${fieldId(name)}-${i}-value`}
            {...register(`${name}.${i}.value` as const)}
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

const OPERATORS = [
  { value: '', label: '(default: Equal)' },
  { value: 'Equal', label: 'Equal' },
  { value: 'Exists', label: 'Exists' },
];
const EFFECTS = [
  { value: '', label: '(any)' },
  { value: 'NoSchedule', label: 'NoSchedule' },
  { value: 'PreferNoSchedule', label: 'PreferNoSchedule' },
  { value: 'NoExecute', label: 'NoExecute' },
];

export function TolerationRows() {
  const { control, register } = useFormContext<WizardValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: 'tolerations',
  });
  return (
    <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
      <Typography component="legend" variant="subtitle1">
        Tolerations
      </Typography>
      {fields.map((row, i) => (
        <Stack direction="row" spacing={1} key={row.id} alignItems="center">
          <TextField
            size="small"
            margin="dense"
            label={`Toleration ${i + 1} key`}
            id={`runway-tolerations-${i}-key`}
            {...register(`tolerations.${i}.key` as const)}
          />
          <Controller
            control={control}
            name={`tolerations.${i}.operator` as const}
            render={({ field }) => (
              <TextField
                {...field}
                select
                size="small"
                margin="dense"
                sx={{ minWidth: 140 }}
                label={`Toleration ${i + 1} operator`}
                id={`runway-tolerations-${i}-operator`}
              >
                {OPERATORS.map(o => (
                  <MenuItem key={o.value} value={o.value}>
                    {o.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <TextField
            size="small"
            margin="dense"
            label={`Toleration ${i + 1} value`}
            id={`runway-tolerations-${i}-value`}
            {...register(`tolerations.${i}.value` as const)}
          />
          <Controller
            control={control}
            name={`tolerations.${i}.effect` as const}
            render={({ field }) => (
              <TextField
                {...field}
                select
                size="small"
                margin="dense"
                sx={{ minWidth: 160 }}
                label={`Toleration ${i + 1} effect`}
                id={`runway-tolerations-${i}-effect`}
              >
                {EFFECTS.map(o => (
                  <MenuItem key={o.value} value={o.value}>
                    {o.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <IconButton
            aria-label={`Remove toleration ${i + 1}`}
            onClick={() => remove(i)}
          >
            ×
          </IconButton>
        </Stack>
      ))}
      <ListMessage name="tolerations" />
      <Button
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => append({ key: '', operator: '', value: '', effect: '' })}
      >
        Add toleration
      </Button>
    </Stack>
  );
}

/**
 * spec.gateway: automatic unless the user says otherwise (the core routes
 * the model through the cluster's inference Gateway when there is one).
 */
export function GatewayFields({
  spec,
  namespace,
}: {
  spec: ModelDeploymentSpec;
  namespace?: string;
}) {
  // What the core falls back to, so the user sees the name clients would send.
  const defaultName = gatewayModelName({ ...spec, gateway: undefined });
  return (
    <Stack
      component="fieldset"
      sx={{ border: 0, p: 0, m: 0, mt: 2 }}
      aria-describedby="runway-gateway-help"
    >
      <Typography component="legend" variant="subtitle1">
        Gateway
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        id="runway-gateway-help"
      >
        The core controller routes the model through the cluster's inference
        Gateway (the one labelled {INFERENCE_GATEWAY_LABEL}=true, or the only
        one) with an InferencePool and an HTTPRoute.
      </Typography>
      <FormField
        name="spec.gateway.enabled"
        label="Gateway routing"
        options={[
          { value: '', label: 'Automatic (when the cluster has a Gateway)' },
          { value: 'true', label: 'On' },
          { value: 'false', label: 'Off (Service only)' },
        ]}
        SelectProps={{ displayEmpty: true }}
        InputLabelProps={{ shrink: true }}
      />
      <FormField
        name="spec.gateway.modelName"
        label="Gateway model name"
        help={`The name clients put in the request's "model" field; empty uses ${
          defaultName
            ? `"${defaultName}"`
            : 'the served name, else the model ID'
        }.`}
      />
      <FormField
        name="spec.gateway.httpRouteRef"
        label="Existing HTTPRoute"
        help={`Name of your own HTTPRoute in namespace ${
          namespace || 'default'
        } to use instead of the one the core creates; empty lets the core create it.`}
      />
    </Stack>
  );
}

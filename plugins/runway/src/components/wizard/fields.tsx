import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import {
  DEPLOYMENT_FORM as F,
  gatewayModelName,
  INFERENCE_GATEWAY_LABEL,
  type ModelDeploymentSpec,
} from '@runway-portal/plugin-runway-common';
import type { WizardValues } from '../../lib/form';
import { ListMessage, MetaField } from '../form/fields';

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
      <MetaField field={F['spec.gateway.enabled']} />
      <MetaField
        field={F['spec.gateway.modelName']}
        help={`The name clients put in the request's "model" field; empty uses ${
          defaultName
            ? `"${defaultName}"`
            : 'the served name, else the model ID'
        }.`}
      />
      <MetaField
        field={F['spec.gateway.httpRouteRef']}
        help={`Name of your own HTTPRoute in namespace ${
          namespace || 'default'
        } to use instead of the one the core creates; empty lets the core create it.`}
      />
    </Stack>
  );
}

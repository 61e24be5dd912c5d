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

type TolerationPart = 'key' | 'operator' | 'value' | 'effect';

/** A toleration row's inputs in order: text, or a choice of values (`unset` names the empty choice). */
const TOLERATION_PARTS: ReadonlyArray<{
  part: TolerationPart;
  choice?: { unset: string; values: string[]; minWidth: number };
}> = [
  { part: 'key' },
  {
    part: 'operator',
    choice: {
      unset: '(default: Equal)',
      values: ['Equal', 'Exists'],
      minWidth: 140,
    },
  },
  { part: 'value' },
  {
    part: 'effect',
    choice: {
      unset: '(any)',
      values: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
      minWidth: 160,
    },
  },
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
          {TOLERATION_PARTS.map(({ part, choice }) => {
            const name = `tolerations.${i}.${part}` as const;
            const common = {
              size: 'small' as const,
              margin: 'dense' as const,
              label: `Toleration ${i + 1} ${part}`,
              id: `runway-tolerations-${i}-${part}`,
            };
            return choice ? (
              <Controller
                key={part}
                control={control}
                name={name}
                render={({ field }) => (
                  <TextField
                    {...field}
                    {...common}
                    select
                    sx={{ minWidth: choice.minWidth }}
                  >
                    <MenuItem value="">{choice.unset}</MenuItem>
                    {choice.values.map(v => (
                      <MenuItem key={v} value={v}>
                        {v}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : (
              <TextField key={part} {...common} {...register(name)} />
            );
          })}
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

/**
 * Scaffolder field `RunwayRunningDeploymentPicker`: a Ready ModelDeployment
 * of the cluster in a sibling field, with the URL and model name a client
 * (e.g. a stack's inference provider) uses — the stack form's "use a running
 * deployment", for templates. Value: `{ deployment, endpoint, model }`.
 */
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useApi, type ApiHolder } from '@backstage/core-plugin-api';
import {
  makeFieldSchema,
  type CustomFieldValidator,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { runwayApiRef } from '../../api/RunwayApi';
import {
  type RunningDeployment,
  runningDeployments,
} from '../../lib/runningDeployments';

export const RunwayRunningDeploymentPickerSchema = makeFieldSchema({
  output: z =>
    z.object({
      deployment: z.string().describe('namespace/name of the ModelDeployment'),
      endpoint: z
        .string()
        .describe(
          "OpenAI-compatible base URL (…/v1): the Gateway's when the model is routed there, else its Service",
        ),
      model: z.string().describe('The model name requests carry'),
    }),
  uiOptions: z =>
    z.object({
      clusterField: z
        .string()
        .optional()
        .describe(
          'The form field holding the cluster (a RunwayClusterPicker); default "cluster"',
        ),
    }),
});

/** What the field hands the template. */
export interface RunningDeploymentValue {
  deployment: string;
  endpoint: string;
  model: string;
}

type Props = FieldExtensionComponentProps<
  RunningDeploymentValue,
  { clusterField?: string }
>;

const DEFAULT_CLUSTER_FIELD = 'cluster';

const valueOf = (d: RunningDeployment): RunningDeploymentValue => ({
  deployment: d.ref,
  endpoint: d.endpoint,
  model: d.model,
});

export function RunwayRunningDeploymentPicker(props: Props) {
  const {
    formData,
    onChange,
    schema,
    uiSchema,
    required,
    rawErrors,
    idSchema,
    formContext,
    disabled,
    readonly,
  } = props;
  const api = useApi(runwayApiRef);
  const clusterField =
    uiSchema?.['ui:options']?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const clusterName: string | undefined =
    formContext?.formData?.[clusterField] || undefined;
  const list = useAsync(
    async () =>
      clusterName
        ? runningDeployments(
            (await api.list('deployments', { clusters: [clusterName] })).items,
            clusterName,
          )
        : undefined,
    [api, clusterName],
  );
  const running = list.value ?? [];
  const chosen = running.find(r => r.ref === formData?.deployment);
  let help: string | undefined;
  if (!clusterName)
    help = `Choose a cluster first (form field "${clusterField}")`;
  else if (list.loading) help = 'Loading the running deployments…';
  else if (list.error)
    help = `Could not list the deployments of cluster ${clusterName}: ${list.error.message}`;
  else if (!running.length)
    help = `No Ready deployment in cluster ${clusterName}: deploy a model first`;
  else if (chosen) help = `${chosen.endpoint}, model "${chosen.model}"`;
  else help = schema.description;
  return (
    <TextField
      id={idSchema?.$id ?? 'runway-running-deployment-picker'}
      select
      fullWidth
      margin="normal"
      label={schema.title ?? 'Running deployment'}
      required={required}
      disabled={disabled || readonly || !running.length}
      value={chosen ? chosen.ref : formData?.deployment ?? ''}
      onChange={e => {
        const d = running.find(r => r.ref === e.target.value);
        onChange(d ? valueOf(d) : (undefined as any));
      }}
      error={Boolean(list.error || rawErrors?.length)}
      helperText={help}
    >
      {/* A value that is no longer Ready stays visible, so the validation message has something to point at. */}
      {formData?.deployment && !chosen && (
        <MenuItem value={formData.deployment} disabled>
          <ListItemText
            primary={formData.deployment}
            secondary={`not a Ready deployment of cluster ${clusterName}`}
          />
        </MenuItem>
      )}
      {running.map(r => (
        <MenuItem key={r.ref} value={r.ref}>
          <ListItemText
            primary={r.ref}
            secondary={`${r.model} via ${r.via} (${r.endpoint})`}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The chosen deployment must still be Ready in the chosen cluster (a fresh list). */
export const validateRunwayRunningDeployment: CustomFieldValidator<
  RunningDeploymentValue,
  { clusterField?: string }
> = async (
  value,
  validation,
  { apiHolder, formData, schema, uiSchema }: any,
) => {
  if (!value?.deployment) return;
  const label = (schema.title as string | undefined) ?? 'Running deployment';
  const clusterField =
    uiSchema?.['ui:options']?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const cluster = formData?.[clusterField];
  if (typeof cluster !== 'string' || !cluster) {
    validation.addError(
      `${label}: no cluster chosen in form field "${clusterField}"; choose the cluster first`,
    );
    return;
  }
  const api = (apiHolder as ApiHolder).get(runwayApiRef);
  if (!api) {
    validation.addError(
      `${label}: the Runway plugin is not installed in this app; add @runway-portal/plugin-runway`,
    );
    return;
  }
  let running: RunningDeployment[];
  try {
    running = runningDeployments(
      (await api.list('deployments', { clusters: [cluster] })).items,
      cluster,
    );
  } catch (e) {
    validation.addError(
      `${label}: could not list the deployments of cluster ${cluster} (${
        (e as Error).message
      }); try again`,
    );
    return;
  }
  if (!running.some(r => r.ref === value.deployment)) {
    const ready = running.map(r => r.ref).join(', ');
    validation.addError(
      `${label}: deployment ${
        value.deployment
      } is not Ready in cluster "${cluster}"; ${
        ready
          ? `choose one of ${ready}`
          : 'wait until it is Running, or deploy a model first'
      }`,
    );
  }
};

export const runwayRunningDeploymentPickerOptions = {
  name: 'RunwayRunningDeploymentPicker',
  component: RunwayRunningDeploymentPicker,
  validation: validateRunwayRunningDeployment,
};

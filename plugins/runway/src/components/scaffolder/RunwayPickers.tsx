/**
 * Scaffolder field extensions: a cluster picker over the backend's
 * registered clusters and a namespace picker for the chosen cluster. Both
 * systems register these same components and validators (plugin.ts for the
 * legacy one, alpha.tsx for the new one).
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
import type { ClustersResponse } from '../../api/types';
import {
  allowedNamespaces,
  clusterChoices,
  clusterProblem,
  namespaceProblem,
} from '../../lib/scaffolderFields';

export const RunwayClusterPickerSchema = makeFieldSchema({
  output: z => z.string(),
});

export const RunwayNamespacePickerSchema = makeFieldSchema({
  output: z => z.string(),
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

type ClusterProps = FieldExtensionComponentProps<string>;
type NamespaceProps = FieldExtensionComponentProps<
  string,
  { clusterField?: string }
>;

const DEFAULT_CLUSTER_FIELD = 'cluster';

function useClusters() {
  const api = useApi(runwayApiRef);
  return useAsync(() => api.listClusters(), [api]);
}

function loadMessage(
  loading: boolean,
  error: Error | undefined,
): string | undefined {
  if (loading) return 'Loading the registered clusters…';
  if (error)
    return `Could not load the registered clusters from the Runway backend: ${error.message}`;
  return undefined;
}

export function RunwayClusterPicker(props: ClusterProps) {
  const {
    formData,
    onChange,
    schema,
    required,
    rawErrors,
    idSchema,
    disabled,
    readonly,
  } = props;
  const clusters = useClusters();
  const choices = clusters.value ? clusterChoices(clusters.value) : [];
  const chosen = choices.find(c => c.value === formData);
  // Validation errors (rawErrors) are shown under the field by the scaffolder's form itself.
  const problem = loadMessage(clusters.loading, clusters.error);
  return (
    <TextField
      id={idSchema?.$id ?? 'runway-cluster-picker'}
      select
      fullWidth
      margin="normal"
      label={schema.title ?? 'Cluster'}
      required={required}
      disabled={
        disabled || readonly || clusters.loading || Boolean(clusters.error)
      }
      value={clusters.value ? formData ?? '' : ''}
      onChange={e => onChange(e.target.value)}
      error={Boolean(clusters.error || rawErrors?.length)}
      helperText={
        problem ??
        (chosen ? `${chosen.title}: ${chosen.gpus}` : schema.description)
      }
    >
      {/* A value from the template's default or the URL stays visible, so the validation message has something to point at. */}
      {formData && clusters.value && !chosen && (
        <MenuItem value={formData} disabled>
          <ListItemText
            primary={formData}
            secondary="not registered with Runway Portal"
          />
        </MenuItem>
      )}
      {choices.map(c => (
        <MenuItem
          key={c.value}
          value={c.value}
          disabled={Boolean(c.unavailable)}
        >
          <ListItemText
            primary={`${c.title} (${c.value})`}
            secondary={c.unavailable ?? c.gpus}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}

export function RunwayNamespacePicker(props: NamespaceProps) {
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
  const clusterField =
    uiSchema?.['ui:options']?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const clusterName: string | undefined =
    formContext?.formData?.[clusterField] || undefined;
  const clusters = useClusters();
  const cluster = clusters.value?.items.find(c => c.name === clusterName);
  const allowed = allowedNamespaces(cluster);
  const label = schema.title ?? 'Namespace';
  const common = {
    id: idSchema?.$id ?? 'runway-namespace-picker',
    fullWidth: true,
    margin: 'normal' as const,
    label,
    required,
    error: Boolean(clusters.error || rawErrors?.length),
  };
  const waiting = !clusterName
    ? `Choose a cluster first (form field "${clusterField}")`
    : loadMessage(clusters.loading, clusters.error) ??
      (cluster
        ? undefined
        : `Cluster "${clusterName}" is not registered with Runway Portal; choose a registered cluster first`);
  if (waiting) {
    return (
      <TextField
        {...common}
        disabled
        value={formData ?? ''}
        helperText={waiting}
      />
    );
  }
  if (allowed) {
    return (
      <TextField
        {...common}
        select
        disabled={disabled || readonly}
        value={formData ?? ''}
        onChange={e => onChange(e.target.value)}
        helperText={`Namespaces open to the portal in cluster ${clusterName}`}
      >
        {formData && !allowed.includes(formData) && (
          <MenuItem value={formData} disabled>
            <ListItemText
              primary={formData}
              secondary={`not open to the portal in cluster ${clusterName}`}
            />
          </MenuItem>
        )}
        {allowed.map(n => (
          <MenuItem key={n} value={n}>
            {n}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  // No allow-list: the cluster serves any namespace; check the name as it is typed.
  const typed = formData
    ? namespaceProblem(label, formData, clusterName, clusters.value!)
    : undefined;
  return (
    <TextField
      {...common}
      disabled={disabled || readonly}
      value={formData ?? ''}
      onChange={e => onChange(e.target.value || undefined)}
      error={common.error || Boolean(typed)}
      helperText={typed ?? `Any namespace of cluster ${clusterName}`}
    />
  );
}

/** The clusters answer for a validator, or the error to report on the field. */
async function clustersFor(
  apiHolder: ApiHolder,
): Promise<ClustersResponse | string> {
  const api = apiHolder.get(runwayApiRef);
  if (!api)
    return 'the Runway plugin is not installed in this app; add @runway-portal/plugin-runway';
  try {
    return await api.listClusters();
  } catch (e) {
    return `could not load the registered clusters from the Runway backend (${
      (e as Error).message
    }); try again`;
  }
}

export const validateRunwayCluster: CustomFieldValidator<string> = async (
  value,
  validation,
  { apiHolder, schema },
) => {
  const label = (schema.title as string | undefined) ?? 'Cluster';
  const answer = await clustersFor(apiHolder);
  const problem =
    typeof answer === 'string'
      ? `${label}: ${answer}`
      : clusterProblem(label, value, answer);
  if (problem) validation.addError(problem);
};

export const validateRunwayNamespace: CustomFieldValidator<
  string,
  { clusterField?: string }
> = async (value, validation, { apiHolder, formData, schema, uiSchema }) => {
  const label = (schema.title as string | undefined) ?? 'Namespace';
  const clusterField =
    uiSchema?.['ui:options']?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const clusterName = formData[clusterField];
  if (typeof clusterName !== 'string' || !clusterName) {
    validation.addError(
      `${label}: no cluster chosen in form field "${clusterField}"; choose the cluster first`,
    );
    return;
  }
  const answer = await clustersFor(apiHolder);
  const problem =
    typeof answer === 'string'
      ? `${label}: ${answer}`
      : namespaceProblem(label, value, clusterName, answer);
  if (problem) validation.addError(problem);
};

/** The field extensions' options, shared by both frontend systems (each wants its own form of the schema). */
export const runwayClusterPickerOptions = {
  name: 'RunwayClusterPicker',
  component: RunwayClusterPicker,
  validation: validateRunwayCluster,
};

export const runwayNamespacePickerOptions = {
  name: 'RunwayNamespacePicker',
  component: RunwayNamespacePicker,
  validation: validateRunwayNamespace,
};

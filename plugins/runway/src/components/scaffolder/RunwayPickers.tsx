/**
 * Scaffolder field extensions: a cluster picker over the backend's
 * registered clusters and a namespace picker for the chosen cluster. Both
 * systems register these same components and validators (plugin.ts for the
 * legacy one, alpha.tsx for the new one).
 */
import TextField from '@mui/material/TextField';
import { useApi } from '@backstage/core-plugin-api';
import {
  makeFieldSchema,
  type CustomFieldValidator,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { type RunwayApi, runwayApiRef } from '../../api/RunwayApi';
import type { ClustersResponse } from '../../api/types';
import {
  allowedNamespaces,
  clusterChoices,
  clusterProblem,
  namespaceProblem,
} from '../../lib/scaffolderFields';
import {
  apiOrProblem,
  clusterFieldOption,
  PickerSelect,
  pickerScope,
  type RunwayPickerOptions,
  type RunwayPickerValidator,
  scopedValidator,
} from './pickerShell';

/** @public */
export const RunwayClusterPickerSchema = makeFieldSchema({
  output: z => z.string(),
});

/** @public */
export const RunwayNamespacePickerSchema = makeFieldSchema({
  output: z => z.string(),
  uiOptions: z =>
    z.object({
      clusterField: clusterFieldOption(z),
    }),
});

type ClusterProps = FieldExtensionComponentProps<string>;
type NamespaceProps = FieldExtensionComponentProps<string, RunwayPickerOptions>;

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

/** @public */
export function RunwayClusterPicker(props: ClusterProps) {
  const { formData, onChange, schema } = props;
  const clusters = useClusters();
  const choices = clusters.value ? clusterChoices(clusters.value) : [];
  const chosen = choices.find(c => c.value === formData);
  // Validation errors (rawErrors) are shown under the field by the scaffolder's form itself.
  const problem = loadMessage(clusters.loading, clusters.error);
  return (
    <PickerSelect
      field={props}
      fallbackId="runway-cluster-picker"
      fallbackLabel="Cluster"
      blocked={clusters.loading || Boolean(clusters.error)}
      value={clusters.value ? formData ?? '' : ''}
      onPick={onChange}
      error={clusters.error}
      help={
        problem ??
        (chosen ? `${chosen.title}: ${chosen.gpus}` : schema.description)
      }
      // A value from the template's default or the URL stays visible, so the validation message has something to point at.
      staleWhy="not registered with Runway Portal"
      options={choices.map(c => ({
        value: c.value,
        primary: `${c.title} (${c.value})`,
        secondary: c.unavailable ?? c.gpus,
        disabled: Boolean(c.unavailable),
      }))}
    />
  );
}

/** @public */
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
  const { clusterField, cluster: clusterName } = pickerScope(
    uiSchema?.['ui:options'],
    formContext?.formData,
  );
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
      <PickerSelect
        field={props}
        fallbackId="runway-namespace-picker"
        fallbackLabel="Namespace"
        value={formData ?? ''}
        onPick={onChange}
        error={clusters.error}
        help={`Namespaces open to the portal in cluster ${clusterName}`}
        staleWhy={`not open to the portal in cluster ${clusterName}`}
        options={allowed.map(n => ({ value: n, primary: n }))}
      />
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
  api: RunwayApi | string,
): Promise<ClustersResponse | string> {
  if (typeof api === 'string') return api;
  try {
    return await api.listClusters();
  } catch (e) {
    return `could not load the registered clusters from the Runway backend (${
      (e as Error).message
    }); try again`;
  }
}

/** @public */
export const validateRunwayCluster: CustomFieldValidator<string> = async (
  value,
  validation,
  { apiHolder, schema },
) => {
  const label = (schema.title as string | undefined) ?? 'Cluster';
  const answer = await clustersFor(apiOrProblem(apiHolder));
  const problem =
    typeof answer === 'string'
      ? `${label}: ${answer}`
      : clusterProblem(label, value, answer);
  if (problem) validation.addError(problem);
};

/** @public */
export const validateRunwayNamespace: RunwayPickerValidator<string> =
  scopedValidator<string>(
    'Namespace',
    async (value, { cluster }, api, label) => {
      const answer = await clustersFor(api);
      return typeof answer === 'string'
        ? `${label}: ${answer}`
        : namespaceProblem(label, value, cluster, answer);
    },
    () => false,
  );

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

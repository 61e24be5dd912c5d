/**
 * Scaffolder field `RunwayStorageClassPicker`: a StorageClass of the cluster
 * in a sibling field (`GET /clusters/{cluster}/storageclasses`), the
 * cluster's default marked. Value: the class name; empty leaves the choice
 * to the cluster's default class.
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

export const RunwayStorageClassPickerSchema = makeFieldSchema({
  output: z =>
    z
      .string()
      .describe(
        "A StorageClass of the cluster; empty for the cluster's default class",
      ),
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

interface Options {
  clusterField?: string;
}

type Props = FieldExtensionComponentProps<string, Options>;

const DEFAULT_CLUSTER_FIELD = 'cluster';
const CLUSTER_DEFAULT = '';

function scopeOf(
  options: Options | undefined,
  formData: Record<string, unknown> | undefined,
) {
  const clusterField = options?.clusterField ?? DEFAULT_CLUSTER_FIELD;
  const value = formData?.[clusterField];
  return {
    clusterField,
    cluster: typeof value === 'string' && value ? value : undefined,
  };
}

export function RunwayStorageClassPicker(props: Props) {
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
  const { clusterField, cluster } = scopeOf(
    uiSchema?.['ui:options'],
    formContext?.formData,
  );
  const list = useAsync(
    async () =>
      cluster ? (await api.storageClasses(cluster)).items : undefined,
    [api, cluster],
  );
  const classes = list.value ?? [];
  const fallback = classes.find(c => c.isDefault);
  const chosen = classes.find(c => c.name === formData);
  let help: string | undefined;
  if (!cluster) help = `Choose a cluster first (form field "${clusterField}")`;
  else if (list.loading) help = 'Loading the storage classes…';
  else if (list.error)
    help = `Could not list the storage classes of cluster ${cluster}: ${list.error.message}`;
  else if (!classes.length)
    help = `Cluster ${cluster} has no StorageClass: ask its administrators for one, or leave it empty`;
  else if (chosen) help = `Provisioner ${chosen.provisioner}`;
  else help = schema.description;
  return (
    <TextField
      id={idSchema?.$id ?? 'runway-storage-class-picker'}
      select
      fullWidth
      margin="normal"
      label={schema.title ?? 'Storage class'}
      required={required}
      disabled={disabled || readonly || !cluster || list.loading}
      value={formData ?? CLUSTER_DEFAULT}
      onChange={e =>
        onChange(
          e.target.value === CLUSTER_DEFAULT
            ? (undefined as any)
            : e.target.value,
        )
      }
      error={Boolean(list.error || rawErrors?.length)}
      helperText={help}
      SelectProps={{ displayEmpty: true }}
      InputLabelProps={{ shrink: true }}
    >
      {!required && (
        <MenuItem value={CLUSTER_DEFAULT}>
          <ListItemText
            primary="The cluster's default"
            secondary={
              fallback ? fallback.name : 'no default class in this cluster'
            }
          />
        </MenuItem>
      )}
      {/* A value no longer listed stays visible, so the validation message has something to point at. */}
      {formData && !chosen && (
        <MenuItem value={formData} disabled>
          <ListItemText
            primary={formData}
            secondary={`not a storage class of cluster ${cluster ?? '?'}`}
          />
        </MenuItem>
      )}
      {classes.map(c => (
        <MenuItem key={c.name} value={c.name}>
          <ListItemText
            primary={c.name}
            secondary={
              c.isDefault ? `default · ${c.provisioner}` : c.provisioner
            }
          />
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The chosen class must still exist in the cluster the sibling field names (a fresh list). */
export const validateRunwayStorageClass: CustomFieldValidator<
  string,
  Options
> = async (
  value,
  validation,
  { apiHolder, formData, schema, uiSchema }: any,
) => {
  if (!value) return;
  const label = (schema.title as string | undefined) ?? 'Storage class';
  const { clusterField, cluster } = scopeOf(uiSchema?.['ui:options'], formData);
  if (!cluster) {
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
  let names: string[];
  try {
    names = (await api.storageClasses(cluster)).items.map(c => c.name);
  } catch (e) {
    validation.addError(
      `${label}: could not list the storage classes of cluster ${cluster} (${
        (e as Error).message
      }); try again`,
    );
    return;
  }
  if (!names.includes(value))
    validation.addError(
      `${label}: storage class ${value} is not in cluster ${cluster}; ${
        names.length
          ? `choose one of ${names.join(', ')}`
          : "leave it empty for the cluster's default"
      }`,
    );
};

export const runwayStorageClassPickerOptions = {
  name: 'RunwayStorageClassPicker',
  component: RunwayStorageClassPicker,
  validation: validateRunwayStorageClass,
};

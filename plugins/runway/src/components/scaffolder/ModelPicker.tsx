/**
 * Scaffolder field `RunwayModelPicker`: a Model of the cluster (and, when
 * `namespaceField` is set, the namespace) in sibling fields, Ready ones
 * first, for a template that mounts it (annotation
 * `models.airunway.ai/inject: <name>` in the Model's namespace, or the PVC).
 * Value: `{ model, name, namespace, claimName, mountPath }`.
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
import { type PickableModel, pickableModels } from '../../lib/pickableModels';

export const RunwayModelPickerSchema = makeFieldSchema({
  output: z =>
    z.object({
      model: z.string().describe('namespace/name of the Model'),
      name: z
        .string()
        .describe(
          'The Model name: the value of the pod annotation models.airunway.ai/inject',
        ),
      namespace: z
        .string()
        .describe('The namespace of the Model (pods mounting it run there)'),
      claimName: z
        .string()
        .describe('The PersistentVolumeClaim holding the model files'),
      mountPath: z
        .string()
        .describe(
          'Where the injection webhook mounts it without a mount-path annotation',
        ),
    }),
  uiOptions: z =>
    z.object({
      clusterField: z
        .string()
        .optional()
        .describe(
          'The form field holding the cluster (a RunwayClusterPicker); default "cluster"',
        ),
      namespaceField: z
        .string()
        .optional()
        .describe(
          'The form field holding the namespace (a RunwayNamespacePicker); unset lists every namespace',
        ),
    }),
});

/** What the field hands the template. */
export interface ModelPickerValue {
  model: string;
  name: string;
  namespace: string;
  claimName: string;
  mountPath: string;
}

interface Options {
  clusterField?: string;
  namespaceField?: string;
}

type Props = FieldExtensionComponentProps<ModelPickerValue, Options>;

const DEFAULT_CLUSTER_FIELD = 'cluster';

const valueOf = (m: PickableModel): ModelPickerValue => ({
  model: m.ref,
  name: m.name,
  namespace: m.namespace,
  claimName: m.claimName,
  mountPath: m.mountPath,
});

/** Where the sibling fields point, read the same way by the field and its validation. */
function scopeOf(
  options: Options | undefined,
  formData: Record<string, unknown> | undefined,
) {
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

const where = (cluster: string, namespace?: string) =>
  namespace
    ? `namespace ${namespace} of cluster ${cluster}`
    : `cluster ${cluster}`;

export function RunwayModelPicker(props: Props) {
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
  const scope = scopeOf(uiSchema?.['ui:options'], formContext?.formData);
  const { cluster, namespace } = scope;
  const list = useAsync(
    async () =>
      cluster
        ? pickableModels(
            (
              await api.list('models', {
                clusters: [cluster],
                ...(namespace ? { namespace } : {}),
              })
            ).items,
            cluster,
            namespace,
          )
        : undefined,
    [api, cluster, namespace],
  );
  const models = list.value ?? [];
  const chosen = models.find(m => m.ref === formData?.model);
  let help: string | undefined;
  if (!cluster)
    help = `Choose a cluster first (form field "${scope.clusterField}")`;
  else if (scope.namespaceField && !namespace)
    help = `Choose a namespace first (form field "${scope.namespaceField}")`;
  else if (list.loading) help = 'Loading the models…';
  else if (list.error)
    help = `Could not list the models of ${where(cluster, namespace)}: ${
      list.error.message
    }`;
  else if (!models.length)
    help = `No model in ${where(
      cluster,
      namespace,
    )}: create one on the Models tab first`;
  else if (chosen)
    help =
      chosen.phase === 'Ready'
        ? `PVC ${chosen.claimName}, mounted at ${chosen.mountPath}`
        : `${chosen.phase}: pods that mount it are refused until it is Ready`;
  else help = schema.description;
  const waiting = Boolean(cluster && scope.namespaceField && !namespace);
  return (
    <TextField
      id={idSchema?.$id ?? 'runway-model-picker'}
      select
      fullWidth
      margin="normal"
      label={schema.title ?? 'Model'}
      required={required}
      disabled={disabled || readonly || waiting || !models.length}
      value={chosen ? chosen.ref : formData?.model ?? ''}
      onChange={e => {
        const m = models.find(r => r.ref === e.target.value);
        onChange(m ? valueOf(m) : (undefined as any));
      }}
      error={Boolean(list.error || rawErrors?.length)}
      helperText={help}
    >
      {/* A value no longer listed stays visible, so the validation message has something to point at. */}
      {formData?.model && !chosen && (
        <MenuItem value={formData.model} disabled>
          <ListItemText
            primary={formData.model}
            secondary={`not a model of ${where(cluster ?? '?', namespace)}`}
          />
        </MenuItem>
      )}
      {models.map(m => (
        <MenuItem key={m.ref} value={m.ref} disabled={m.phase === 'Failed'}>
          <ListItemText
            primary={m.ref}
            secondary={[m.phase, m.source, m.phase !== 'Ready' && m.message]
              .filter(Boolean)
              .join(' · ')}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The chosen Model must still exist where the sibling fields point and not have failed (a fresh list). */
export const validateRunwayModel: CustomFieldValidator<
  ModelPickerValue,
  Options
> = async (
  value,
  validation,
  { apiHolder, formData, schema, uiSchema }: any,
) => {
  if (!value?.model) return;
  const label = (schema.title as string | undefined) ?? 'Model';
  const scope = scopeOf(uiSchema?.['ui:options'], formData);
  const { cluster, namespace } = scope;
  if (!cluster) {
    validation.addError(
      `${label}: no cluster chosen in form field "${scope.clusterField}"; choose the cluster first`,
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
  let models: PickableModel[];
  try {
    models = pickableModels(
      (
        await api.list('models', {
          clusters: [cluster],
          ...(namespace ? { namespace } : {}),
        })
      ).items,
      cluster,
      namespace,
    );
  } catch (e) {
    validation.addError(
      `${label}: could not list the models of ${where(cluster, namespace)} (${
        (e as Error).message
      }); try again`,
    );
    return;
  }
  const found = models.find(m => m.ref === value.model);
  const usable = models.filter(m => m.phase !== 'Failed').map(m => m.ref);
  const others = usable.length
    ? `choose one of ${usable.join(', ')}`
    : 'create a model on the Models tab first';
  if (!found) {
    validation.addError(
      `${label}: model ${value.model} is not in ${where(
        cluster,
        namespace,
      )}; ${others}`,
    );
  } else if (found.phase === 'Failed') {
    validation.addError(
      `${label}: model ${value.model} has Failed${
        found.message ? ` (${found.message})` : ''
      }; fix it on its page or ${others}`,
    );
  }
};

export const runwayModelPickerOptions = {
  name: 'RunwayModelPicker',
  component: RunwayModelPicker,
  validation: validateRunwayModel,
};

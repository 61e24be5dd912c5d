/**
 * Scaffolder field `RunwayModelPicker`: a Model of the cluster (and, when
 * `namespaceField` is set, the namespace) in sibling fields, Ready ones
 * first, for a template that mounts it (annotation
 * `models.airunway.ai/inject: <name>` in the Model's namespace, or the PVC).
 * Value: `{ model, name, namespace, claimName, mountPath }`.
 */
import {
  makeFieldSchema,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import { type PickableModel, pickableModels } from '../../lib/pickableModels';
import * as shell from './pickerShell';
import type { RunwayPickerOptions, RunwayPickerValidator } from './pickerShell';

/** @public */
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
      clusterField: shell.clusterFieldOption(z),
      namespaceField: z
        .string()
        .optional()
        .describe(
          'The form field holding the namespace (a RunwayNamespacePicker); unset lists every namespace',
        ),
    }),
});

/** What the field hands the template. @public */
export interface ModelPickerValue {
  model: string;
  name: string;
  namespace: string;
  claimName: string;
  mountPath: string;
}

type Props = FieldExtensionComponentProps<
  ModelPickerValue,
  RunwayPickerOptions
>;

const valueOf = (m: PickableModel): ModelPickerValue => ({
  model: m.ref,
  name: m.name,
  namespace: m.namespace,
  claimName: m.claimName,
  mountPath: m.mountPath,
});

/** The models where the sibling fields point (every namespace while none is named). */
const MODELS: shell.ScopedSource<PickableModel> = {
  noun: 'models',
  load: async (api, { cluster, namespace }) =>
    pickableModels(
      (
        await api.list('models', {
          clusters: [cluster],
          ...(namespace ? { namespace } : {}),
        })
      ).items,
      cluster,
      namespace,
    ),
};

/** @public */
export function RunwayModelPicker(props: Props) {
  const { formData, onChange, schema } = props;
  const { scope, list, items: models } = shell.useScopedList(MODELS, props);
  const chosen = models.find(m => m.ref === formData?.model);
  const help = shell.scopedHelp(scope, list, {
    noun: MODELS.noun,
    empty: `No model in ${shell.where(
      scope,
    )}: create one on the Models tab first`,
    chosen:
      chosen &&
      (chosen.phase === 'Ready'
        ? `PVC ${chosen.claimName}, mounted at ${chosen.mountPath}`
        : `${chosen.phase}: pods that mount it are refused until it is Ready`),
    description: schema.description,
  });
  const waiting = Boolean(
    scope.cluster && scope.namespaceField && !scope.namespace,
  );
  return (
    <shell.PickerSelect
      field={props}
      fallbackId="runway-model-picker"
      fallbackLabel="Model"
      blocked={waiting || !models.length}
      value={chosen ? chosen.ref : formData?.model ?? ''}
      onPick={ref => onChange(shell.picked(models, ref, valueOf))}
      error={list.error}
      help={help}
      staleWhy={`not a model of ${shell.where(scope)}`}
      options={models.map(m => ({
        value: m.ref,
        primary: m.ref,
        secondary: [m.phase, m.source, m.phase !== 'Ready' && m.message]
          .filter(Boolean)
          .join(' · '),
        disabled: m.phase === 'Failed',
      }))}
    />
  );
}

/** The chosen Model must still exist where the sibling fields point and not have failed (a fresh list). @public */
export const validateRunwayModel: RunwayPickerValidator<ModelPickerValue> =
  shell.listedValidator<ModelPickerValue, PickableModel>(
    'Model',
    MODELS,
    (value, models, scope) => {
      const found = models.find(m => m.ref === value.model);
      const usable = models.filter(m => m.phase !== 'Failed').map(m => m.ref);
      const others = usable.length
        ? `choose one of ${usable.join(', ')}`
        : 'create a model on the Models tab first';
      if (!found)
        return `model ${value.model} is not in ${shell.where(
          scope,
        )}; ${others}`;
      if (found.phase === 'Failed')
        return `model ${value.model} has Failed${
          found.message ? ` (${found.message})` : ''
        }; fix it on its page or ${others}`;
      return undefined;
    },
    value => !value?.model,
  );

export const runwayModelPickerOptions = {
  name: 'RunwayModelPicker',
  component: RunwayModelPicker,
  validation: validateRunwayModel,
};

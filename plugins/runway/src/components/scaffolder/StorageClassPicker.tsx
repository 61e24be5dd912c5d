/**
 * Scaffolder field `RunwayStorageClassPicker`: a StorageClass of the cluster
 * in a sibling field (`GET /clusters/{cluster}/storageclasses`), the
 * cluster's default marked. Value: the class name; empty leaves the choice
 * to the cluster's default class.
 */
import {
  makeFieldSchema,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import type { StorageClassesAnswer } from '@runway-portal/plugin-runway-common';
import * as shell from './pickerShell';
import type { RunwayPickerOptions, RunwayPickerValidator } from './pickerShell';

/** @public */
export const RunwayStorageClassPickerSchema = makeFieldSchema({
  output: z =>
    z
      .string()
      .describe(
        "A StorageClass of the cluster; empty for the cluster's default class",
      ),
  uiOptions: z =>
    z.object({
      clusterField: shell.clusterFieldOption(z),
    }),
});

type Props = FieldExtensionComponentProps<string, RunwayPickerOptions>;

const CLUSTER_DEFAULT = '';

type StorageClass = StorageClassesAnswer['items'][number];

/** The StorageClasses of the cluster the sibling field names. */
const CLASSES: shell.ScopedSource<StorageClass> = {
  noun: 'storage classes',
  load: async (api, { cluster }) => (await api.storageClasses(cluster)).items,
};

/** @public */
export function RunwayStorageClassPicker(props: Props) {
  const { formData, onChange, schema, required } = props;
  const { scope, list, items: classes } = shell.useScopedList(CLASSES, props);
  const fallback = classes.find(c => c.isDefault);
  const chosen = classes.find(c => c.name === formData);
  const help = shell.scopedHelp(scope, list, {
    noun: CLASSES.noun,
    empty: `Cluster ${scope.cluster} has no StorageClass: ask its administrators for one, or leave it empty`,
    chosen: chosen && `Provisioner ${chosen.provisioner}`,
    description: schema.description,
  });
  return (
    <shell.PickerSelect
      field={props}
      fallbackId="runway-storage-class-picker"
      fallbackLabel="Storage class"
      blocked={!scope.cluster || list.loading}
      value={formData ?? CLUSTER_DEFAULT}
      onPick={name =>
        onChange(name === CLUSTER_DEFAULT ? (undefined as any) : name)
      }
      error={list.error}
      help={help}
      textField={{
        SelectProps: { displayEmpty: true },
        InputLabelProps: { shrink: true },
      }}
      leading={
        required
          ? []
          : [
              {
                value: CLUSTER_DEFAULT,
                primary: "The cluster's default",
                secondary: fallback
                  ? fallback.name
                  : 'no default class in this cluster',
              },
            ]
      }
      staleWhy={`not a storage class of cluster ${scope.cluster ?? '?'}`}
      options={classes.map(c => ({
        value: c.name,
        primary: c.name,
        secondary: c.isDefault ? `default · ${c.provisioner}` : c.provisioner,
      }))}
    />
  );
}

/** The chosen class must still exist in the cluster the sibling field names (a fresh list). @public */
export const validateRunwayStorageClass: RunwayPickerValidator<string> =
  shell.listedValidator<string, StorageClass>(
    'Storage class',
    CLASSES,
    (value, classes, { cluster }) => {
      const names = classes.map(c => c.name);
      if (names.includes(value)) return undefined;
      return `storage class ${value} is not in cluster ${cluster}; ${
        names.length
          ? `choose one of ${names.join(', ')}`
          : "leave it empty for the cluster's default"
      }`;
    },
  );

export const runwayStorageClassPickerOptions = {
  name: 'RunwayStorageClassPicker',
  component: RunwayStorageClassPicker,
  validation: validateRunwayStorageClass,
};

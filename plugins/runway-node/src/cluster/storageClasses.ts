/**
 * StorageClasses as the model form offers them. Pure.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { StorageClassSummary } from '@runway-portal/plugin-runway-common';

/** The annotation that marks the class a PVC without one gets (and its beta spelling). */
const DEFAULT_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/** The Accept header of a metadata-only list (names, labels; never a Secret's data). */
export const METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/** Name, provisioner and whether it is the default; the default first, then by name. */
export function storageClassSummaries(
  items: KubeObject[],
): StorageClassSummary[] {
  return items
    .map(item => ({
      name: item.metadata?.name ?? '',
      provisioner: String(
        (item as { provisioner?: unknown }).provisioner ?? '',
      ),
      isDefault: DEFAULT_ANNOTATIONS.some(
        a => item.metadata?.annotations?.[a] === 'true',
      ),
    }))
    .filter(s => s.name)
    .sort(
      (a, b) =>
        Number(b.isDefault) - Number(a.isDefault) ||
        a.name.localeCompare(b.name),
    );
}

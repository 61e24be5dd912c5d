/**
 * The Models a template can mount, for the scaffolder's `RunwayModelPicker`:
 * what the injection webhook needs (the Model's name in the pod's namespace)
 * and what a template shows or wires by hand (PVC, default mount path).
 */
import {
  defaultModelMountPath,
  type Model,
  modelPvcName,
  modelSourceText,
} from '@runway-portal/plugin-runway-common';
import type { ListedObject } from '../api/types';

export interface PickableModel {
  /** `namespace/name`. */
  ref: string;
  name: string;
  namespace: string;
  /** `status.phase`, `Pending` until the operator has written one. */
  phase: string;
  /** The PVC holding the files (`status.pvcName`, else the naming convention). */
  claimName: string;
  /** Where the injection webhook mounts it without a mount-path annotation. */
  mountPath: string;
  /** `HuggingFace owner/name@main`, `s3://…` or the URL; empty without one source. */
  source: string;
  message?: string;
}

/** Ready first (those can be mounted now), then by namespace and name. */
export function pickableModels(
  items: ListedObject[],
  cluster: string,
  namespace?: string,
): PickableModel[] {
  return items
    .filter(i => i.cluster === cluster)
    .map(i => i.object as unknown as Model)
    .filter(m => !namespace || m.metadata?.namespace === namespace)
    .map((m): PickableModel => {
      const name = m.metadata?.name ?? '';
      const ns = m.metadata?.namespace ?? '';
      return {
        ref: `${ns}/${name}`,
        name,
        namespace: ns,
        phase: m.status?.phase ?? 'Pending',
        claimName: m.status?.pvcName || modelPvcName(name),
        mountPath: defaultModelMountPath(name),
        source: modelSourceText(m.spec?.source) ?? '',
        message: m.status?.message || undefined,
      };
    })
    .sort(
      (a, b) =>
        Number(b.phase === 'Ready') - Number(a.phase === 'Ready') ||
        a.ref.localeCompare(b.ref),
    );
}

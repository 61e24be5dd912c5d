/**
 * Defaulting of ModelDeployment (what the mutating webhook applies, and what
 * forms show as placeholders). Two layers:
 *
 * 1. the schema's own `default`s, applied exactly where the API server
 *    applies CRD defaults (a nested default only when its parent object is
 *    present or was just defaulted: `serving` and `scaling` default to `{}`,
 *    so mode aggregated and one replica need no webhook);
 * 2. the seeds' defaults a CRD cannot express, which depend on other fields
 *    (quantities as strings, storage volume paths, access modes and claims).
 *
 * `model.servedName` is deliberately not written: it is derived on use
 * (`resolveServedName`), so a later change of `model.id` never leaves a stale
 * name behind.
 */
import { applySchemaDefaults } from '../schema/defaults';
import { DEFAULT_GPU_RESOURCE } from './constants';
import { ModelDeploymentSpecSchema } from './schema';
import type { ModelDeployment, ModelDeploymentSpec } from './types';
import { isRecord, type Json } from '../schema/json';

const DEFAULT_MOUNT_PATHS: Record<string, string> = {
  modelCache: '/model-cache',
  compilationCache: '/compilation-cache',
};

/** Quantities given as numbers become strings: upstream's Go types read cpu/memory as strings. */
function quantitiesAsStrings(spec: Json): void {
  const holders = [spec.resources, spec.scaling?.prefill, spec.scaling?.decode];
  for (const holder of holders) {
    if (!isRecord<Json>(holder)) continue;
    for (const key of ['cpu', 'memory']) {
      if (typeof holder[key] === 'number') holder[key] = String(holder[key]);
    }
  }
}

function storageDefaults(spec: Json, deploymentName: string | undefined): void {
  const volumes = spec.model?.storage?.volumes;
  if (!Array.isArray(volumes)) return;
  for (const volume of volumes) {
    if (!isRecord<Json>(volume)) continue;
    if (volume.mountPath === undefined && DEFAULT_MOUNT_PATHS[volume.purpose]) {
      volume.mountPath = DEFAULT_MOUNT_PATHS[volume.purpose];
    }
    // A size means the controller creates the PVC: its name and access mode follow from the deployment.
    if (volume.size !== undefined) {
      if (
        volume.claimName === undefined &&
        deploymentName &&
        typeof volume.name === 'string'
      ) {
        volume.claimName = `${deploymentName}-${volume.name}`;
      }
      if (volume.accessMode === undefined) volume.accessMode = 'ReadWriteMany';
    }
  }
}

/**
 * Returns a defaulted copy of a spec. Never throws and never drops a field:
 * a malformed spec comes back with defaults applied where they fit, for the
 * validator to report on.
 *
 * @public
 */
export function applySpecDefaults(
  spec: ModelDeploymentSpec,
  deploymentName?: string,
): ModelDeploymentSpec {
  if (!isRecord<Json>(spec)) return spec;
  // The schema walk copies every object it passes, so the caller's spec is never modified.
  const defaulted = applySchemaDefaults(ModelDeploymentSpecSchema, {
    ...spec,
  }) as Json;
  quantitiesAsStrings(defaulted);
  storageDefaults(defaulted, deploymentName);
  return defaulted as ModelDeploymentSpec;
}

/** Returns a defaulted copy of a ModelDeployment (spec only; status is never defaulted). @public */
export function applyModelDeploymentDefaults(
  md: ModelDeployment,
): ModelDeployment {
  if (!isRecord<Json>(md) || !isRecord<Json>(md.spec)) return md;
  return { ...md, spec: applySpecDefaults(md.spec, md.metadata?.name) };
}

/** The API-facing model name: `servedName`, else the model ID's last path segment; none for custom images. @public */
export function resolveServedName(
  spec: ModelDeploymentSpec,
): string | undefined {
  if (spec.model?.source === 'custom') return undefined;
  if (spec.model?.servedName) return spec.model.servedName;
  const id = spec.model?.id;
  if (!id) return undefined;
  return id.split('/').filter(Boolean).pop();
}

/** Total GPUs per replica set: resources.gpu in aggregated mode, prefill + decode workers when disaggregated. @public */
export function gpuRequested(spec: ModelDeploymentSpec): boolean {
  if (spec.serving?.mode === 'disaggregated') {
    return (
      (spec.scaling?.prefill?.gpu?.count ?? 0) > 0 ||
      (spec.scaling?.decode?.gpu?.count ?? 0) > 0
    );
  }
  return (spec.resources?.gpu?.count ?? 0) > 0;
}

/** The GPU resource name a spec asks for. @public */
export function gpuResourceName(spec: ModelDeploymentSpec): string {
  return (
    spec.resources?.gpu?.type ??
    spec.scaling?.prefill?.gpu?.type ??
    spec.scaling?.decode?.gpu?.type ??
    DEFAULT_GPU_RESOURCE
  );
}

const QUANTITY_HOLDERS = [
  'object.spec.resources',
  'object.spec.scaling.prefill',
  'object.spec.scaling.decode',
];

/** CEL: `holder` has a cpu or memory given as a number (quantitiesAsStrings turns it into a string). */
function numericQuantity(holder: string): string {
  return ['cpu', 'memory']
    .map(key => `(has(${holder}.${key}) && type(${holder}.${key}) != string)`)
    .join(' || ');
}

/**
 * The mutating webhook's `matchConditions` entry: call it only when
 * `applySpecDefaults` can change the object the API server hands it. By
 * then the API server has applied the CRD's own schema defaults (wherever
 * the parent object exists), so what is left is this file's seed defaults:
 * cpu or memory given as numbers, and storage volumes without a mount path,
 * access mode or claim name (a missing `serving` or `scaling` too, which
 * only a CRD older than this schema's leaves missing). Any other spec, a
 * user's minimal one included, skips the webhook call, which costs the API
 * server about as much again as the create itself. Errs towards calling:
 * every case defaulting can change must be true here (defaults.test.ts
 * checks this against applySpecDefaults).
 *
 * @public
 */
export const DEFAULTS_NEEDED_CONDITION = {
  name: 'defaults-needed',
  expression: [
    'has(object.spec) && (',
    '!has(object.spec.serving) || !has(object.spec.serving.mode) || !has(object.spec.scaling)',
    ` || (has(object.spec.resources) && (${numericQuantity(
      QUANTITY_HOLDERS[0],
    )}))`,
    ...QUANTITY_HOLDERS.slice(1).map(
      holder =>
        ` || (has(object.spec.scaling) && has(${holder}) && (${numericQuantity(
          holder,
        )}))`,
    ),
    ' || (has(object.spec.model) && has(object.spec.model.storage) && has(object.spec.model.storage.volumes) && object.spec.model.storage.volumes.exists(v,',
    ` (!has(v.mountPath) && has(v.purpose) && v.purpose in [${Object.keys(
      DEFAULT_MOUNT_PATHS,
    )
      .map(purpose => `'${purpose}'`)
      .join(', ')}])`,
    ' || (has(v.size) && (!has(v.accessMode) || !has(v.claimName)))))',
    ')',
  ].join(''),
};

/**
 * The detail page's actions as pure functions: each returns the body of the
 * update it sends (the deployment as stored, status left out, one field
 * changed), so the backend validates and applies it like the wizard's edit.
 */
import {
  type ModelDeployment,
  RECONCILE_PAUSED_ANNOTATION,
} from '@runway-portal/plugin-runway-common';
import type { KubeObject } from '../api/types';

type Md = ModelDeployment & KubeObject;

/** What the update carries: identity and spec, without status and server-owned metadata. */
function updateBody(md: Md, annotations?: Record<string, string>): KubeObject {
  const { name, namespace, labels } = md.metadata ?? {};
  const merged = { ...(md.metadata?.annotations ?? {}), ...annotations };
  return {
    apiVersion: md.apiVersion,
    kind: md.kind,
    metadata: {
      name,
      namespace,
      ...(labels ? { labels } : {}),
      ...(Object.keys(merged).length > 0 ? { annotations: merged } : {}),
    },
    spec: md.spec,
  };
}

/** Disaggregated deployments scale prefill and decode workers; the others their replicas. */
export function isDisaggregated(md: Md): boolean {
  return md.spec?.serving?.mode === 'disaggregated';
}

export interface ScaleTarget {
  replicas?: number;
  prefill?: number;
  decode?: number;
}

export function currentScale(md: Md): ScaleTarget {
  const scaling = md.spec?.scaling ?? {};
  return isDisaggregated(md)
    ? {
        prefill: scaling.prefill?.replicas ?? 1,
        decode: scaling.decode?.replicas ?? 1,
      }
    : { replicas: scaling.replicas ?? 1 };
}

/** The most replicas the form offers; the cluster's quota and GPUs are the real bound. */
export const MAX_REPLICAS = 100;

/** Why `text` is not a replica count for `field` (undefined when it is one). */
export function replicaIssue(field: string, text: string): string | undefined {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_REPLICAS)
    return `${field} must be a whole number from 0 to ${MAX_REPLICAS}`;
  return undefined;
}

export function scaledDeployment(md: Md, to: ScaleTarget): KubeObject {
  const body = updateBody(md);
  const scaling = { ...(md.spec?.scaling ?? {}) };
  if (isDisaggregated(md)) {
    if (to.prefill !== undefined)
      scaling.prefill = { ...scaling.prefill, replicas: to.prefill };
    if (to.decode !== undefined)
      scaling.decode = { ...scaling.decode, replicas: to.decode };
  } else if (to.replicas !== undefined) {
    scaling.replicas = to.replicas;
  }
  return { ...body, spec: { ...md.spec, scaling } };
}

/** Seed 000's pause annotation: the controllers leave a paused deployment as it is. */
export function isPaused(md: Md): boolean {
  return md.metadata?.annotations?.[RECONCILE_PAUSED_ANNOTATION] === 'true';
}

export function pausedDeployment(md: Md, paused: boolean): KubeObject {
  return updateBody(md, {
    [RECONCILE_PAUSED_ANNOTATION]: paused ? 'true' : 'false',
  });
}

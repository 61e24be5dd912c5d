import { createHash } from 'node:crypto';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { UpstreamKind } from './definition';

/** The CRD name of an upstream kind: `<plural>.<group>`. */
export function crdName(upstream: UpstreamKind): string {
  return `${upstream.plural}.${upstream.group}`;
}

interface CrdVersion {
  name?: string;
  served?: boolean;
}

/**
 * The apiVersion to write for an installed CRD: the first of the provider's
 * versions (most preferred first) that the CRD serves, once the CRD is
 * Established. `undefined` when the CRD is missing, not yet established, or
 * serves none of them.
 */
export function detectApiVersion(upstream: UpstreamKind, crd: KubeObject | undefined): string | undefined {
  if (!crd || crd.metadata?.deletionTimestamp) return undefined;
  const spec = crd.spec as { group?: string; versions?: CrdVersion[] } | undefined;
  if (spec?.group !== upstream.group) return undefined;
  const conditions = ((crd.status as { conditions?: Array<{ type?: string; status?: string }> } | undefined)
    ?.conditions ?? []);
  if (!conditions.some(c => c.type === 'Established' && c.status === 'True')) return undefined;
  const served = new Set((spec.versions ?? []).filter(v => v.served).map(v => v.name));
  const version = upstream.versions.find(v => served.has(v));
  return version ? `${upstream.group}/${version}` : undefined;
}

/** The status message of a deployment whose provider's CRD is missing (seed 000 section 8). */
export function crdNotInstalledMessage(providerName: string): string {
  return `Provider '${providerName}' CRD not installed in cluster`;
}

/** A short hash of the schema the CRD serves for `apiVersion` (status.upstreamSchemaHash): it changes when upstream changes the schema without a new version. */
export function schemaHash(crd: KubeObject | undefined, apiVersion: string): string | undefined {
  const version = apiVersion.split('/').pop();
  const spec = crd?.spec as { versions?: Array<{ name?: string; schema?: unknown }> } | undefined;
  const schema = spec?.versions?.find(v => v.name === version)?.schema;
  return schema === undefined ? undefined : createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 12);
}

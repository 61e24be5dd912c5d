import { createHash } from 'node:crypto';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { UpstreamKind } from './definition';

/** The CRD name of an upstream kind: `<plural>.<group>`. @public */
export function crdName(upstream: UpstreamKind): string {
  return `${upstream.plural}.${upstream.group}`;
}

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
}

/**
 * The apiVersion to write for an installed CRD, once it is Established: its
 * storage version when the provider supports it and the CRD serves it (a
 * write then needs no conversion: with several versions, conversion may be
 * an operator's webhook that is not running, e.g. Dynamo v1.3.0 stores
 * v1alpha1 and converts v1beta1 through its webhook); otherwise the first of
 * the provider's versions (most preferred first) that the CRD serves.
 * `undefined` when the CRD is missing, not yet established, or serves none
 * of them.
 *
 * @public
 */
export function detectApiVersion(
  upstream: UpstreamKind,
  crd: KubeObject | undefined,
): string | undefined {
  if (!crd || crd.metadata?.deletionTimestamp) return undefined;
  const spec = crd.spec as
    | { group?: string; versions?: CrdVersion[] }
    | undefined;
  if (spec?.group !== upstream.group) return undefined;
  const conditions =
    (
      crd.status as
        | { conditions?: Array<{ type?: string; status?: string }> }
        | undefined
    )?.conditions ?? [];
  if (!conditions.some(c => c.type === 'Established' && c.status === 'True'))
    return undefined;
  const served = (spec.versions ?? []).filter(v => v.served);
  const storage = served.find(v => v.storage)?.name;
  const version =
    storage && upstream.versions.includes(storage)
      ? storage
      : upstream.versions.find(v => served.some(s => s.name === v));
  return version ? `${upstream.group}/${version}` : undefined;
}

/** The status message of a deployment whose provider's CRD is missing (seed 000 section 8): runway-common's, one text. */
export { crdNotInstalledMessage } from '@runway-portal/plugin-runway-common';

/** A short hash of the schema the CRD serves for `apiVersion` (status.upstreamSchemaHash): it changes when upstream changes the schema without a new version. @public */
export function schemaHash(
  crd: KubeObject | undefined,
  apiVersion: string,
): string | undefined {
  const version = apiVersion.split('/').pop();
  const spec = crd?.spec as
    | { versions?: Array<{ name?: string; schema?: unknown }> }
    | undefined;
  const schema = spec?.versions?.find(v => v.name === version)?.schema;
  return schema === undefined
    ? undefined
    : createHash('sha256')
        .update(JSON.stringify(schema))
        .digest('hex')
        .slice(0, 12);
}

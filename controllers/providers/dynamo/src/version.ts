/**
 * Which DynamoGraphDeployment version to write (seed 000 section 4.10).
 *
 * Both Dynamo CRDs in the wild serve v1alpha1 and v1beta1 but store only one
 * (v1.3.0-era: v1alpha1; current: v1beta1), converting between them with the
 * Dynamo operator's conversion webhook. Writing the stored version needs no
 * conversion, so it works even while that webhook is down; the other version
 * would fail every write then.
 */
import type { DynamoApiVersion } from './engine';

export const KNOWN_DYNAMO_VERSIONS: readonly DynamoApiVersion[] = ['v1alpha1', 'v1beta1'];
export const DGD_CRD_NAME = 'dynamographdeployments.nvidia.com';

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
}

export type VersionDetection =
  | { ok: true; version: DynamoApiVersion; apiVersion: string }
  | { ok: false; message: string };

/** Picks the version to write from the installed CRD (undefined when it is not installed). */
export function detectDynamoVersion(crd: { spec?: { versions?: CrdVersion[] } } | undefined): VersionDetection {
  if (!crd) return { ok: false, message: "Provider 'dynamo' CRD not installed in cluster" };
  const versions = crd.spec?.versions ?? [];
  const known = (v: CrdVersion) => v.served && (KNOWN_DYNAMO_VERSIONS as readonly (string | undefined)[]).includes(v.name);
  const pick = versions.find(v => known(v) && v.storage) ?? versions.find(known);
  if (!pick?.name) {
    const served = versions.filter(v => v.served).map(v => v.name).join(', ') || 'none';
    return {
      ok: false,
      message: `DynamoGraphDeployment CRD serves ${served}; this provider writes ${KNOWN_DYNAMO_VERSIONS.join(' or ')}: upgrade the provider or install a matching Dynamo release`,
    };
  }
  const version = pick.name as DynamoApiVersion;
  return { ok: true, version, apiVersion: `nvidia.com/${version}` };
}

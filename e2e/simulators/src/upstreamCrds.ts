import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The upstream CRDs the simulated operators own (KAITO Workspace, Dynamo
 * DynamoGraphDeployment, KubeRay RayService) plus GAIE InferencePool,
 * copied into this package (see upstream-crds/PROVENANCE.tsv).
 */
export const UPSTREAM_CRDS_DIR = join(
  dirname(require.resolve('@runway-portal/e2e-simulators/package.json')),
  'upstream-crds',
);

export function upstreamCrdFiles(): string[] {
  return readdirSync(UPSTREAM_CRDS_DIR)
    .filter(f => f.endsWith('.yaml'))
    .sort()
    .map(f => join(UPSTREAM_CRDS_DIR, f));
}

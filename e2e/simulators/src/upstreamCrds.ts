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

/**
 * SIMULATOR: stand-ins for the Gateway API's Gateway and HTTPRoute CRDs,
 * written for this project (see gateway-api/README.md), not upstream's.
 */
export const GATEWAY_API_CRDS_DIR = join(
  dirname(UPSTREAM_CRDS_DIR),
  'gateway-api',
);

const yamlFiles = (dir: string) =>
  readdirSync(dir)
    .filter(f => f.endsWith('.yaml'))
    .sort()
    .map(f => join(dir, f));

export function upstreamCrdFiles(): string[] {
  return yamlFiles(UPSTREAM_CRDS_DIR);
}

export function gatewayApiCrdFiles(): string[] {
  return yamlFiles(GATEWAY_API_CRDS_DIR);
}

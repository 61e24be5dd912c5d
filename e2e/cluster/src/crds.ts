import {
  ApiextensionsV1Api,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { isCrd, readManifests } from './manifests';
import { serverSideApply } from './rawRequest';
import { waitFor } from './wait';

export const FIELD_MANAGER = 'runway-e2e-cluster';

export interface InstalledCrds {
  /** metadata.name of every CRD installed (and Established). */
  names: string[];
  /** Documents in the given paths that are not CRDs (e.g. samples next to CRDs). */
  skipped: Array<{ source: string; kind: string }>;
}

/** Established and NamesAccepted conditions; a message when a condition says False. */
export function crdReadiness(crd: V1CustomResourceDefinition): {
  ready: boolean;
  problem?: string;
} {
  const conditions = crd.status?.conditions ?? [];
  const established = conditions.find(
    condition => condition.type === 'Established',
  );
  const names = conditions.find(
    condition => condition.type === 'NamesAccepted',
  );
  if (names?.status === 'False') {
    return {
      ready: false,
      problem: `NamesAccepted=False: ${names.reason}: ${names.message}`,
    };
  }
  return { ready: established?.status === 'True' };
}

/**
 * Applies (server-side, forced: re-installing updates) every CRD in the files
 * and folders given, then waits until each is Established.
 */
export async function installCrds(
  kubeConfig: KubeConfig,
  paths: readonly string[],
  timeoutMs = 60_000,
): Promise<InstalledCrds> {
  const manifests = await readManifests(paths);
  const crds = manifests.filter(manifest => isCrd(manifest.object));
  if (crds.length === 0) {
    throw new Error(`No CustomResourceDefinition found in ${paths.join(', ')}`);
  }
  await Promise.all(
    crds.map(async ({ object, source }) => {
      if (!object.metadata?.name) {
        throw new Error(`${source}: the CRD has no metadata.name`);
      }
      const { status: _ignored, ...withoutStatus } = object;
      const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(
        object.metadata.name,
      )}`;
      try {
        // Sent as read: the typed client would drop x-kubernetes-* and enum keys.
        await serverSideApply(
          kubeConfig,
          path,
          { ...withoutStatus, apiVersion: 'apiextensions.k8s.io/v1' },
          FIELD_MANAGER,
        );
      } catch (error) {
        throw new Error(
          `Installing CRD ${object.metadata.name} from ${source} failed: ${
            (error as Error).message
          }`,
        );
      }
    }),
  );

  const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
  await Promise.all(
    crds.map(({ object }) =>
      waitFor(
        `CRD ${object.metadata.name} to become Established`,
        async () => {
          const crd = await extensions.readCustomResourceDefinition({
            name: object.metadata.name,
          });
          const { ready, problem } = crdReadiness(crd);
          if (problem)
            throw new Error(`CRD ${object.metadata.name}: ${problem}`);
          return ready;
        },
        { timeoutMs },
      ),
    ),
  );
  return {
    names: crds.map(({ object }) => object.metadata.name as string),
    skipped: manifests
      .filter(manifest => !isCrd(manifest.object))
      .map(({ source, object }) => ({ source, kind: String(object.kind) })),
  };
}

/**
 * KubeRay: a ModelDeployment becomes a `RayService` (ray.io/v1) serving the
 * model with Ray Serve LLM (`ray.serve.llm`, vLLM inside). Pure functions
 * only; the shared provider loop does every read and write.
 *
 * - Aggregated: one application built by `build_openai_app`, one GPU worker
 *   group sized by `scaling.replicas` and `resources`.
 * - Disaggregated: `build_pd_openai_app` with prefill and decode configs, a
 *   worker group for each (`scaling.prefill` / `scaling.decode`).
 * - Head node: `provider.overrides.head.resources` and `head.rayStartParams`
 *   (seed 000 section 4.15; defaults cpu "2", memory "4Gi", `{}`).
 * - Storage: `spec.model.storage.volumes` are mounted on the head and every
 *   worker group (runway-common's storage translation), with `HF_HOME` and
 *   `VLLM_CACHE_ROOT` at the model and compilation caches; the PVCs of
 *   volumes with a `size` are created alongside the RayService.
 * - Status from the RayService `Ready` condition (`serviceStatus` is
 *   deprecated upstream and only read when no condition exists).
 */
import { PersistentVolumeClaims } from '@runway-portal/controller-runtime';
import { KUBERAY_PROVIDER } from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from '@runway-portal/provider-shared';
import { KUBERAY_OVERRIDES } from './overrides';
import { mapKubeRayStatus } from './status';
import { transformKubeRay } from './transform';

/** @public */
export const KUBERAY_VERSION = 'kuberay-provider:v0.1.0';

/** @public */
export const kuberayProvider: ProviderDefinition = {
  name: 'kuberay',
  registration: KUBERAY_PROVIDER,
  version: KUBERAY_VERSION,
  upstream: {
    group: 'ray.io',
    kind: 'RayService',
    plural: 'rayservices',
    versions: ['v1'],
  },
  extraKinds: [PersistentVolumeClaims],
  overrides: KUBERAY_OVERRIDES,
  transform: transformKubeRay,
  mapStatus: mapKubeRayStatus,
};

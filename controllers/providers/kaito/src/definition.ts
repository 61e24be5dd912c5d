/**
 * KAITO: a ModelDeployment becomes a KAITO `Workspace` (kaito.sh v1beta1,
 * or v1alpha1 on older installations). Pure functions, except
 * `prepareKaito`, the hub lookup the shared loop runs before the transform;
 * the loop does every cluster read and write.
 *
 * - llama.cpp (CPU or GPU): a Workspace with a pod template running the
 *   user's image (KAITO has no llama.cpp preset), as seed 000 example 2,
 *   with the GGUF file chosen from the hub's file list (`gguf.ts`).
 * - vLLM without `spec.image`: a KAITO preset named as the installed KAITO
 *   accepts (`presets.ts`: the Hugging Face id from v0.9.0, the built-in
 *   preset name before); the served name and engine flags go into an
 *   inference ConfigMap (`inference.config`).
 * - GPU deployments without `spec.nodeSelector` select nodes labelled
 *   `nvidia.com/gpu.present: "true"` (GPU feature discovery's label), so
 *   KAITO never picks CPU nodes of a mixed pool.
 * - vLLM with `spec.image`: a pod template running that image.
 * - Storage (`spec.model.storage.volumes`): mounted in template-mode pods
 *   (runway-common's storage translation; PVCs of `size` volumes created).
 *   A preset builds its own pods and the Workspace has no field for volumes,
 *   so a preset with volumes fails naming the field instead of dropping them.
 */
import {
  ConfigMaps,
  PersistentVolumeClaims,
} from '@runway-portal/controller-runtime';
import {
  KAITO_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from '@runway-portal/provider-shared';
import { isGgufPath, QUANTIZATION_ARG, resolveGgufFile } from './gguf';
import { detectKaitoRelease } from './presets';
import { mapKaitoStatus } from './status';
import { transformKaito } from './transform';

/** @public */
export const KAITO_VERSION = 'kaito-provider:v0.1.0';

/**
 * The lookup before the transform: a llama.cpp model named by its
 * repository gets its GGUF file from the hub's file list.
 */
export async function prepareKaito(
  md: ModelDeployment,
): Promise<Record<string, string> | undefined> {
  const spec = md.spec;
  const id = spec.model?.id;
  if (
    spec.engine?.type !== 'llamacpp' ||
    spec.model.source === 'custom' ||
    !id ||
    isGgufPath(id)
  )
    return undefined;
  // Without an image the transform fails naming spec.image: no need to ask the hub first.
  if (!(spec.image ?? spec.engine?.image)) return undefined;
  return {
    ggufFile: await resolveGgufFile(id, spec.engine?.args?.[QUANTIZATION_ARG]),
  };
}

/** @public */
export const kaitoProvider: ProviderDefinition = {
  name: 'kaito',
  registration: KAITO_PROVIDER,
  version: KAITO_VERSION,
  upstream: {
    group: 'kaito.sh',
    kind: 'Workspace',
    plural: 'workspaces',
    versions: ['v1beta1', 'v1alpha1'],
  },
  upstreamRelease: detectKaitoRelease,
  prepare: prepareKaito,
  extraKinds: [ConfigMaps, PersistentVolumeClaims],
  // KAITO has no overrides (seed 000 section 4.15): every key is reported as unknown.
  overrides: {},
  transform: transformKaito,
  mapStatus: mapKaitoStatus,
};

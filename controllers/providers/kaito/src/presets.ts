/**
 * KAITO preset names: which `inference.preset.name` the installed KAITO
 * accepts for a Hugging Face model.
 *
 * - KAITO v0.9.0 and later accept a Hugging Face model card id as the preset
 *   name for vLLM (`IsValidPreset` takes any `org/name`; built-in models are
 *   mapped back to their tuned preset), so the id itself is written.
 * - Older releases accept only their built-in preset names, listed below
 *   with the Hugging Face repository each one serves and the first release
 *   that has it. A model without a built-in preset cannot run as a preset
 *   there: the transform fails naming `spec.model.id` and the alternatives.
 *
 * Source: kaito-project/kaito `presets/workspace/models/supported_models.yaml`
 * at every release tag v0.2.0 to v0.12.0 (each preset's `version` URL names
 * its Hugging Face repository), and `website/docs/presets.md` for the v0.9.0
 * Hugging Face id support. The llama-2 presets are left out: they served
 * private weights, not a Hugging Face repository.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';

export interface KaitoPreset {
  /** The preset name older KAITO releases accept. */
  name: string;
  /** The Hugging Face repository it serves. */
  huggingFace: string;
  /** First KAITO release with the preset. */
  since: string;
}

export const KAITO_PRESETS: readonly KaitoPreset[] = [
  { name: 'falcon-7b', huggingFace: 'tiiuae/falcon-7b', since: '0.2.0' },
  {
    name: 'falcon-7b-instruct',
    huggingFace: 'tiiuae/falcon-7b-instruct',
    since: '0.2.0',
  },
  { name: 'falcon-40b', huggingFace: 'tiiuae/falcon-40b', since: '0.2.0' },
  {
    name: 'falcon-40b-instruct',
    huggingFace: 'tiiuae/falcon-40b-instruct',
    since: '0.2.0',
  },
  {
    name: 'mistral-7b',
    huggingFace: 'mistralai/Mistral-7B-v0.3',
    since: '0.2.0',
  },
  {
    name: 'mistral-7b-instruct',
    huggingFace: 'mistralai/Mistral-7B-Instruct-v0.3',
    since: '0.2.0',
  },
  { name: 'phi-2', huggingFace: 'microsoft/phi-2', since: '0.2.0' },
  {
    name: 'phi-3-mini-4k-instruct',
    huggingFace: 'microsoft/Phi-3-mini-4k-instruct',
    since: '0.3.0',
  },
  {
    name: 'phi-3-mini-128k-instruct',
    huggingFace: 'microsoft/Phi-3-mini-128k-instruct',
    since: '0.3.0',
  },
  {
    name: 'phi-3-medium-4k-instruct',
    huggingFace: 'microsoft/Phi-3-medium-4k-instruct',
    since: '0.3.0',
  },
  {
    name: 'phi-3-medium-128k-instruct',
    huggingFace: 'microsoft/Phi-3-medium-128k-instruct',
    since: '0.3.0',
  },
  {
    name: 'phi-3.5-mini-instruct',
    huggingFace: 'microsoft/Phi-3.5-mini-instruct',
    since: '0.4.0',
  },
  {
    name: 'qwen2.5-coder-7b-instruct',
    huggingFace: 'Qwen/Qwen2.5-Coder-7B-Instruct',
    since: '0.4.1',
  },
  {
    name: 'deepseek-r1-distill-qwen-14b',
    huggingFace: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-14B',
    since: '0.4.3',
  },
  {
    name: 'deepseek-r1-distill-llama-8b',
    huggingFace: 'deepseek-ai/DeepSeek-R1-Distill-Llama-8B',
    since: '0.4.3',
  },
  {
    name: 'phi-4-mini-instruct',
    huggingFace: 'microsoft/Phi-4-mini-instruct',
    since: '0.4.5',
  },
  { name: 'phi-4', huggingFace: 'microsoft/phi-4', since: '0.4.5' },
  {
    name: 'qwen2.5-coder-32b-instruct',
    huggingFace: 'Qwen/Qwen2.5-Coder-32B-Instruct',
    since: '0.4.5',
  },
  {
    name: 'llama-3.1-8b-instruct',
    huggingFace: 'meta-llama/Llama-3.1-8B-Instruct',
    since: '0.4.6',
  },
  {
    name: 'llama-3.3-70b-instruct',
    huggingFace: 'meta-llama/Llama-3.3-70B-Instruct',
    since: '0.5.0',
  },
  {
    name: 'deepseek-r1-0528',
    huggingFace: 'deepseek-ai/DeepSeek-R1-0528',
    since: '0.6.0',
  },
  {
    name: 'deepseek-v3-0324',
    huggingFace: 'deepseek-ai/DeepSeek-V3-0324',
    since: '0.6.0',
  },
  { name: 'gpt-oss-20b', huggingFace: 'openai/gpt-oss-20b', since: '0.7.0' },
  { name: 'gpt-oss-120b', huggingFace: 'openai/gpt-oss-120b', since: '0.7.0' },
  {
    name: 'ministral-3-3b-instruct',
    huggingFace: 'mistralai/Ministral-3-3B-Instruct-2512',
    since: '0.8.0',
  },
  {
    name: 'ministral-3-8b-instruct',
    huggingFace: 'mistralai/Ministral-3-8B-Instruct-2512',
    since: '0.8.0',
  },
  {
    name: 'ministral-3-14b-instruct',
    huggingFace: 'mistralai/Ministral-3-14B-Instruct-2512',
    since: '0.8.0',
  },
  {
    name: 'mistral-large-3-675b-instruct',
    huggingFace: 'mistralai/Mistral-Large-3-675B-Instruct-2512',
    since: '0.8.0',
  },
  {
    name: 'gemma-3-4b-instruct',
    huggingFace: 'google/gemma-3-4b-it',
    since: '0.8.0',
  },
  {
    name: 'gemma-3-27b-instruct',
    huggingFace: 'google/gemma-3-27b-it',
    since: '0.8.0',
  },
];

/** The first KAITO release that takes a Hugging Face id as a vLLM preset name. */
export const HF_PRESET_RELEASE = '0.9.0';
/** The first KAITO release serving kaito.sh/v1beta1. */
export const V1BETA1_RELEASE = '0.4.5';

/** Compares dotted release numbers (`0.10.0` > `0.9.0`). */
export function compareReleases(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function servesVersion(
  crd: KubeObject,
  version: string,
): Record<string, any> | undefined {
  const versions =
    (
      crd.spec as
        | {
            versions?: Array<{ name?: string; served?: boolean; schema?: any }>;
          }
        | undefined
    )?.versions ?? [];
  return versions.find(v => v.name === version && v.served);
}

/**
 * The oldest KAITO release the installed Workspace CRD is consistent with.
 * KAITO labels neither its CRDs nor its releases in them, so this reads the
 * schema: v0.9.0 added `status.state` to v1beta1, v0.4.5 added v1beta1.
 * Undefined without a Workspace CRD.
 */
export function detectKaitoRelease(
  crd: KubeObject | undefined,
): string | undefined {
  if (!crd) return undefined;
  const v1beta1 = servesVersion(crd, 'v1beta1');
  if (!v1beta1) return servesVersion(crd, 'v1alpha1') ? '0.2.0' : undefined;
  const statusProps =
    v1beta1.schema?.openAPIV3Schema?.properties?.status?.properties ?? {};
  return 'state' in statusProps ? HF_PRESET_RELEASE : V1BETA1_RELEASE;
}

/** The built-in preset serving a Hugging Face repository (ids compare case-insensitively, as KAITO does). */
export function builtInPreset(modelId: string): KaitoPreset | undefined {
  const id = modelId.toLowerCase();
  return KAITO_PRESETS.find(p => p.huggingFace.toLowerCase() === id);
}

export type PresetChoice =
  | { ok: true; name: string; warning?: string }
  | { ok: false; message: string };

/**
 * The preset name to write for a model on a KAITO release (the oldest the
 * CRD is consistent with; undefined means "current", as in the preview).
 */
export function choosePreset(
  modelId: string,
  release: string | undefined,
): PresetChoice {
  if (release === undefined || compareReleases(release, HF_PRESET_RELEASE) >= 0)
    return { ok: true, name: modelId };
  // The first release the CRD rules out: v1alpha1 alone means older than v1beta1's release.
  const ceiling =
    compareReleases(release, V1BETA1_RELEASE) < 0
      ? V1BETA1_RELEASE
      : HF_PRESET_RELEASE;
  const available = (p: KaitoPreset) => compareReleases(p.since, ceiling) < 0;
  const preset = builtInPreset(modelId);
  if (!preset || !available(preset)) {
    const known = KAITO_PRESETS.filter(available)
      .map(p => p.huggingFace)
      .join(', ');
    const why = preset
      ? `KAITO's preset '${preset.name}' for '${modelId}' needs KAITO v${preset.since} or later, and this KAITO is older than v${ceiling}`
      : `'${modelId}' has no KAITO preset on this KAITO (older than v${ceiling}, which accepts only its built-in presets)`;
    return {
      ok: false,
      message:
        `${why}: set spec.image to run vLLM in a pod template, upgrade KAITO to v${HF_PRESET_RELEASE} or later (any Hugging Face model), ` +
        `choose another provider (dynamo, llmd, kuberay), or use a model with a built-in preset: ${known}`,
    };
  }
  // Between the CRD's floor and ceiling the exact release is unknown: a newer preset may be missing.
  const warning =
    compareReleases(preset.since, release) > 0
      ? `KAITO preset '${preset.name}' for ${modelId} needs KAITO v${preset.since} or later; the installed KAITO is at least v${release} (older releases reject it)`
      : undefined;
  return { ok: true, name: preset.name, ...(warning ? { warning } : {}) };
}

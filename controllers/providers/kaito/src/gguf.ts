/**
 * The GGUF file a llama.cpp Workspace runs, chosen from the repository's
 * file list on the hub (`@runway-portal/hub`, which honours HF_ENDPOINT).
 * The choice is pure (`chooseGgufFile`); `resolveGgufFile` is the lookup
 * the provider runs before its transform (`prepare`).
 *
 * - `spec.model.id` naming a file (`org/repo/file.gguf`): that file, no lookup.
 * - `spec.engine.args.quantization` (seed 000 section 15.3 puts quantisation
 *   in `engine.args`; for llama.cpp it is "built into the GGUF file", so here
 *   it picks the file and is not passed to llama.cpp): the one file whose
 *   name carries it (`Q4_K_M` matches `model-Q4_K_M.gguf`, not `Q4_K_M_L`).
 * - Otherwise the repository's only GGUF file; several fail, listing them.
 */
import { HubError, hubEndpoint, listModelFiles } from '@runway-portal/hub';
import { TransformError } from '@runway-portal/provider-shared';

/** The `engine.args` key that picks a quantisation for llama.cpp. */
export const QUANTIZATION_ARG = 'quantization';

const SPLIT_PART = /-(\d{5})-of-\d{5}\.gguf$/i;
const MAX_LISTED = 20;

/** Whether a model id names a file rather than a repository. */
export function isGgufPath(modelId: string): boolean {
  return modelId.toLowerCase().endsWith('.gguf');
}

/**
 * The model files among a repository's files: `.gguf` files, without
 * multimodal projectors (`mmproj-*`), and of split models only the first
 * part (llama.cpp loads the others from it).
 */
export function ggufCandidates(paths: string[]): string[] {
  return paths
    .filter(p => isGgufPath(p))
    .filter(p => !/^mmproj/i.test(p.split('/').pop() ?? p))
    .filter(p => {
      const part = SPLIT_PART.exec(p);
      return !part || part[1] === '00001';
    })
    .sort();
}

function listed(paths: string[]): string {
  const shown = paths.slice(0, MAX_LISTED).join(', ');
  return paths.length > MAX_LISTED
    ? `${shown} and ${paths.length - MAX_LISTED} more`
    : shown;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Files whose name carries the quantisation as a whole word (`-Q4_K_M.gguf`, `.Q4_K_M.gguf`). */
export function matchingQuantization(
  candidates: string[],
  quantization: string,
): string[] {
  const word = new RegExp(
    `(^|[-._/])${escapeRegExp(quantization.toLowerCase())}([-.]|$)`,
  );
  return candidates.filter(p =>
    word.test(p.toLowerCase().replace(/\.gguf$/, '')),
  );
}

/** The file to run, from the repository's files; throws TransformError naming the field to change. */
export function chooseGgufFile(
  modelId: string,
  paths: string[],
  quantization?: string,
): string {
  const candidates = ggufCandidates(paths);
  const nameIt = `name the file in spec.model.id ('${modelId}/<file>.gguf')`;
  if (candidates.length === 0) {
    throw new TransformError(
      'spec.model.id',
      `'${modelId}' has no GGUF file (${
        paths.length > 0 ? `files: ${listed(paths)}` : 'the repository is empty'
      }): llama.cpp runs GGUF models: use a GGUF repository, ${nameIt}, or use vllm`,
    );
  }
  if (quantization) {
    const matches = matchingQuantization(candidates, quantization);
    if (matches.length === 1) return matches[0];
    const field = `spec.engine.args.${QUANTIZATION_ARG}`;
    if (matches.length === 0) {
      throw new TransformError(
        field,
        `no GGUF file of '${modelId}' is quantised as '${quantization}': choose one of the files ${listed(
          candidates,
        )} (its quantisation, or ${nameIt})`,
      );
    }
    throw new TransformError(
      field,
      `'${quantization}' matches ${
        matches.length
      } GGUF files of '${modelId}' (${listed(matches)}): ${nameIt}`,
    );
  }
  if (candidates.length === 1) return candidates[0];
  throw new TransformError(
    'spec.model.id',
    `'${modelId}' has ${candidates.length} GGUF files (${listed(
      candidates,
    )}): set spec.engine.args.${QUANTIZATION_ARG} (e.g. Q4_K_M) or ${nameIt}`,
  );
}

export interface GgufLookupOptions {
  /** Default: `hubEndpoint()` (HF_ENDPOINT, else huggingface.co). */
  endpoint?: string;
  fetch?: typeof fetch;
  /** Clock for the cache (tests). */
  now?: () => number;
}

/** File lists are cached briefly: every reconcile of a llama.cpp deployment needs one. */
const CACHE_TTL_MS = 5 * 60_000;
const cache = new Map<string, { paths: string[]; expires: number }>();

/** Forgets cached file lists (tests). */
export function clearGgufCache(): void {
  cache.clear();
}

/**
 * The GGUF file of `modelId` on the hub. Hub answers that need the user to
 * act (no such repository, gated or private) become TransformErrors naming
 * `spec.model.id`; an unreachable hub is thrown as is, for the loop to retry.
 */
export async function resolveGgufFile(
  modelId: string,
  quantization: string | undefined,
  options: GgufLookupOptions = {},
): Promise<string> {
  const endpoint = options.endpoint ?? hubEndpoint();
  const now = (options.now ?? Date.now)();
  const key = `${endpoint} ${modelId}`;
  let entry = cache.get(key);
  if (!entry || entry.expires <= now) {
    try {
      const files = await listModelFiles(modelId, {
        endpoint,
        fetch: options.fetch,
      });
      entry = { paths: files.map(f => f.path), expires: now + CACHE_TTL_MS };
      cache.set(key, entry);
    } catch (err) {
      if (
        !(err instanceof HubError) ||
        err.code === 'network' ||
        err.code === 'http'
      )
        throw err;
      const why =
        err.code === 'not-found'
          ? ''
          : ` (the KAITO provider reads no Secrets, so it lists files without a token): name the file in spec.model.id ('${modelId}/<file>.gguf')`;
      throw new TransformError('spec.model.id', `${err.message}${why}`);
    }
  }
  return chooseGgufFile(modelId, entry.paths, quantization);
}

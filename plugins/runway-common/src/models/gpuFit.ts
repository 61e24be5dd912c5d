/**
 * Will a model fit on the GPUs a cluster has free? An estimate of the
 * memory a model server needs — the weights plus the KV cache for the
 * context it serves plus a margin for activations — against the memory of
 * the GPUs it would get, as upstream AI Runway's UI offers before deploying.
 * Pure; every number it assumes is named in `assumptions`, so the page can
 * say what the estimate rests on.
 */
import type { GpuType } from '../api/contract';
import { formatBytes } from './display';

/**
 * The node labels NVIDIA GPU feature discovery sets, read for the fit check:
 * one GPU's memory in MiB and its product name.
 *
 * @public
 */
export const GPU_NODE_LABELS = {
  memoryMiB: 'nvidia.com/gpu.memory',
  product: 'nvidia.com/gpu.product',
} as const;

const gpus = (n: number) => `${n} free GPU${n === 1 ? '' : 's'}`;

/** What is known of a model (from the hub's metadata, its config.json, or the user). @public */
export interface ModelFootprint {
  /** Parameter count (e.g. 8.03e9). */
  parameters?: number;
  /** Size of the weight files, when known (the hub's file sizes): preferred over parameters × dtype. */
  weightsBytes?: number;
  /** Bytes per parameter and per KV element: 2 for fp16/bf16 (default), 1 for fp8/int8, 0.5 for 4-bit. */
  dtypeBytes?: number;
  /** From config.json: num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads. */
  layers?: number;
  hiddenSize?: number;
  attentionHeads?: number;
  kvHeads?: number;
}

/** @public */
export interface ServingShape {
  /** Tokens per sequence the server must hold (max context); default 4096. */
  contextLength?: number;
  /** Sequences held at once; default 1. */
  concurrentSequences?: number;
}

/** @public */
export interface MemoryEstimate {
  weightsBytes: number;
  kvCacheBytes: number;
  /** Activations, CUDA graphs and the runtime: a margin on the weights. */
  overheadBytes: number;
  totalBytes: number;
  assumptions: string[];
}

/** @public */
export const DEFAULT_CONTEXT_LENGTH = 4096;
/** Activation and runtime margin, as a share of the weights. @public */
export const OVERHEAD_SHARE = 0.1;
/** Without the architecture, the KV cache is taken as this share of the weights per 4,096 tokens. @public */
export const KV_SHARE_PER_4K_TOKENS = 0.1;
/** The share of a GPU's memory the engine uses (vLLM's default --gpu-memory-utilization). @public */
export const USABLE_GPU_SHARE = 0.9;

const DTYPE_ASSUMPTION = '2 bytes per parameter (fp16/bf16)';

/** The memory one replica needs; undefined when neither the weights' size nor the parameter count is known. @public */
export function estimateModelMemory(
  model: ModelFootprint,
  shape: ServingShape = {},
): MemoryEstimate | undefined {
  const assumptions: string[] = [];
  const dtype = model.dtypeBytes ?? 2;
  // Named only where it is used: for the weights from parameters, or the KV cache from the architecture.
  const assumeDtype = () => {
    if (
      model.dtypeBytes === undefined &&
      !assumptions.includes(DTYPE_ASSUMPTION)
    )
      assumptions.unshift(DTYPE_ASSUMPTION);
  };
  let weightsBytes: number;
  if (model.weightsBytes && model.weightsBytes > 0) {
    weightsBytes = model.weightsBytes;
  } else if (model.parameters && model.parameters > 0) {
    assumeDtype();
    weightsBytes = model.parameters * dtype;
    assumptions.push('weights = parameters × bytes per parameter');
  } else {
    return undefined;
  }
  const context = shape.contextLength ?? DEFAULT_CONTEXT_LENGTH;
  if (shape.contextLength === undefined)
    assumptions.push(`a context of ${DEFAULT_CONTEXT_LENGTH} tokens`);
  const sequences = Math.max(1, shape.concurrentSequences ?? 1);
  const tokens = context * sequences;
  let kvCacheBytes: number;
  const { layers, hiddenSize, attentionHeads } = model;
  if (layers && hiddenSize && attentionHeads) {
    const kvHeads = model.kvHeads ?? attentionHeads;
    const headDim = hiddenSize / attentionHeads;
    assumeDtype();
    // K and V, per layer, per KV head, per token.
    kvCacheBytes = 2 * layers * kvHeads * headDim * dtype * tokens;
  } else {
    kvCacheBytes = weightsBytes * KV_SHARE_PER_4K_TOKENS * (tokens / 4096);
    assumptions.push(
      `a KV cache of ${
        KV_SHARE_PER_4K_TOKENS * 100
      }% of the weights per 4,096 tokens (the architecture is unknown)`,
    );
  }
  const overheadBytes = weightsBytes * OVERHEAD_SHARE;
  return {
    weightsBytes,
    kvCacheBytes,
    overheadBytes,
    totalBytes: weightsBytes + kvCacheBytes + overheadBytes,
    assumptions,
  };
}

/** @public */
export type GpuFitVerdict = 'fits' | 'too-big' | 'not-enough-gpus' | 'unknown';

/** @public */
export interface GpuFit {
  verdict: GpuFitVerdict;
  /** GPUs one replica needs (tensor parallel across them); undefined when unknown. */
  gpusNeeded?: number;
  /** One sentence for the form: what was compared, and what to do. */
  message: string;
  estimate?: MemoryEstimate;
}

/**
 * Compares the estimate with the free GPUs of the chosen cluster: how many
 * GPUs of `gpuMemoryBytes` one replica needs (using `USABLE_GPU_SHARE` of
 * each), and whether `freeGpus` has them (and `maxGpusPerReplica`, one node's
 * worth, when known).
 *
 * @public
 */
export function gpuFit(input: {
  estimate?: MemoryEstimate;
  /** Memory of one GPU; undefined when the cluster does not say. */
  gpuMemoryBytes?: number;
  /** Free GPUs of the chosen type in the cluster; undefined when unknown. */
  freeGpus?: number;
  /** GPUs on the largest node: a replica cannot spread beyond one node. */
  maxGpusPerReplica?: number;
  /** GPUs per replica the form asks for, when set. */
  requestedGpus?: number;
}): GpuFit {
  const { estimate, gpuMemoryBytes, freeGpus } = input;
  if (!estimate)
    return {
      verdict: 'unknown',
      message:
        "The model's size is unknown: pick it from the hub search, or check its size by hand.",
    };
  const need = formatBytes(estimate.totalBytes);
  if (!gpuMemoryBytes || gpuMemoryBytes <= 0)
    return {
      verdict: 'unknown',
      estimate,
      message: `Needs about ${need} of GPU memory; the cluster does not report its GPUs' memory, so the fit cannot be checked.`,
    };
  const usable = gpuMemoryBytes * USABLE_GPU_SHARE;
  const gpusNeeded = Math.max(1, Math.ceil(estimate.totalBytes / usable));
  const per = formatBytes(gpuMemoryBytes);
  if (
    input.maxGpusPerReplica !== undefined &&
    gpusNeeded > input.maxGpusPerReplica
  )
    return {
      verdict: 'too-big',
      gpusNeeded,
      estimate,
      message: `Needs about ${need}: ${gpusNeeded} GPUs of ${per}, more than the ${input.maxGpusPerReplica} of the largest node; choose a smaller or quantized model, or a cluster with bigger GPUs.`,
    };
  if (input.requestedGpus !== undefined && input.requestedGpus < gpusNeeded)
    return {
      verdict: 'too-big',
      gpusNeeded,
      estimate,
      message: `Needs about ${need}: ${gpusNeeded} GPUs of ${per}, but ${input.requestedGpus} per replica are asked for; raise the GPU count to ${gpusNeeded}.`,
    };
  if (freeGpus !== undefined && freeGpus < gpusNeeded)
    return {
      verdict: 'not-enough-gpus',
      gpusNeeded,
      estimate,
      message: `Needs about ${need}: ${gpusNeeded} GPU(s) of ${per}, but only ${freeGpus} are free; it would wait Pending until GPUs free up, or choose another cluster.`,
    };
  return {
    verdict: 'fits',
    gpusNeeded,
    estimate,
    message: `Fits: about ${need} on ${gpusNeeded} GPU(s) of ${per}${
      freeGpus !== undefined ? ` (${freeGpus} free)` : ''
    }.`,
  };
}

/**
 * The fit against the GPUs a cluster really has free, by model and memory
 * (`GpuCapacity.types`, from the node labels in `GPU_NODE_LABELS`): the
 * fewest GPUs of one type on one node that hold the estimate (using
 * `USABLE_GPU_SHARE` of each), or, when none does, the largest free memory
 * one replica could get. Without types it falls back to `gpuFit` (the fit
 * cannot be checked).
 *
 * @public
 */
export function gpuFitOnCluster(input: {
  estimate?: MemoryEstimate;
  types?: GpuType[];
  /** Free GPUs of the resource, for the fallback. */
  freeGpus?: number;
}): GpuFit {
  const { estimate, types } = input;
  const known = (types ?? []).filter(t => t.memoryBytes > 0);
  if (!estimate || known.length === 0)
    return gpuFit({ estimate, freeGpus: input.freeGpus });
  const need = formatBytes(estimate.totalBytes);
  const options = known
    .map(t => ({
      type: t,
      needed: Math.max(
        1,
        Math.ceil(estimate.totalBytes / (t.memoryBytes * USABLE_GPU_SHARE)),
      ),
    }))
    .filter(o => o.needed <= o.type.largestFreeOnNode)
    .sort(
      (a, b) => a.needed - b.needed || a.type.memoryBytes - b.type.memoryBytes,
    );
  const best = options[0];
  if (best) {
    const product = best.type.product ? ` (${best.type.product})` : '';
    return {
      verdict: 'fits',
      gpusNeeded: best.needed,
      estimate,
      message: `Fits on ${gpus(best.needed)} of ${formatBytes(
        best.type.memoryBytes,
      )}${product}: needs about ${need}.`,
    };
  }
  const largest = Math.max(
    0,
    ...known.map(t => t.largestFreeOnNode * t.memoryBytes),
  );
  const sizes = [...new Set(known.map(t => formatBytes(t.memoryBytes)))].join(
    ', ',
  );
  if (largest === 0)
    return {
      verdict: 'not-enough-gpus',
      estimate,
      message: `Does not fit now: needs about ${need}, and no GPU is free (GPUs of ${sizes}); it would wait Pending until GPUs free up, or choose another cluster.`,
    };
  return {
    verdict: 'too-big',
    estimate,
    message: `Does not fit: needs about ${need}, largest free is ${formatBytes(
      largest,
    )} on one node (${
      USABLE_GPU_SHARE * 100
    }% of it usable); choose a smaller or quantized model, or a cluster with more or bigger GPUs free.`,
  };
}

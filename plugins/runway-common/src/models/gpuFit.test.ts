import {
  estimateModelMemory,
  gpuFit,
  gpuFitOnCluster,
  USABLE_GPU_SHARE,
} from './gpuFit';

const GiB = 1024 ** 3;

/** Llama 3.1 8B's config.json. */
const llama8b = {
  parameters: 8.03e9,
  layers: 32,
  hiddenSize: 4096,
  attentionHeads: 32,
  kvHeads: 8,
};

describe('estimateModelMemory', () => {
  it('adds weights, the KV cache of the context and a margin', () => {
    const e = estimateModelMemory(llama8b, { contextLength: 8192 })!;
    expect(e.weightsBytes).toBe(8.03e9 * 2);
    // 2 (K, V) × 32 layers × 8 KV heads × 128 dims × 2 bytes × 8192 tokens = 1 GiB.
    expect(e.kvCacheBytes).toBe(GiB);
    expect(e.overheadBytes).toBeCloseTo(e.weightsBytes * 0.1);
    expect(e.totalBytes).toBeCloseTo(
      e.weightsBytes + e.kvCacheBytes + e.overheadBytes,
    );
    expect(e.assumptions).toEqual([
      '2 bytes per parameter (fp16/bf16)',
      'weights = parameters × bytes per parameter',
    ]);
  });

  it('prefers the files’ size, and names what it assumes without the architecture', () => {
    const e = estimateModelMemory({ weightsBytes: 4 * GiB })!;
    expect(e.weightsBytes).toBe(4 * GiB);
    expect(e.kvCacheBytes).toBeCloseTo(0.4 * GiB);
    expect(e.assumptions).toContain('a context of 4096 tokens');
    expect(e.assumptions.join(' ')).toMatch(/architecture is unknown/);
    // The files' size needs no bytes-per-parameter guess.
    expect(e.assumptions.join(' ')).not.toMatch(/bytes per parameter/);
    expect(
      estimateModelMemory(
        { weightsBytes: 4 * GiB },
        { concurrentSequences: 4 },
      )!.kvCacheBytes,
    ).toBeCloseTo(1.6 * GiB);
  });

  it('knows nothing without a size or a parameter count', () => {
    expect(estimateModelMemory({ layers: 32 })).toBeUndefined();
  });
});

describe('gpuFit', () => {
  const estimate = estimateModelMemory(llama8b, { contextLength: 8192 })!;

  it('fits an 8B model on one 24 GiB GPU', () => {
    const fit = gpuFit({ estimate, gpuMemoryBytes: 24 * GiB, freeGpus: 2 });
    expect(fit).toMatchObject({ verdict: 'fits', gpusNeeded: 1 });
    expect(fit.message).toMatch(
      /^Fits: about .* on 1 GPU\(s\) of 24\.0 GiB \(2 free\)\.$/,
    );
  });

  it('needs two 16 GiB GPUs, and says when fewer are free or asked for', () => {
    expect(
      gpuFit({ estimate, gpuMemoryBytes: 16 * GiB, freeGpus: 4 }),
    ).toMatchObject({
      verdict: 'fits',
      gpusNeeded: 2,
    });
    const busy = gpuFit({ estimate, gpuMemoryBytes: 16 * GiB, freeGpus: 1 });
    expect(busy.verdict).toBe('not-enough-gpus');
    expect(busy.message).toMatch(/only 1 are free/);
    const asked = gpuFit({
      estimate,
      gpuMemoryBytes: 16 * GiB,
      freeGpus: 4,
      requestedGpus: 1,
    });
    expect(asked.verdict).toBe('too-big');
    expect(asked.message).toMatch(/raise the GPU count to 2/);
  });

  it('is too big when one replica needs more GPUs than a node has', () => {
    const fit = gpuFit({
      estimate,
      gpuMemoryBytes: 8 * GiB,
      freeGpus: 8,
      maxGpusPerReplica: 2,
    });
    expect(fit.verdict).toBe('too-big');
    expect(fit.message).toMatch(/more than the 2 of the largest node/);
  });

  it('uses only the usable share of each GPU', () => {
    const exactly = { ...estimate, totalBytes: 10 * GiB };
    expect(
      gpuFit({
        estimate: exactly,
        gpuMemoryBytes: (10 * GiB) / USABLE_GPU_SHARE,
      }).gpusNeeded,
    ).toBe(1);
    expect(
      gpuFit({ estimate: exactly, gpuMemoryBytes: 10 * GiB }).gpusNeeded,
    ).toBe(2);
  });

  it('says what it cannot check', () => {
    expect(gpuFit({}).verdict).toBe('unknown');
    const noMemory = gpuFit({ estimate, freeGpus: 2 });
    expect(noMemory.verdict).toBe('unknown');
    expect(noMemory.message).toMatch(/does not report its GPUs' memory/);
  });
});

describe('gpuFitOnCluster', () => {
  const estimate = estimateModelMemory({ weightsBytes: 16 * GiB })!;
  const a100 = {
    product: 'NVIDIA-A100-SXM4-80GB',
    memoryBytes: 80 * GiB,
    nodes: 1,
    allocatable: 4,
    free: 4,
    largestFreeOnNode: 4,
  };
  const t4 = {
    product: 'Tesla-T4',
    memoryBytes: 16 * GiB,
    nodes: 3,
    allocatable: 6,
    free: 3,
    largestFreeOnNode: 1,
  };

  it('names the fewest free GPUs of one type that hold the model, with their memory', () => {
    const fit = gpuFitOnCluster({ estimate, types: [t4, a100] });
    expect(fit.verdict).toBe('fits');
    expect(fit.gpusNeeded).toBe(1);
    expect(fit.message).toBe(
      `Fits on 1 free GPU of 80.0 GiB (NVIDIA-A100-SXM4-80GB): needs about ${(
        estimate.totalBytes / GiB
      ).toFixed(1)} GiB.`,
    );
  });

  it('a replica stays on one node: free GPUs spread over nodes do not add up', () => {
    // 28.8 GiB needs two 16 GiB GPUs (90% usable each); 3 are free, but one per node.
    const fit = gpuFitOnCluster({
      estimate: estimateModelMemory({ weightsBytes: 24 * GiB })!,
      types: [t4],
    });
    expect(fit.verdict).toBe('too-big');
    expect(fit.message).toMatch(
      /^Does not fit: needs about 28\.8 GiB, largest free is 16\.0 GiB on one node \(90% of it usable\)/,
    );
  });

  it('says so when no GPU is free', () => {
    const fit = gpuFitOnCluster({
      estimate,
      types: [{ ...a100, free: 0, largestFreeOnNode: 0 }],
    });
    expect(fit.verdict).toBe('not-enough-gpus');
    expect(fit.message).toContain('no GPU is free (GPUs of 80.0 GiB)');
  });

  it('falls back to "cannot be checked" without GPU types', () => {
    const fit = gpuFitOnCluster({ estimate, types: [], freeGpus: 2 });
    expect(fit.verdict).toBe('unknown');
    expect(fit.message).toContain('does not report');
  });
});

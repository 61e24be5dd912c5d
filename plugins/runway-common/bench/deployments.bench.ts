/**
 * Benchmark: validation + engine/provider selection per ModelDeployment with
 * the four built-in providers registered (CEL programs compiled once).
 * Prints µs per operation and ops/s, and the ratio to a baseline measured in
 * the same run (a JSON deep copy of the same object), so numbers from a busy
 * machine can still be compared.
 *
 * Run: yarn bench (in plugins/runway-common)
 */
import { compiledProgramCount } from '../src/cel/cel';
import { BUILT_IN_PROVIDERS } from '../src/deployments/providers';
import { resolveDeployment } from '../src/deployments/selection';
import type {
  InferenceProviderConfig,
  ModelDeployment,
} from '../src/deployments/types';
import { validateModelDeployment } from '../src/deployments/validate';

const TARGET_US = 50;
const providers: InferenceProviderConfig[] = BUILT_IN_PROVIDERS.map(p => ({
  ...p,
  status: { ready: true },
}));

function md(name: string, spec: ModelDeployment['spec']): ModelDeployment {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace: 'default' },
    spec,
  };
}

const worker = { replicas: 2, gpu: { count: 4 }, memory: '128Gi' };
const deployments: ModelDeployment[] = [
  md('llama-8b', {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
    engine: {
      type: 'vllm',
      contextLength: 8192,
      args: { 'gpu-memory-utilization': '0.9' },
    },
    resources: { gpu: { count: 1 }, memory: '32Gi', cpu: '8' },
    secrets: { huggingFaceToken: 'hf-token' },
    env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
  }),
  md('gemma-cpu', {
    model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' },
    engine: { type: 'llamacpp' },
    resources: { memory: '16Gi', cpu: '8' },
    image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
  }),
  md('llama-70b-pd', {
    model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
    provider: {
      name: 'dynamo',
      overrides: { routerMode: 'kv', frontend: { replicas: 2 } },
    },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: {
      prefill: worker,
      decode: { ...worker, replicas: 4, gpu: { count: 2 } },
    },
  }),
  md('auto-engine', {
    model: {
      id: 'Qwen/Qwen3-8B',
      storage: {
        volumes: [{ name: 'cache', purpose: 'modelCache', size: '100Gi' }],
      },
    },
    resources: { gpu: { count: 2 } },
  }),
];

function checkCorrect(): void {
  for (const d of deployments) {
    const result = validateModelDeployment(d, { providers });
    const resolution = resolveDeployment(d.spec, providers, d.metadata?.name);
    if (!result.valid || !resolution.provider?.ok) {
      throw new Error(
        `benchmark input ${d.metadata?.name} is not valid: ${JSON.stringify(
          result.issues,
        )} ${JSON.stringify(resolution)}`,
      );
    }
  }
}

/** Median of several timed rounds, in µs per operation over the deployments. */
function measure(
  operation: (d: ModelDeployment) => unknown,
  rounds = 7,
  perRound = 4000,
): number {
  for (let i = 0; i < 2000; i++) operation(deployments[i % deployments.length]);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++)
      operation(deployments[i % deployments.length]);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

function line(name: string, us: number, baseline: number): string {
  const ops = Math.round(1e6 / us).toLocaleString('en-US');
  return `${name.padEnd(38)} ${us.toFixed(2).padStart(8)} µs/op ${ops.padStart(
    10,
  )} ops/s ${(us / baseline).toFixed(1).padStart(6)}× baseline`;
}

checkCorrect();
const compiledBefore = compiledProgramCount();
const baseline = measure(d => JSON.parse(JSON.stringify(d)));
const validate = measure(d => validateModelDeployment(d, { providers }));
const select = measure(d =>
  resolveDeployment(d.spec, providers, d.metadata?.name),
);
const both = measure(d => {
  validateModelDeployment(d, { providers });
  return resolveDeployment(d.spec, providers, d.metadata?.name);
});
const compiledAfter = compiledProgramCount();

console.log(
  `ModelDeployment validation + selection, ${
    providers.length
  } providers registered (${providers
    .map(p => p.metadata?.name)
    .join(', ')}), ${deployments.length} deployment shapes`,
);
console.log(line('baseline: JSON deep copy', baseline, baseline));
console.log(line('validateModelDeployment', validate, baseline));
console.log(line('resolveDeployment (engine + provider)', select, baseline));
console.log(line('validation + selection', both, baseline));
console.log(
  `CEL programs compiled: ${compiledBefore} before the timed loops, ${compiledAfter} after (compiled once)`,
);
console.log(
  `target: validation + selection under ${TARGET_US} µs per ModelDeployment: ${
    both < TARGET_US ? 'met' : 'NOT met'
  } (${both.toFixed(2)} µs)`,
);

/**
 * Validation time per object for stacks (LlamaStackDistribution v1alpha2 and
 * v1alpha1) and models (Model), plus conversion, as microseconds per call and
 * as a ratio to a baseline measured in the same run (a JSON round trip of
 * the same object), so numbers from different machines compare.
 *
 * Run from plugins/runway-common: `yarn bench:stacks`.
 */
import { parse } from 'yaml';
import { validateModel } from '../src/models/validate';
import { upstreamStackSamples } from '../src/stacks/__fixtures__/upstream';
import { convertStack } from '../src/stacks/conversion';
import {
  validateStackV1alpha1,
  validateStackV1alpha2,
} from '../src/stacks/validate';

/** Seed 004's complete example: every section, shorthand forms included. */
const seedExample = parse(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: my-stack, namespace: default}
spec:
  distribution: {name: starter}
  providers:
    inference:
      - {id: vllm-primary, provider: vllm, endpoint: "http://vllm:8000", apiKey: {secretKeyRef: {name: vllm-creds, key: token}}, settings: {max_tokens: 8192}}
      - {id: ollama, provider: ollama, endpoint: "http://ollama:11434"}
    safety: {provider: llama-guard}
    vectorIo: {provider: pgvector, settings: {host: {secretKeyRef: {name: pg-creds, key: host}}}}
  resources:
    models: ["llama3.2-8b", {name: "llama3.2-70b", provider: vllm-primary, contextLength: 128000}]
    tools: [websearch, rag]
    shields: [llama-guard]
  storage:
    kv: {type: sqlite}
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg-creds, key: url}}}
  disabled: [postTraining, eval]
  networking:
    port: 8321
    tls: {enabled: true, secretName: llama-tls, caBundle: {configMapName: custom-ca}}
    expose: true
    allowedFrom: {namespaces: ["app-ns"], labels: ["llama-access"]}
  workload:
    replicas: 1
    workers: 2
    resources: {requests: {cpu: "500m", memory: "1Gi"}, limits: {cpu: "2", memory: "4Gi"}}
    autoscaling: {minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80}
    storage: {size: "10Gi", mountPath: "/.llama"}
    podDisruptionBudget: {minAvailable: 1}
    overrides: {serviceAccountName: custom-sa, env: [{name: A, value: "1"}]}
  externalProviders:
    inference: [{providerId: custom-inference, image: "registry.example.com/custom:v1"}]
`);

function sample(file: string) {
  return upstreamStackSamples().find(([name]) =>
    name.startsWith(`${file} `),
  )![1];
}

const v2Minimal = sample(
  'llamastack-v1alpha2-PR253-llamastackdistribution.yaml',
);
const v1Sample = sample(
  'llamastack-v1alpha1-_v1alpha1_llamastackdistribution.yaml',
);
const model = {
  apiVersion: 'models.airunway.ai/v1alpha1',
  kind: 'Model',
  metadata: { name: 'llama-3-8b', namespace: 'default' },
  spec: {
    source: {
      huggingFace: {
        repoId: 'meta-llama/Llama-3.1-8B-Instruct',
        revision: 'main',
      },
    },
    version: '3.1',
    storage: { storageClass: 'longhorn', size: '20Gi' },
    credentialsSecret: 'hf-credentials',
  },
};

/** Mean microseconds per call over `ms` milliseconds. */
function round(fn: () => unknown, ms: number): number {
  let calls = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 100; i++) fn();
    calls += 100;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / 1000 / calls;
}

const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Microseconds per call of `fn` and of the baseline, each the median of 7
 * rounds taken in turns, so a burst of load from other processes on the
 * machine moves both, and barely the median.
 */
function measure(
  fn: () => unknown,
  baseline: () => unknown,
): { micros: number; base: number } {
  for (let i = 0; i < 500; i++) {
    fn();
    baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 7; i++) {
    a.push(round(fn, 250));
    b.push(round(baseline, 250));
  }
  return { micros: median(a), base: median(b) };
}

const cases: Array<[string, unknown, () => unknown]> = [
  [
    'v1alpha2 validation, seed 004 complete example',
    seedExample,
    () => validateStackV1alpha2(seedExample),
  ],
  [
    'v1alpha2 validation, minimal upstream sample',
    v2Minimal,
    () => validateStackV1alpha2(v2Minimal),
  ],
  [
    'v1alpha1 validation, upstream sample',
    v1Sample,
    () => validateStackV1alpha1(v1Sample),
  ],
  ['Model validation, seed 003 example', model, () => validateModel(model)],
  [
    'conversion v1alpha1 -> v1alpha2, upstream sample',
    v1Sample,
    () => convertStack(v1Sample, 'llamastack.io/v1alpha2'),
  ],
];

for (const [, input, fn] of cases) {
  const result = fn() as { valid?: boolean };
  if (result && result.valid === false)
    throw new Error(`benchmark input is invalid: ${JSON.stringify(input)}`);
}

console.log(`node ${process.version}, ${new Date().toISOString()}`);
console.log(
  'case'.padEnd(52),
  'µs/call'.padStart(9),
  'x baseline'.padStart(11),
  'baseline µs'.padStart(12),
);
for (const [name, input, fn] of cases) {
  const { micros, base } = measure(fn, () => JSON.parse(JSON.stringify(input)));
  console.log(
    name.padEnd(52),
    micros.toFixed(1).padStart(9),
    (micros / base).toFixed(1).padStart(11),
    base.toFixed(2).padStart(12),
  );
}

/**
 * Config generation latency (NFR-002: ≤ 5 s for typical configurations; the
 * aim is ≤ 5 ms): p50/p99 of `generateConfig` over the embedded starter base
 * for a typical CR and a large one (50 providers, 500 models), next to the
 * baseline of only parsing and printing the same base config.
 *
 *   yarn bench [iterations]   (default 500)
 */
import { defaultStackV1alpha2 } from '@runway-portal/plugin-runway-common';
import { parse, stringify } from 'yaml';
import { embeddedDistributions } from '../src/config/distributions';
import { generateConfig, type StackSpec } from '../src/config/generate';

const iterations = Number(process.argv[2] ?? 500);
const base = embeddedDistributions().configs.starter;

function spec(s: unknown): StackSpec {
  return defaultStackV1alpha2({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    spec: s,
  } as any).spec;
}

const typical = spec({
  distribution: { name: 'starter' },
  providers: {
    inference: [
      {
        id: 'vllm-primary',
        provider: 'vllm',
        endpoint: 'http://vllm:8000',
        apiKey: { secretKeyRef: { name: 'vllm', key: 'token' } },
      },
    ],
    safety: [{ provider: 'llama-guard' }],
  },
  resources: {
    models: [{ name: 'llama3.2-8b' }],
    tools: ['websearch', 'rag'],
    shields: ['llama-guard'],
  },
  storage: {
    sql: {
      type: 'postgres',
      connectionString: { secretKeyRef: { name: 'pg', key: 'url' } },
    },
  },
});

const apis = [
  'inference',
  'safety',
  'vectorIo',
  'toolRuntime',
  'telemetry',
] as const;
const providers: Record<string, unknown[]> = {};
for (let i = 0; i < 50; i++) {
  const api = apis[i % apis.length];
  (providers[api] ??= []).push({
    id: `${api.toLowerCase()}-${i}`,
    provider: 'vllm',
    endpoint: `http://p${i}:8000`,
    apiKey: { secretKeyRef: { name: `s${i}`, key: 'token' } },
    settings: { max_tokens: 4096, nested: { a: i, b: [1, 2, 3] } },
  });
}
const large = spec({
  distribution: { name: 'starter' },
  providers,
  resources: {
    models: Array.from({ length: 500 }, (_, i) => ({
      name: `model-${i}`,
      provider: `inference-${(i % 10) * 5}`,
      contextLength: 8192,
    })),
  },
});

function measure(label: string, fn: () => unknown) {
  for (let i = 0; i < 20; i++) fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`${label.padEnd(58)} p50 ${p(0.5)} ms   p99 ${p(0.99)} ms`);
  return Number(p(0.99));
}

const baseline = measure(
  'baseline: parse + print the starter base config',
  () => stringify(parse(base)),
);
const t = measure('typical CR (2 providers, 4 resources, postgres)', () => {
  if (!generateConfig({ spec: typical, baseConfig: base }).ok)
    throw new Error('typical CR failed');
});
const l = measure('large CR (50 providers, 500 models)', () => {
  if (!generateConfig({ spec: large, baseConfig: base }).ok)
    throw new Error('large CR failed');
});
console.log(
  `ratio to baseline (p99): typical ${(t / baseline).toFixed(2)} x, large ${(
    l / baseline
  ).toFixed(2)} x; iterations ${iterations}`,
);

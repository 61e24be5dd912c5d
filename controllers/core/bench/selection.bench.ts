/**
 * The core's share of the deployments benchmark: how long 1,000
 * ModelDeployments take from creation until the core has selected their
 * provider, next to the raw API server write rate measured in the same run
 * on the same cluster (the writes the core itself needs per deployment: one
 * create by the user, one status apply, one metadata apply), and the core
 * process's memory.
 *
 *   yarn bench            (in controllers/core; COUNT=200 yarn bench for a quick run)
 *
 * The core runs as its own process (`src/index.ts`), as in production
 * (`./harness`).
 */
import { memoryOf, pollUntil, ratio, timed } from '@runway-portal/e2e-testing';
import { ModelDeployments } from '../src/reconciler';
import {
  COUNT,
  forEachDeployment,
  runCoreBenchmark,
  waitForAll,
} from './harness';

function md(namespace: string, i: number) {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: `md-${i}`, namespace },
    spec:
      i % 2 === 0
        ? {
            model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
            engine: { type: 'vllm' },
            resources: { gpu: { count: 1 } },
          }
        : {
            model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' },
            engine: { type: 'llamacpp' },
          },
  };
}

runCoreBenchmark(
  {
    name: 'core-bench',
    namespaces: ['raw', 'bench'],
    providers: ['kaito', 'dynamo'],
  },
  async ({ client, startCore }) => {
    // Baseline: the same writes, straight to the API server, without the core.
    const rawCreate = await timed(() =>
      forEachDeployment(i => client.create(ModelDeployments, md('raw', i))),
    );
    const rawStatus = await timed(() =>
      forEachDeployment(i =>
        client.apply(
          ModelDeployments,
          {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name: `md-${i}`, namespace: 'raw' },
            status: { provider: { name: 'dynamo', selectedReason: 'raw' } },
          },
          { fieldManager: 'bench', subresource: 'status' },
        ),
      ),
    );
    const rawMeta = await timed(() =>
      forEachDeployment(i =>
        client.apply(
          ModelDeployments,
          {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: {
              name: `md-${i}`,
              namespace: 'raw',
              labels: { 'airunway.ai/provider': 'dynamo' },
            },
          },
          { fieldManager: 'bench' },
        ),
      ),
    );
    const rawTotal = rawCreate + rawStatus + rawMeta;

    const core = startCore();
    // Wait until the core is up: a probe deployment gets its provider.
    await client.create(ModelDeployments, md('bench', -1) as never);
    await pollUntil(
      async () =>
        Boolean(
          (
            await client.get<any>(ModelDeployments, {
              namespace: 'bench',
              name: 'md--1',
            })
          ).status?.provider?.name,
        ),
      120_000,
      "the core to select the probe's provider",
    );
    const idle = memoryOf(core.pid!);

    const start = performance.now();
    const created = await timed(() =>
      forEachDeployment(i => client.create(ModelDeployments, md('bench', i))),
    );
    const selected = (item: any) =>
      item.metadata.name !== 'md--1' &&
      Boolean(
        item.status?.provider?.name &&
          item.metadata.labels?.['airunway.ai/provider'],
      );
    await waitForAll(
      client,
      'bench',
      selected,
      'with provider selected (status + label)',
      600_000,
    );
    const total = (performance.now() - start) / 1000;
    const busy = memoryOf(core.pid!);

    const line = (label: string, value: string) =>
      console.log(`${label.padEnd(58)} ${value}`);
    console.log(
      `\ncore benchmark: ${COUNT} ModelDeployments (half GPU/vLLM → dynamo, half CPU/llama.cpp → kaito)\n`,
    );
    line(
      'raw API server: create',
      `${rawCreate.toFixed(2)} s  (${(COUNT / rawCreate).toFixed(0)} writes/s)`,
    );
    line(
      'raw API server: status apply',
      `${rawStatus.toFixed(2)} s  (${(COUNT / rawStatus).toFixed(0)} writes/s)`,
    );
    line(
      'raw API server: metadata apply',
      `${rawMeta.toFixed(2)} s  (${(COUNT / rawMeta).toFixed(0)} writes/s)`,
    );
    line(
      'raw API server: the 3 writes per deployment (baseline)',
      `${rawTotal.toFixed(2)} s`,
    );
    line('with the core: creates issued', `${created.toFixed(2)} s`);
    line(
      'with the core: all providers selected (status + label)',
      `${total.toFixed(2)} s  (${(COUNT / total).toFixed(0)} deployments/s)`,
    );
    line('ratio to baseline', `${ratio(total, rawTotal)}×`);
    line(
      'core process memory: RSS idle / after / peak',
      `${idle.rss.toFixed(0)} / ${busy.rss.toFixed(0)} / ${busy.peak.toFixed(
        0,
      )} MiB`,
    );
  },
);

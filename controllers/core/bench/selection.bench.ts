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
 * The core runs as its own process (`src/index.ts`), as in production.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KubeClient, Namespaces } from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import { BUILT_IN_PROVIDERS } from '@runway-portal/plugin-runway-common';
import { InferenceProviderConfigs, ModelDeployments } from '../src/reconciler';

const COUNT = Number(process.env.COUNT ?? 1000);
const CONCURRENCY = 32;
const PACKAGE = path.resolve(__dirname, '..');
const CRDS = path.resolve(PACKAGE, '../deploy/crds');

function md(namespace: string, i: number) {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: `md-${i}`, namespace },
    spec:
      i % 2 === 0
        ? { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }
        : { model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' }, engine: { type: 'llamacpp' } },
  };
}

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

function rssMiB(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function main() {
  const cluster = await startCluster({
    name: 'core-bench',
    crds: [path.join(CRDS, 'airunway.ai_modeldeployments.yaml'), path.join(CRDS, 'airunway.ai_inferenceproviderconfigs.yaml')],
  });
  const client = new KubeClient(cluster.kubeConfig());
  let core: ReturnType<typeof spawn> | undefined;
  try {
    for (const name of ['raw', 'bench']) await client.create(Namespaces, { metadata: { name } });
    for (const provider of BUILT_IN_PROVIDERS.filter(p => ['kaito', 'dynamo'].includes(p.metadata!.name!))) {
      const name = provider.metadata!.name!;
      await client.apply(InferenceProviderConfigs, provider as never, { fieldManager: `airunway-provider-${name}`, force: true });
      await client.apply(
        InferenceProviderConfigs,
        { apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name }, status: { ready: true } },
        { fieldManager: `airunway-provider-${name}`, force: true, subresource: 'status' },
      );
    }

    // Baseline: the same writes, straight to the API server, without the core.
    const rawCreate = await timed(() => inParallel(COUNT, i => client.create(ModelDeployments, md('raw', i))));
    const rawStatus = await timed(() =>
      inParallel(COUNT, i =>
        client.apply(
          ModelDeployments,
          { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: `md-${i}`, namespace: 'raw' }, status: { provider: { name: 'dynamo', selectedReason: 'raw' } } },
          { fieldManager: 'bench', subresource: 'status' },
        ),
      ),
    );
    const rawMeta = await timed(() =>
      inParallel(COUNT, i =>
        client.apply(
          ModelDeployments,
          { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: `md-${i}`, namespace: 'raw', labels: { 'airunway.ai/provider': 'dynamo' } } },
          { fieldManager: 'bench' },
        ),
      ),
    );
    const rawTotal = rawCreate + rawStatus + rawMeta;

    // The core as its own process.
    core = spawn(
      process.execPath,
      ['--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), 'src/index.ts', '--webhook-mode=off', '--metrics-port=0', '--health-port=0', '--log-level=error'],
      { cwd: PACKAGE, env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath }, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    // Wait until the core is up: a probe deployment gets its provider.
    await client.create(ModelDeployments, md('bench', -1) as never);
    const probeStart = performance.now();
    for (;;) {
      const probe = await client.get<any>(ModelDeployments, { namespace: 'bench', name: 'md--1' });
      if (probe.status?.provider?.name) break;
      if (performance.now() - probeStart > 120_000) throw new Error('the core did not select a provider within 120 s');
      await new Promise(r => setTimeout(r, 100));
    }
    const idle = rssMiB(core.pid!);

    const start = performance.now();
    const created = await timed(() => inParallel(COUNT, i => client.create(ModelDeployments, md('bench', i))));
    let selected = 0;
    while (selected < COUNT) {
      const list = await client.list<any>(ModelDeployments, { namespace: 'bench' });
      selected = list.items.filter(item => item.metadata.name !== 'md--1' && item.status?.provider?.name && item.metadata.labels?.['airunway.ai/provider']).length;
      // Polled once a second: a list of 1,000 objects is itself load on the API server.
      if (selected < COUNT) await new Promise(r => setTimeout(r, 1000));
      if (performance.now() - start > 600_000) throw new Error(`only ${selected}/${COUNT} selected after 600 s`);
    }
    const total = (performance.now() - start) / 1000;
    const busy = rssMiB(core.pid!);

    const line = (label: string, value: string) => console.log(`${label.padEnd(58)} ${value}`);
    console.log(`\ncore benchmark: ${COUNT} ModelDeployments (half GPU/vLLM → dynamo, half CPU/llama.cpp → kaito)\n`);
    line('raw API server: create', `${rawCreate.toFixed(2)} s  (${(COUNT / rawCreate).toFixed(0)} writes/s)`);
    line('raw API server: status apply', `${rawStatus.toFixed(2)} s  (${(COUNT / rawStatus).toFixed(0)} writes/s)`);
    line('raw API server: metadata apply', `${rawMeta.toFixed(2)} s  (${(COUNT / rawMeta).toFixed(0)} writes/s)`);
    line('raw API server: the 3 writes per deployment (baseline)', `${rawTotal.toFixed(2)} s`);
    line('with the core: creates issued', `${created.toFixed(2)} s`);
    line('with the core: all providers selected (status + label)', `${total.toFixed(2)} s  (${(COUNT / total).toFixed(0)} deployments/s)`);
    line('ratio to baseline', `${(total / rawTotal).toFixed(2)}×`);
    line('core process memory: RSS idle / after / peak', `${idle.rss.toFixed(0)} / ${busy.rss.toFixed(0)} / ${busy.peak.toFixed(0)} MiB`);
  } finally {
    if (core && core.exitCode === null) {
      const exited = new Promise(r => core!.once('exit', r));
      core.kill('SIGTERM');
      await Promise.race([exited, new Promise(r => setTimeout(r, 10_000))]);
      if (core.exitCode === null) core.kill('SIGKILL');
    }
    client.close();
    await cluster.stop();
  }
}

main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});

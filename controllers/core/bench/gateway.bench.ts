/**
 * The gateway step's cost: how long COUNT ModelDeployments take, from the
 * provider reporting their Service, until the core has applied their
 * InferencePool, endpoint picker (6 objects) and HTTPRoute and reports
 * GatewayReady=True, next to the raw API server time for the same 8 applies
 * per deployment measured in the same run, and the core process's memory.
 *
 *   yarn bench:gateway      (in controllers/core; COUNT=200 yarn bench:gateway for a quick run)
 *
 * Cluster: the generated airunway.ai CRDs, the real InferencePool CRD and the
 * stand-in Gateway/HTTPRoute CRDs (e2e/simulators/gateway-api). The bench
 * plays the provider (Service + status.endpoint) and the gateway
 * implementation (status.addresses). The core runs as its own process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KubeClient, type KubeObject, Namespaces, Services } from '@runway-portal/controller-runtime';
import { startCluster } from '@runway-portal/e2e-cluster';
import { BUILT_IN_PROVIDERS, buildEndpointPicker, buildHTTPRoute, buildInferencePool } from '@runway-portal/plugin-runway-common';
import { Gateways } from '../src/lookups';
import { InferenceProviderConfigs, ModelDeployments } from '../src/reconciler';

const COUNT = Number(process.env.COUNT ?? 1000);
const CONCURRENCY = 32;
const PACKAGE = path.resolve(__dirname, '..');
const CRDS = path.resolve(PACKAGE, '../deploy/crds');
const POOL_CRD = path.resolve(PACKAGE, '../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml');
const GATEWAY_API_STAND_INS = path.resolve(PACKAGE, '../../e2e/simulators/gateway-api');
const SPEC = { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };

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

/** The 8 objects the core applies for deployment `name` (without owner: the raw baseline has no owner object). */
function gatewayObjects(namespace: string, name: string): KubeObject[] {
  return [
    buildInferencePool({ name, namespace, selector: { app: name }, targetPort: 8000, endpointPickerName: `${name}-epp` }),
    ...buildEndpointPicker({ name: `${name}-epp`, namespace, poolName: name }),
    buildHTTPRoute({ name, namespace, gateway: { name: 'inference-gateway', namespace: 'infra' }, modelName: 'Llama-3.1-8B-Instruct', pool: { name, namespace } }),
  ] as KubeObject[];
}

async function main() {
  const cluster = await startCluster({
    name: 'core-gateway-bench',
    crds: [path.join(CRDS, 'airunway.ai_modeldeployments.yaml'), path.join(CRDS, 'airunway.ai_inferenceproviderconfigs.yaml'), POOL_CRD, GATEWAY_API_STAND_INS],
  });
  const client = new KubeClient(cluster.kubeConfig());
  let core: ReturnType<typeof spawn> | undefined;
  try {
    for (const name of ['raw', 'bench', 'infra']) await client.create(Namespaces, { metadata: { name } });
    // The test cluster's Service range is a /24; each deployment has two Services (the model's, the picker's).
    const cidrs = await client.resolve('networking.k8s.io/v1', 'ServiceCIDR');
    await client.apply(cidrs, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'bench' }, spec: { cidrs: ['10.96.0.0/16'] } }, { fieldManager: 'bench' });
    for (const since = performance.now(); ; ) {
      const cidr = await client.get<any>(cidrs, { name: 'bench' });
      if (cidr.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')) break;
      if (performance.now() - since > 60_000) throw new Error('ServiceCIDR 10.96.0.0/16 not Ready after 60 s');
      await new Promise(r => setTimeout(r, 200));
    }
    const dynamo = BUILT_IN_PROVIDERS.find(p => p.metadata!.name === 'dynamo')!;
    await client.apply(InferenceProviderConfigs, dynamo as never, { fieldManager: 'airunway-provider-dynamo', force: true });
    await client.apply(
      InferenceProviderConfigs,
      { apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: 'dynamo' }, status: { ready: true } },
      { fieldManager: 'airunway-provider-dynamo', force: true, subresource: 'status' },
    );
    await client.apply(
      Gateways,
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'inference-gateway', namespace: 'infra' },
        spec: { gatewayClassName: 'bench', listeners: [{ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'All' } } }] },
      },
      { fieldManager: 'bench', force: true },
    );
    await client.apply(
      Gateways,
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'inference-gateway', namespace: 'infra' }, status: { addresses: [{ value: '10.0.0.1' }] } },
      { fieldManager: 'bench', force: true, subresource: 'status' },
    );

    // Baseline: the same 8 applies per deployment, straight to the API server.
    const raw = await timed(() =>
      inParallel(COUNT, async i => {
        for (const obj of gatewayObjects('raw', `md-${i}`)) await client.apply(await client.resolve(obj.apiVersion!, obj.kind!), obj, { fieldManager: 'bench' });
      }),
    );

    core = spawn(
      process.execPath,
      ['--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), 'src/index.ts', '--webhook-mode=off', '--metrics-port=0', '--health-port=0', '--log-level=error'],
      { cwd: PACKAGE, env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath }, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const idleAt = performance.now();
    // The deployments, handed to dynamo by the core.
    await inParallel(COUNT, i => client.create(ModelDeployments, { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: `md-${i}`, namespace: 'bench' }, spec: SPEC } as never));
    const count = async (test: (item: any) => boolean, what: string, since: number) => {
      for (;;) {
        const list = await client.list<any>(ModelDeployments, { namespace: 'bench' });
        const n = list.items.filter(test).length;
        if (n >= COUNT) return;
        if (performance.now() - since > 900_000) throw new Error(`only ${n}/${COUNT} ${what} after 900 s`);
        // Polled once a second: a list of 1,000 objects is itself load on the API server.
        await new Promise(r => setTimeout(r, 1000));
      }
    };
    await count(item => item.status?.provider?.name === 'dynamo', 'selected', idleAt);
    const idle = rssMiB(core.pid!);

    // The provider's part: the Service and status.endpoint; then the core's gateway step.
    const start = performance.now();
    await inParallel(COUNT, async i => {
      const name = `md-${i}`;
      await client.apply(
        Services,
        { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'bench' }, spec: { selector: { app: name }, ports: [{ name: 'http', port: 8000, targetPort: 8000 }] } },
        { fieldManager: 'airunway-provider-dynamo', force: true },
      );
      await client.apply(
        ModelDeployments,
        { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name, namespace: 'bench' }, status: { endpoint: { service: name, port: 8000 } } } as never,
        { fieldManager: 'airunway-provider-dynamo', force: true, subresource: 'status' },
      );
    });
    const provided = (performance.now() - start) / 1000;
    await count(item => item.status?.conditions?.some((c: any) => c.type === 'GatewayReady' && c.reason === 'GatewayConfigured'), 'GatewayConfigured', start);
    const total = (performance.now() - start) / 1000;
    const busy = rssMiB(core.pid!);

    const line = (label: string, value: string) => console.log(`${label.padEnd(66)} ${value}`);
    console.log(`\ncore gateway benchmark: ${COUNT} ModelDeployments (dynamo, GPU/vLLM), 8 gateway objects each\n`);
    line('raw API server: the 8 applies per deployment (baseline)', `${raw.toFixed(2)} s  (${((COUNT * 8) / raw).toFixed(0)} writes/s)`);
    line('provider writes issued (Service + status.endpoint)', `${provided.toFixed(2)} s`);
    line('with the core: all GatewayReady=True (from first provider write)', `${total.toFixed(2)} s  (${(COUNT / total).toFixed(0)} deployments/s)`);
    line('ratio to baseline', `${(total / raw).toFixed(2)}×`);
    line('core process memory: RSS selected / after / peak', `${idle.rss.toFixed(0)} / ${busy.rss.toFixed(0)} / ${busy.peak.toFixed(0)} MiB`);
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

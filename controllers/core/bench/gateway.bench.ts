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
 * implementation (status.addresses). The core runs as its own process
 * (`./harness`).
 */
import path from 'node:path';
import { type KubeObject, Services } from '@runway-portal/controller-runtime';
import {
  buildEndpointPicker,
  buildHTTPRoute,
  buildInferencePool,
} from '@runway-portal/plugin-runway-common';
import { memoryOf, ratio, timed } from '@runway-portal/e2e-testing';
import { Gateways } from '../src/lookups';
import { ModelDeployments } from '../src/reconciler';
import {
  COUNT,
  forEachDeployment,
  runCoreBenchmark,
  waitForAll,
} from './harness';

const POOL_CRD = path.resolve(
  __dirname,
  '../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
);
const GATEWAY_API_STAND_INS = path.resolve(
  __dirname,
  '../../../e2e/simulators/gateway-api',
);
const SPEC = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};

/** The 8 objects the core applies for deployment `name` (without owner: the raw baseline has no owner object). */
function gatewayObjects(namespace: string, name: string): KubeObject[] {
  return [
    buildInferencePool({
      name,
      namespace,
      selector: { app: name },
      targetPort: 8000,
      endpointPickerName: `${name}-epp`,
    }),
    ...buildEndpointPicker({ name: `${name}-epp`, namespace, poolName: name }),
    buildHTTPRoute({
      name,
      namespace,
      gateway: { name: 'inference-gateway', namespace: 'infra' },
      modelName: 'Llama-3.1-8B-Instruct',
      pool: { name, namespace },
    }),
  ] as KubeObject[];
}

runCoreBenchmark(
  {
    name: 'core-gateway-bench',
    crds: [POOL_CRD, GATEWAY_API_STAND_INS],
    namespaces: ['raw', 'bench', 'infra'],
    providers: ['dynamo'],
  },
  async ({ client, startCore }) => {
    // The test cluster's Service range is a /24; each deployment has two Services (the model's, the picker's).
    const cidrs = await client.resolve('networking.k8s.io/v1', 'ServiceCIDR');
    await client.apply(
      cidrs,
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'ServiceCIDR',
        metadata: { name: 'bench' },
        spec: { cidrs: ['10.96.0.0/16'] },
      },
      { fieldManager: 'bench' },
    );
    for (const since = performance.now(); ; ) {
      const cidr = await client.get<any>(cidrs, { name: 'bench' });
      if (
        cidr.status?.conditions?.some(
          (c: any) => c.type === 'Ready' && c.status === 'True',
        )
      )
        break;
      if (performance.now() - since > 60_000)
        throw new Error('ServiceCIDR 10.96.0.0/16 not Ready after 60 s');
      await new Promise(r => setTimeout(r, 200));
    }
    await client.apply(
      Gateways,
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'inference-gateway', namespace: 'infra' },
        spec: {
          gatewayClassName: 'bench',
          listeners: [
            {
              name: 'http',
              port: 80,
              protocol: 'HTTP',
              allowedRoutes: { namespaces: { from: 'All' } },
            },
          ],
        },
      },
      { fieldManager: 'bench', force: true },
    );
    await client.apply(
      Gateways,
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'inference-gateway', namespace: 'infra' },
        status: { addresses: [{ value: '10.0.0.1' }] },
      },
      { fieldManager: 'bench', force: true, subresource: 'status' },
    );

    // Baseline: the same 8 applies per deployment, straight to the API server.
    const raw = await timed(() =>
      forEachDeployment(async i => {
        for (const obj of gatewayObjects('raw', `md-${i}`))
          await client.apply(
            await client.resolve(obj.apiVersion!, obj.kind!),
            obj,
            { fieldManager: 'bench' },
          );
      }),
    );

    const core = startCore();
    // The deployments, handed to dynamo by the core.
    await forEachDeployment(i =>
      client.create(ModelDeployments, {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: `md-${i}`, namespace: 'bench' },
        spec: SPEC,
      } as never),
    );
    await waitForAll(
      client,
      'bench',
      item => item.status?.provider?.name === 'dynamo',
      'with dynamo selected',
      900_000,
    );
    const idle = memoryOf(core.pid!);

    // The provider's part: the Service and status.endpoint; then the core's gateway step.
    const start = performance.now();
    await forEachDeployment(async i => {
      const name = `md-${i}`;
      await client.apply(
        Services,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name, namespace: 'bench' },
          spec: {
            selector: { app: name },
            ports: [{ name: 'http', port: 8000, targetPort: 8000 }],
          },
        },
        { fieldManager: 'airunway-provider-dynamo', force: true },
      );
      await client.apply(
        ModelDeployments,
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name, namespace: 'bench' },
          status: { endpoint: { service: name, port: 8000 } },
        } as never,
        {
          fieldManager: 'airunway-provider-dynamo',
          force: true,
          subresource: 'status',
        },
      );
    });
    const provided = (performance.now() - start) / 1000;
    const gatewayConfigured = (item: any) =>
      Boolean(
        item.status?.conditions?.some(
          (c: any) =>
            c.type === 'GatewayReady' && c.reason === 'GatewayConfigured',
        ),
      );
    await waitForAll(
      client,
      'bench',
      gatewayConfigured,
      'GatewayConfigured',
      900_000,
    );
    const total = (performance.now() - start) / 1000;
    const busy = memoryOf(core.pid!);

    const line = (label: string, value: string) =>
      console.log(`${label.padEnd(66)} ${value}`);
    console.log(
      `\ncore gateway benchmark: ${COUNT} ModelDeployments (dynamo, GPU/vLLM), 8 gateway objects each\n`,
    );
    line(
      'raw API server: the 8 applies per deployment (baseline)',
      `${raw.toFixed(2)} s  (${((COUNT * 8) / raw).toFixed(0)} writes/s)`,
    );
    line(
      'provider writes issued (Service + status.endpoint)',
      `${provided.toFixed(2)} s`,
    );
    line(
      'with the core: all GatewayReady=True (from first provider write)',
      `${total.toFixed(2)} s  (${(COUNT / total).toFixed(0)} deployments/s)`,
    );
    line('ratio to baseline', `${ratio(total, raw)}×`);
    line(
      'core process memory: RSS selected / after / peak',
      `${idle.rss.toFixed(0)} / ${busy.rss.toFixed(0)} / ${busy.peak.toFixed(
        0,
      )} MiB`,
    );
  },
);

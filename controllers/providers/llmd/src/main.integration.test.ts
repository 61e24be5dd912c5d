/**
 * `src/main.ts` as the local process a later issue runs against local
 * clusters: a kubeconfig, free ports, registration, a deployment served,
 * a clean exit on SIGTERM, and a clear error for a bad flag.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import {
  Deployments,
  KubeClient,
  type KubeObject,
  Namespaces,
} from '@runway-portal/controller-runtime';
import {
  startCluster,
  type TestCluster,
  waitFor,
} from '@runway-portal/e2e-cluster';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  InferenceProviderConfigs,
  ModelDeployments,
} from '@runway-portal/provider-shared';
import { selectProviderAsCore } from '@runway-portal/provider-shared/testing';

jest.setTimeout(120_000);

const RUNWAY_CRDS = path.resolve(__dirname, '../../../deploy/crds');
const POOL_CRD = path.resolve(
  __dirname,
  '../../../../../shared/upstream/crds/gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
);
const NS = 'llmd-process';

function runMain(args: string[]): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  let output = '';
  const child = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('@backstage/cli/config/nodeTransform.cjs'),
      path.join(__dirname, 'main.ts'),
      ...args,
    ],
    {
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', d => (output += d));
  child.stderr!.on('data', d => (output += d));
  const exit = new Promise<number | null>(resolve =>
    child.on('exit', code => resolve(code)),
  );
  return { child, output: () => output, exit };
}

describe('llm-d provider process', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let proc: ReturnType<typeof runMain> | undefined;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'provider-llmd-process',
      crds: [RUNWAY_CRDS, POOL_CRD],
    });
    client = new KubeClient(cluster.kubeConfig());
    await client.create(Namespaces, { metadata: { name: NS } });
  });

  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill('SIGKILL');
      await proc.exit;
    }
    client?.close();
    await cluster?.stop();
  });

  it('refuses a bad flag with a message naming it, exit code 2', async () => {
    const bad = runMain(['--metrics-port', 'eighty']);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toContain(
      'llmd-provider: --metrics-port (METRICS_PORT) "eighty" is not valid: use a whole number from 0 to 65535',
    );
    expect(bad.output()).toContain('usage: llmd-provider [flags]');
  });

  it('runs against the kubeconfig, serves a deployment and stops cleanly on SIGTERM', async () => {
    proc = runMain([
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--metrics-port',
      '0',
      '--health-port',
      '0',
    ]);
    await waitFor(
      'registration',
      async () => {
        const ipc = await client.get<KubeObject & { status?: any }>(
          InferenceProviderConfigs,
          { name: 'llmd' },
        );
        return (
          ipc.status?.ready === true &&
          ipc.status.upstreamCRDVersion === 'inference.networking.k8s.io/v1'
        );
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await client.create(ModelDeployments, {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'tiny', namespace: NS },
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'llmd' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 } },
      },
    } as ModelDeployment & KubeObject);
    await selectProviderAsCore(client, { namespace: NS, name: 'tiny' }, 'llmd');
    await waitFor(
      'Running',
      async () => {
        const md = await client.get<ModelDeployment & KubeObject>(
          ModelDeployments,
          { namespace: NS, name: 'tiny' },
        );
        return md.status?.phase === 'Running';
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(
      (
        await client.get<KubeObject & { spec?: any }>(Deployments, {
          namespace: NS,
          name: 'tiny-decode',
        })
      ).spec.replicas,
    ).toBe(1);
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toBe(0);
  });
});

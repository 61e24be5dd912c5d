/**
 * End to end on a real control plane: the operator (as its ServiceAccount,
 * with its RBAC) creates the download Job; the download simulator of
 * @runway-portal/e2e-simulators binds its pod to the simulator's node, runs
 * the real downloader for it (against the hub stand-in, into a folder
 * standing for the PVC) and reports its exit as the pod's; the operator
 * reads the progress lines through the API server's `pods/log`, which asks
 * that node's kubelet log stand-in, into the status while it runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  KubeClient,
  Manager,
  Pods,
  Secrets,
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  DOWNLOADS_NODE,
  registerModelDownloads,
  startHubStandIn,
  type HubStandIn,
  volumePath,
} from '@runway-portal/e2e-simulators';
import { Models } from './reconciler';
import { DOWNLOADER_CONTAINER } from './resources';
import {
  eventually,
  getModel,
  modelObject,
  useModelsCluster,
} from './__testUtils__/cluster';

const NS = 'ml';
const MB = 1024 * 1024;
const weights = Buffer.alloc(8 * MB, 7);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-downloads-'));
let hub: HubStandIn;
let simulator: Manager;
let simulatorRunning: Promise<void>;
let downloads: Awaited<ReturnType<typeof registerModelDownloads>>;

const env = useModelsCluster({
  name: 'models-downloads',
  namespaces: [NS],
  flags: ['--webhook-mode=off'],
});

beforeAll(async () => {
  hub = await startHubStandIn({
    repos: {
      'acme/tiny': {
        files: { 'config.json': '{}', 'model.safetensors': weights },
      },
      'acme/gated': { files: { 'model.safetensors': weights }, gated: true },
    },
    token: 'hf_good',
    throttleBytesPerSecond: MB,
  });
  simulator = new Manager({
    name: 'models-sim',
    client: new KubeClient(env.cluster.kubeConfig()),
    logger: silentLogger,
    metrics: false,
    healthProbes: false,
    handleSignals: false,
  });
  downloads = await registerModelDownloads(simulator, {
    dir,
    clusterDir: env.cluster.dir,
    hfEndpoint: hub.url,
  });
  simulatorRunning = simulator.start();
}, 60_000);

afterAll(async () => {
  await simulator?.stop();
  await simulatorRunning;
  await downloads?.stop();
  await hub?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const spec = (repoId: string, credentialsSecret?: string) => ({
  source: { huggingFace: { repoId } },
  storage: { storageClass: 'local-models', size: '1Gi' },
  ...(credentialsSecret ? { credentialsSecret } : {}),
});

describe('a Model downloaded by the real downloader', () => {
  it('shows live progress (bytes, speed, ETA) while downloading, then Ready with the files in its volume', async () => {
    await env.client.create(Models, modelObject(NS, 'tiny', spec('acme/tiny')));
    const seen: string[] = [];
    const during = await eventually(
      'progress between 1 and 99 percent',
      async () => {
        const m = await getModel(env.client, NS, 'tiny');
        seen.push(
          `${m.status?.phase} ${m.status?.progress} ${m.status?.message}`,
        );
        return (
          m.status?.phase === 'Downloading' &&
          (m.status.progress ?? 0) > 0 &&
          (m.status.progress ?? 0) < 100 &&
          m
        );
      },
      30_000,
    ).catch(err => {
      throw new Error(
        `${err.message}; statuses seen: ${[...new Set(seen)].join(
          ' | ',
        )}; log files: ${fs.readdirSync(dir, { recursive: true }).join(', ')}`,
      );
    });
    // The progress came through pods/log: the API server asked the download node's kubelet.
    const [pod] = (
      await env.client.list(Pods, {
        namespace: NS,
        labelSelector: 'batch.kubernetes.io/job-name=model-download-tiny',
      })
    ).items as Array<{
      metadata: { name: string };
      spec: { nodeName: string };
    }>;
    expect(pod.spec.nodeName).toBe(DOWNLOADS_NODE);
    expect(downloads.node.requests).toContainEqual({
      namespace: NS,
      pod: pod.metadata.name,
      container: DOWNLOADER_CONTAINER,
      previous: false,
      follow: false,
      tailLines: 50,
      limitBytes: 65536,
    });
    expect(during.status!.download).toMatchObject({
      totalBytes: weights.length + 2,
      bytesPerSecond: expect.any(Number),
    });
    expect(during.status!.download!.bytesPerSecond).toBeGreaterThan(0);
    expect(during.status!.message).toMatch(
      /^Downloading: \d+% \(.* of 8\.0 MiB, .*\/s, \d+ s left\)$/,
    );

    const ready = await eventually(
      'Ready',
      async () => {
        const m = await getModel(env.client, NS, 'tiny');
        return m.status?.phase === 'Ready' && m;
      },
      30_000,
    );
    expect(ready.status).toMatchObject({
      progress: 100,
      download: {
        bytesDownloaded: weights.length + 2,
        totalBytes: weights.length + 2,
      },
    });
    const volume = volumePath(dir, NS, 'model-tiny');
    expect(
      fs.readFileSync(path.join(volume, 'model.safetensors')).equals(weights),
    ).toBe(true);
    expect(fs.existsSync(path.join(volume, '.airunway-download.json'))).toBe(
      true,
    );
  }, 90_000);

  it('a gated model: Failed at once with a message naming spec.credentialsSecret and HF_TOKEN, also when the Secret lacks the key', async () => {
    await env.client.create(Secrets, {
      metadata: { name: 'hf-wrong-key', namespace: NS },
      stringData: { TOKEN: 'hf_good' },
    } as never);
    await env.client.create(
      Models,
      modelObject(NS, 'gated', spec('acme/gated', 'hf-wrong-key')),
    );
    const failed = await eventually(
      'Failed',
      async () => {
        const m = await getModel(env.client, NS, 'gated');
        return m.status?.phase === 'Failed' && m;
      },
      60_000,
    );
    expect(failed.status!.message).toBe(
      'Download failed: HuggingFace answered 401 for acme/gated: it is gated or private and no token was given: create a Secret with key HF_TOKEN (a token with access) and name it in spec.credentialsSecret. Fix the cause, then delete Job model-download-gated to retry',
    );
  }, 90_000);
});

/**
 * A simulator of the kubelet for the model operator's download Jobs: kwok
 * runs pods but executes nothing, so for each download pod this binds the
 * pod to its own node `runway-downloads` (as the scheduler would; the pods
 * wait for a volume no local cluster binds, so the scheduler leaves them),
 * runs the real downloader entry point
 * (controllers/models/src/downloader/main.ts) as a local process, with the
 * pod's environment (Secret keys resolved as the kubelet would, `optional`
 * honoured), into a folder standing for the PVC, reports the pod Running
 * while it runs and its exit as the pod's phase and exit code, so the Job
 * completes or fails as in a cluster, and removes the pod once it is being
 * deleted. The process's output is the pod's log: written to a file as a
 * kubelet does, and served through the API server's `pods/log` by the
 * node's kubelet log stand-in (e2e-cluster), so the operator reads progress
 * exactly as in a cluster.
 *
 * Layout under `dir`: `volumes/<namespace>/<claimName>/` (the PVC's files),
 * `logs/<namespace>/<pod>/<container>.log` (the pod's log).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  isNotFound,
  type KubeClient,
  type KubeObject,
  type Manager,
  Pods,
  Secrets,
} from '@runway-portal/controller-runtime';
import { startHubStandIn, type HubStandIn } from './hubStandIn';
import { type SimulatedNode, startSimulatedNode } from './simulatedNode';

/** The model operator's label on its Jobs and their pods. */
export const MODEL_DOWNLOAD_SELECTOR =
  'app.kubernetes.io/managed-by=airunway-models';
export const MODEL_DOWNLOADS_SIMULATOR = 'model-downloads';
/** The node download pods are bound to: not kwok's, its kubelet is this simulator. */
export const DOWNLOADS_NODE = 'runway-downloads';

/** The repository's downloader entry (the simulators run from the repository, next to the operator). */
export const DEFAULT_DOWNLOADER_ENTRY = path.resolve(
  path.dirname(require.resolve('@runway-portal/e2e-simulators/package.json')),
  '../../controllers/models/src/downloader/main.ts',
);

export interface ModelDownloadsOptions {
  /** Root of the volumes and logs folders. */
  dir: string;
  /** The cluster's folder (`TestCluster.dir`): the log stand-in serves with its certificate. */
  clusterDir: string;
  /** Overrides the pods' HF_ENDPOINT (the local hub stand-in). */
  hfEndpoint?: string;
  /** The downloader's entry file; default the repository's. */
  downloaderEntry?: string;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
  };
}

type DownloadPod = KubeObject & {
  spec?: {
    nodeName?: string;
    containers?: Array<{
      name: string;
      env?: EnvVar[];
      volumeMounts?: Array<{ name: string; mountPath: string }>;
    }>;
    volumes?: Array<{
      name: string;
      persistentVolumeClaim?: { claimName: string };
    }>;
  };
  status?: { phase?: string };
};

/** The log file's lines (without the last newline), or undefined when there is none. */
function readLogLines(file: string): string[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function podLogPath(
  dir: string,
  namespace: string,
  pod: string,
  container: string,
): string {
  return path.join(dir, 'logs', namespace, pod, `${container}.log`);
}

export function volumePath(
  dir: string,
  namespace: string,
  claim: string,
): string {
  return path.join(dir, 'volumes', namespace, claim);
}

/** The pod's environment as the kubelet would give it (a missing optional Secret key is left out). */
async function resolveEnv(
  client: KubeClient,
  namespace: string,
  env: EnvVar[],
): Promise<{ env: Record<string, string>; problem?: string }> {
  const out: Record<string, string> = {};
  for (const variable of env) {
    if (variable.value !== undefined) {
      out[variable.name] = variable.value;
      continue;
    }
    const ref = variable.valueFrom?.secretKeyRef;
    if (!ref) continue;
    try {
      const secret = await client.get<
        KubeObject & { data?: Record<string, string> }
      >(Secrets, { namespace, name: ref.name });
      const value = secret.data?.[ref.key];
      if (value !== undefined)
        out[variable.name] = Buffer.from(value, 'base64').toString('utf8');
      else if (!ref.optional)
        return {
          env: out,
          problem: `couldn't find key ${ref.key} in Secret ${namespace}/${ref.name}`,
        };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      if (!ref.optional)
        return { env: out, problem: `secret "${ref.name}" not found` };
    }
  }
  return { env: out };
}

/** Starts the node and its log stand-in, and registers the simulator's controller on `mgr` (download pods only). */
export async function registerModelDownloads(
  mgr: Manager,
  options: ModelDownloadsOptions,
): Promise<{ node: SimulatedNode; stop(): Promise<void> }> {
  const running = new Map<string, ChildProcess>();
  const node = await startSimulatedNode(mgr, {
    name: DOWNLOADS_NODE,
    simulator: MODEL_DOWNLOADS_SIMULATOR,
    clusterDir: options.clusterDir,
    source: {
      // Each attempt is its own pod (restartPolicy Never): no previous log.
      lines: request =>
        request.previous
          ? undefined
          : readLogLines(
              podLogPath(
                options.dir,
                request.namespace,
                request.pod,
                request.container,
              ),
            ),
    },
  });
  const entry = options.downloaderEntry ?? DEFAULT_DOWNLOADER_ENTRY;
  const pods = mgr.informers.informerFor<DownloadPod>(Pods, {
    labelSelector: MODEL_DOWNLOAD_SELECTOR,
  });

  async function finish(
    pod: DownloadPod,
    container: string,
    exitCode: number,
    reason: string,
  ) {
    const now = new Date().toISOString();
    try {
      await mgr.client.patch(
        Pods,
        { namespace: pod.metadata!.namespace, name: pod.metadata!.name! },
        {
          status: {
            phase: exitCode === 0 ? 'Succeeded' : 'Failed',
            conditions: [
              { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
              {
                type: 'Ready',
                status: 'False',
                reason: 'PodCompleted',
                lastTransitionTime: now,
              },
            ],
            containerStatuses: [
              {
                name: container,
                image: 'model-downloader',
                imageID: '',
                ready: false,
                restartCount: 0,
                state: {
                  terminated: {
                    exitCode,
                    reason,
                    startedAt: now,
                    finishedAt: now,
                  },
                },
              },
            ],
          },
        },
        'merge',
        { subresource: 'status' },
      );
    } catch (err) {
      if (!isNotFound(err))
        mgr.logger.warn('could not report the download pod', {
          pod: pod.metadata?.name,
          error: (err as Error).message,
        });
    }
  }

  /** The pod as a kubelet reports a started container: Running. */
  async function started(pod: DownloadPod, container: string) {
    const now = new Date().toISOString();
    try {
      await mgr.client.patch(
        Pods,
        { namespace: pod.metadata!.namespace, name: pod.metadata!.name! },
        {
          status: {
            phase: 'Running',
            startTime: now,
            // Ready as a kubelet reports a started container without probes: the Job counts it in status.ready.
            conditions: [
              'PodScheduled',
              'Initialized',
              'ContainersReady',
              'Ready',
            ].map(type => ({ type, status: 'True', lastTransitionTime: now })),
            containerStatuses: [
              {
                name: container,
                image: 'model-downloader',
                imageID: '',
                ready: true,
                started: true,
                restartCount: 0,
                state: { running: { startedAt: now } },
              },
            ],
          },
        },
        'merge',
        { subresource: 'status' },
      );
    } catch (err) {
      if (!isNotFound(err))
        mgr.logger.warn('could not report the download pod running', {
          pod: pod.metadata?.name,
          error: (err as Error).message,
        });
    }
  }

  mgr
    .controller()
    .named(MODEL_DOWNLOADS_SIMULATOR)
    .for<DownloadPod>(Pods, {
      selector: { labelSelector: MODEL_DOWNLOAD_SELECTOR },
    })
    .complete(async request => {
      const key = `${request.namespace}/${request.name}`;
      const pod = pods.store.get(key);
      const podPath = `/api/v1/namespaces/${request.namespace}/pods/${request.name}`;
      if (!pod || pod.metadata?.deletionTimestamp) {
        running.get(key)?.kill('SIGTERM');
        running.delete(key);
        // What a kubelet does once the container stopped: a bound pod waits for it.
        if (pod)
          await mgr.client
            .request({
              method: 'DELETE',
              path: podPath,
              body: {
                kind: 'DeleteOptions',
                apiVersion: 'v1',
                gracePeriodSeconds: 0,
              },
            })
            .catch(err => {
              if (!isNotFound(err)) throw err;
            });
        return {};
      }
      if (
        running.has(key) ||
        pod.status?.phase === 'Succeeded' ||
        pod.status?.phase === 'Failed'
      )
        return {};
      const container = pod.spec?.containers?.[0];
      const mount = container?.volumeMounts?.[0];
      const claim = pod.spec?.volumes?.find(v => v.name === mount?.name)
        ?.persistentVolumeClaim?.claimName;
      if (!container || !mount || !claim) return {};
      const namespace = pod.metadata!.namespace!;
      const resolved = await resolveEnv(
        mgr.client,
        namespace,
        container.env ?? [],
      );
      const logFile = podLogPath(
        options.dir,
        namespace,
        pod.metadata!.name!,
        container.name,
      );
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      if (resolved.problem) {
        // The kubelet would not start the container (CreateContainerConfigError); a failed pod says so.
        fs.writeFileSync(logFile, `${resolved.problem}\n`);
        await finish(pod, container.name, 1, 'CreateContainerConfigError');
        return {};
      }
      if (!pod.spec?.nodeName) {
        // The scheduler's part: the pod's own binding (a pod already bound answers 409).
        try {
          await mgr.client.request({
            method: 'POST',
            path: `${podPath}/binding`,
            body: {
              apiVersion: 'v1',
              kind: 'Binding',
              metadata: { name: request.name, namespace },
              target: { apiVersion: 'v1', kind: 'Node', name: DOWNLOADS_NODE },
            },
          });
        } catch (err) {
          if (isNotFound(err)) return {};
          if ((err as { code?: number }).code !== 409) throw err;
        }
      }
      const volume = volumePath(options.dir, namespace, claim);
      fs.mkdirSync(volume, { recursive: true });
      const env = {
        PATH: process.env.PATH ?? '',
        ...resolved.env,
        ...(options.hfEndpoint ? { HF_ENDPOINT: options.hfEndpoint } : {}),
        MODEL_DEST: volume,
      };
      const log = fs.openSync(logFile, 'a');
      const child = spawn(
        process.execPath,
        [
          '--require',
          require.resolve('@backstage/cli/config/nodeTransform.cjs'),
          entry,
        ],
        { env, stdio: ['ignore', log, log] },
      );
      fs.closeSync(log);
      running.set(key, child);
      mgr.logger.info('download pod started', { pod: key, volume });
      await started(pod, container.name);
      child.on('close', code => {
        running.delete(key);
        mgr.logger.info('download pod ended', { pod: key, exitCode: code });
        void finish(
          pod,
          container.name,
          code ?? 1,
          code === 0 ? 'Completed' : 'Error',
        );
      });
      return {};
    });
  return {
    node,
    /** Stops downloads still running (their pods stay as they are) and the node's log stand-in. */
    async stop() {
      for (const child of running.values()) child.kill('SIGTERM');
      await node.stop();
    },
  };
}

/** The demo model of the local system's hub stand-in. */
export const DEMO_MODEL_REPO = 'runway-demo/tiny-model';

/** Deterministic bytes (a xorshift stream), so the demo weights are the same on every start. */
function demoBytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, Math.min(i, size - 4));
  }
  return out;
}

/**
 * The files of the demo model: a config, a tokenizer and 16 MiB of weights
 * (an LFS file with a sha256), served at 4 MiB/s so a download takes a few
 * seconds and its progress can be watched in the portal.
 */
export function demoModelRepo() {
  return {
    files: {
      'config.json': JSON.stringify({
        model_type: 'llama',
        hidden_size: 64,
        num_hidden_layers: 2,
      }),
      'tokenizer.json': JSON.stringify({
        version: '1.0',
        model: { type: 'BPE', vocab: {} },
      }),
      'model.safetensors': demoBytes(16 * 1024 * 1024, 42),
    },
    license: 'apache-2.0',
  };
}

export const DEMO_HUB_BYTES_PER_SECOND = 4 * 1024 * 1024;

/** A llama.cpp repository the local system deploys (KAITO finds its GGUF file in the hub's file list). */
export const LOCAL_GGUF_REPO = 'google/gemma-3-1b-it-qat-q8_0-gguf';

/**
 * The local system's hub stand-in: the demo model (downloaded by Models) and
 * the GGUF repository of the llama.cpp deployments (listed by the KAITO
 * provider), throttled so a download's progress can be watched. Every local
 * process gets its URL as `HF_ENDPOINT`. `bytesPerSecond` slows it down
 * further (a browser test that watches the progress).
 */
export function startLocalHub(
  bytesPerSecond = DEMO_HUB_BYTES_PER_SECOND,
): Promise<HubStandIn> {
  return startHubStandIn({
    repos: {
      [DEMO_MODEL_REPO]: demoModelRepo(),
      [LOCAL_GGUF_REPO]: {
        files: {
          'gemma-3-1b-it-q8_0.gguf': demoBytes(64 * 1024, 7),
          'README.md':
            '# a stand-in of the GGUF repository, for the local system\n',
        },
      },
    },
    throttleBytesPerSecond: bytesPerSecond,
  });
}

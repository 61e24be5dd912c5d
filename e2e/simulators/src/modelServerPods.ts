/**
 * Model server pods with logs, for the portal's Logs tab on a local
 * cluster. A simulator: for each upstream object it creates one pod that
 * matches the Service its operator would create (the operator's pod
 * labels), on a node `runway-logs` that kwok does not manage and whose
 * status points the API server at e2e-cluster's kubelet log stand-in. The
 * stand-in serves a model server's start-up lines, then a new request line
 * every second while followed; each followed line starts with the time it
 * was written (ISO 8601), so a reader can measure how late it arrives. The
 * simulator plays the kubelet's other part too: it reports the pods Running
 * and removes them when they are deleted (nothing else would: no kubelet).
 */
import {
  isNotFound,
  type KubeObject,
  type Manager,
  Pods,
} from '@runway-portal/controller-runtime';
import type { KubeletLogRequest } from '@runway-portal/e2e-cluster';
import { type OpenAiSimulator, startOpenAiSimulator } from './openAiSimulator';
import { SIMULATOR_LABEL } from './simulator';
import { startSimulatedNode } from './simulatedNode';

export const MODEL_SERVER_PODS_SIMULATOR = 'model-server-pods';
/** The node the pods run on: not kwok's, its kubelet is the stand-in. */
export const LOGS_NODE = 'runway-logs';
/** Marks the pods and the node this simulator made (the simulators' own label). */
export const MODEL_SERVER_POD_LABEL = SIMULATOR_LABEL;
export const MODEL_SERVER_CONTAINER = 'model';
/** The pods' port name: a Service's targetPort names it, so the endpoints controller resolves it to the OpenAI simulator's port. */
export const MODEL_SERVER_PORT_NAME = 'http';
const POD_SELECTOR = `${MODEL_SERVER_POD_LABEL}=${MODEL_SERVER_PODS_SIMULATOR}`;

/** The pod a model server would run as, owned by the upstream object. Pure. */
export function modelServerPod(
  owner: {
    apiVersion: string;
    kind: string;
    name: string;
    namespace?: string;
    uid: string;
  },
  labels: Record<string, string>,
  containerPort = 8000,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${owner.name}-model-0`,
      namespace: owner.namespace,
      labels: {
        ...labels,
        [MODEL_SERVER_POD_LABEL]: MODEL_SERVER_PODS_SIMULATOR,
      },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.name,
          uid: owner.uid,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: LOGS_NODE,
      containers: [
        {
          name: MODEL_SERVER_CONTAINER,
          image: 'simulated/model-server',
          ports: [{ name: MODEL_SERVER_PORT_NAME, containerPort }],
        },
      ],
      // The node has no heartbeat: keep the pod when the node lifecycle controller taints it.
      tolerations: [{ operator: 'Exists' }],
    },
  } as KubeObject;
}

/** A model server's start-up, as the log's first lines. Pure. */
export function startupLines(request: KubeletLogRequest, at: Date): string[] {
  const t = at.toISOString();
  return [
    `${t} INFO simulated model server (e2e/simulators, not a real engine) for pod ${request.pod}`,
    `${t} INFO loading model weights`,
    `${t} INFO model loaded; starting the OpenAI-compatible API server on http://0.0.0.0:8000`,
    `${t} INFO Application startup complete.`,
  ];
}

/** The `n`th line written while followed, stamped with when it was written. Pure. */
export function requestLine(n: number, at: Date): string {
  return `${at.toISOString()} INFO 10.0.0.${
    (n % 250) + 1
  } - "POST /v1/chat/completions HTTP/1.1" 200 OK (request ${n})`;
}

export interface ModelServerPods {
  /** The pod for an upstream object, applied once per object (as the operator's workload would). */
  ensurePod(
    owner: Parameters<typeof modelServerPod>[0],
    labels: Record<string, string>,
  ): Promise<void>;
  /** The targetPort a Service of these pods uses: their port's name. */
  targetPort: string;
  /** The OpenAI API simulator the pods' IP and port lead to. */
  openAi: OpenAiSimulator;
  stop(): Promise<void>;
}

/**
 * Starts the stand-in, registers its node and a controller that plays the
 * kubelet for the pods. `clusterDir` is the cluster's folder (its serving
 * certificate is reused).
 */
export async function registerModelServerPods(
  mgr: Manager,
  options: {
    clusterDir: string;
    followEveryMs?: number;
    /** Time between two streamed tokens of the OpenAI simulator. */
    tokenDelayMs?: number;
    /** Time between two node heartbeats (Ready condition); default 10 s. */
    heartbeatMs?: number;
  },
): Promise<ModelServerPods> {
  const started = new Map<string, Date>();
  const openAi = await startOpenAiSimulator({
    tokenDelayMs: options.tokenDelayMs,
  });
  const node = await startSimulatedNode(mgr, {
    name: LOGS_NODE,
    simulator: MODEL_SERVER_PODS_SIMULATOR,
    clusterDir: options.clusterDir,
    heartbeatMs: options.heartbeatMs,
    followEveryMs: options.followEveryMs ?? 1000,
    source: {
      lines: request => {
        if (request.container !== MODEL_SERVER_CONTAINER) return undefined;
        // A model server that never restarted has no previous log.
        if (request.previous) return undefined;
        const key = `${request.namespace}/${request.pod}`;
        const at = started.get(key) ?? new Date();
        started.set(key, at);
        return startupLines(request, at);
      },
      next: (_request, n) => requestLine(n, new Date()),
    },
  });
  const fieldManager = `simulator-${MODEL_SERVER_PODS_SIMULATOR}`;

  const pods = mgr.informers.informerFor<KubeObject>(Pods, {
    labelSelector: POD_SELECTOR,
  });
  mgr
    .controller()
    .named(fieldManager)
    .for<KubeObject>(Pods, { selector: { labelSelector: POD_SELECTOR } })
    .complete(async request => {
      const pod = pods.store.get(`${request.namespace}/${request.name}`);
      if (!pod) return {};
      const path = `/api/v1/namespaces/${request.namespace}/pods/${request.name}`;
      try {
        if (pod.metadata?.deletionTimestamp) {
          // What a kubelet does once the containers stopped.
          await mgr.client.request({
            method: 'DELETE',
            path,
            body: {
              kind: 'DeleteOptions',
              apiVersion: 'v1',
              gracePeriodSeconds: 0,
            },
          });
          started.delete(`${request.namespace}/${request.name}`);
          return {};
        }
        if ((pod.status as { phase?: string } | undefined)?.phase === 'Running')
          return {};
        const now = new Date().toISOString();
        await mgr.client.apply(
          Pods,
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: request.name, namespace: request.namespace },
            status: {
              phase: 'Running',
              // An address of this machine where the OpenAI simulator listens: the Service's endpoint.
              hostIP: openAi.host,
              podIP: openAi.host,
              podIPs: [{ ip: openAi.host }],
              conditions: [
                { type: 'Ready', status: 'True', lastTransitionTime: now },
              ],
              containerStatuses: [
                {
                  name: MODEL_SERVER_CONTAINER,
                  image: 'simulated/model-server',
                  imageID: '',
                  ready: true,
                  restartCount: 0,
                  started: true,
                  state: { running: { startedAt: now } },
                },
              ],
            },
          },
          { fieldManager, force: true, subresource: 'status' },
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return {};
    });

  return {
    async ensurePod(owner, labels) {
      await mgr.client.apply(Pods, modelServerPod(owner, labels, openAi.port), {
        fieldManager,
        force: true,
      });
    },
    targetPort: MODEL_SERVER_PORT_NAME,
    openAi,
    stop: async () => {
      await Promise.all([node.stop(), openAi.stop()]);
    },
  };
}

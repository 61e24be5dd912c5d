/**
 * A node that kwok does not manage, whose kubelet is a simulator: its status
 * points the API server at e2e-cluster's kubelet log stand-in (so `pods/log`
 * of its pods goes through the real API server), and a heartbeat posts its
 * `Ready` condition as a kubelet does. Its status has no capacity, so the
 * scheduler places nothing there: pods arrive by `spec.nodeName` or by a
 * binding the simulator makes.
 */
import type { Manager, ResourceType } from '@runway-portal/controller-runtime';
import {
  kubeletNodeStatus,
  type KubeletLogRequest,
  type KubeletLogSource,
  startKubeletLogStandIn,
} from '@runway-portal/e2e-cluster';
import { SIMULATOR_LABEL } from './simulator';

export const Nodes: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
};

/** The node's Ready condition as a kubelet posts it, heartbeat `at`. Pure. */
export function readyNodeCondition(
  at: Date,
  since: Date,
  simulator = 'model-server-pods',
) {
  return {
    type: 'Ready',
    status: 'True',
    reason: 'KubeletReady',
    message: `simulated kubelet (e2e/simulators ${simulator}) is posting ready status`,
    lastHeartbeatTime: at.toISOString(),
    lastTransitionTime: since.toISOString(),
  };
}

export interface SimulatedNode {
  name: string;
  /** The kubelet log stand-in's port. */
  port: number;
  /** The log requests the API server made to the stand-in, oldest first. */
  requests: KubeletLogRequest[];
  stop(): Promise<void>;
}

/**
 * Starts the log stand-in (with the cluster's serving certificate, from
 * `clusterDir`), registers node `name` labelled with the simulator's name,
 * and keeps its Ready condition fresh every `heartbeatMs` (default 10 s:
 * without it the node lifecycle controller marks the node Unknown and every
 * pod that changes on it NotReady).
 */
export async function startSimulatedNode(
  mgr: Manager,
  options: {
    name: string;
    simulator: string;
    clusterDir: string;
    source: KubeletLogSource;
    followEveryMs?: number;
    heartbeatMs?: number;
  },
): Promise<SimulatedNode> {
  const standIn = await startKubeletLogStandIn({
    clusterDir: options.clusterDir,
    followEveryMs: options.followEveryMs,
    source: options.source,
  });
  const fieldManager = `simulator-${options.simulator}`;
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: options.name,
      labels: { [SIMULATOR_LABEL]: options.simulator },
    },
  };
  await mgr.client.apply(Nodes, node, { fieldManager, force: true });
  const since = new Date();
  const heartbeat = () =>
    mgr.client.apply(
      Nodes,
      {
        ...node,
        status: {
          ...kubeletNodeStatus(standIn.port),
          conditions: [
            readyNodeCondition(new Date(), since, options.simulator),
          ],
        },
      },
      { fieldManager, force: true, subresource: 'status' },
    );
  await heartbeat();
  const timer = setInterval(
    () => heartbeat().catch(() => undefined),
    options.heartbeatMs ?? 10_000,
  );
  return {
    name: options.name,
    port: standIn.port,
    requests: standIn.requests,
    async stop() {
      clearInterval(timer);
      await standIn.stop();
    },
  };
}

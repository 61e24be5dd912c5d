/**
 * KAITO Workspace (kaito.sh v1alpha1/v1beta1) as the KAITO operator reports
 * it: first the GPU nodes are provisioned (`ResourceReady`), then the
 * inference workload becomes ready (`InferenceReady`) and the workspace
 * concludes (`WorkspaceSucceeded`). Seed 000 section 4.9 maps
 * `WorkspaceSucceeded: True` to Running, `InferenceReady: False` to
 * Deploying with its message, and an error condition to Failed.
 */
import type { RuntimeSimulation, Stage, UpstreamObject } from './stages';

export const KAITO_WORKSPACE = {
  group: 'kaito.sh',
  plural: 'workspaces',
  kind: 'Workspace',
} as const;

function nodesWanted(obj: UpstreamObject): number {
  const resource = (obj as { resource?: { count?: unknown } }).resource;
  return typeof resource?.count === 'number' && resource.count > 0
    ? resource.count
    : 1;
}

export const kaitoSimulation: RuntimeSimulation = {
  name: 'kaito',
  service(obj) {
    // KAITO's Service has the Workspace's name, port 80 to the inference server's 5000.
    const name = obj.metadata?.name ?? '';
    return {
      name,
      selector: { 'kaito.sh/workspace': name },
      port: 80,
      targetPort: 5000,
    };
  },
  stages(obj) {
    const nodes = nodesWanted(obj);
    const provisioning: Stage = {
      conditions: [
        {
          type: 'ResourceReady',
          status: 'False',
          reason: 'NodesNotReady',
          message: `Waiting for ${nodes} GPU node(s) of the workspace to be ready`,
        },
        {
          type: 'InferenceReady',
          status: 'False',
          reason: 'InferenceNotReady',
          message:
            'Waiting for the GPU nodes before deploying the inference workload',
        },
      ],
      fields: { targetNodeCount: nodes },
    };
    const starting: Stage = {
      conditions: [
        {
          type: 'ResourceReady',
          status: 'True',
          reason: 'NodesReady',
          message: 'The GPU nodes of the workspace are ready',
        },
        {
          type: 'InferenceReady',
          status: 'False',
          reason: 'InferenceNotReady',
          message: 'Inference workload is not ready: 0 of 1 pods ready',
        },
      ],
      fields: { targetNodeCount: nodes },
    };
    const succeeded: Stage = {
      conditions: [
        {
          type: 'ResourceReady',
          status: 'True',
          reason: 'NodesReady',
          message: 'The GPU nodes of the workspace are ready',
        },
        {
          type: 'InferenceReady',
          status: 'True',
          reason: 'InferenceReady',
          message: 'Inference workload is ready',
        },
        {
          type: 'WorkspaceSucceeded',
          status: 'True',
          reason: 'WorkspaceSucceeded',
          message: 'Workspace is ready',
        },
      ],
      fields: { targetNodeCount: nodes },
    };
    return [provisioning, starting, succeeded];
  },
  failed(obj, message) {
    return {
      conditions: [
        {
          type: 'ResourceReady',
          status: 'True',
          reason: 'NodesReady',
          message: 'The GPU nodes of the workspace are ready',
        },
        {
          type: 'InferenceReady',
          status: 'False',
          reason: 'InferenceFailed',
          message,
        },
        {
          type: 'WorkspaceSucceeded',
          status: 'False',
          reason: 'WorkspaceFailed',
          message,
        },
      ],
      fields: { targetNodeCount: nodesWanted(obj) },
    };
  },
};

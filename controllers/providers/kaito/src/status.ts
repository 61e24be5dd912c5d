/** KAITO's status mapping: the Workspace's conditions to the deployment's status. Pure. */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import type { MappedStatus } from '@runway-portal/provider-shared';
import { SERVICE_PORT } from './transform';

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

function conditionOf(
  upstream: KubeObject,
  type: string,
): Condition | undefined {
  const conditions =
    (upstream.status as { conditions?: Condition[] } | undefined)?.conditions ??
    [];
  return conditions.find(c => c.type === type);
}

/** Seed 000 section 4.9: WorkspaceSucceeded True → Running; InferenceReady False → Deploying; errors → Failed. */
export function mapKaitoStatus(
  md: ModelDeployment,
  workspace: KubeObject,
): MappedStatus {
  const name = workspace.metadata?.name ?? md.metadata?.name ?? '';
  const desired =
    (workspace.resource as { count?: number } | undefined)?.count ??
    md.spec.scaling?.replicas ??
    1;
  const endpoint = { service: name, port: SERVICE_PORT };
  const succeeded = conditionOf(workspace, 'WorkspaceSucceeded');
  const inference = conditionOf(workspace, 'InferenceReady');
  const resource = conditionOf(workspace, 'ResourceReady');
  if (succeeded?.status === 'True') {
    return {
      phase: 'Running',
      message: succeeded.message || 'Workspace is ready',
      ready: true,
      reason: 'WorkspaceSucceeded',
      replicas: { desired, ready: desired, available: desired },
      endpoint,
    };
  }
  if (succeeded?.status === 'False') {
    const message =
      succeeded.message ||
      inference?.message ||
      resource?.message ||
      'Workspace failed';
    return {
      phase: 'Failed',
      message,
      ready: false,
      reason: succeeded.reason || 'WorkspaceFailed',
      replicas: { desired, ready: 0, available: 0 },
      endpoint,
    };
  }
  const waiting =
    (inference?.status === 'False' && inference.message) ||
    (resource?.status === 'False' && resource.message) ||
    'Waiting for KAITO to deploy the workspace';
  return {
    phase: 'Deploying',
    message: waiting,
    ready: false,
    reason: inference?.reason || resource?.reason || 'Deploying',
    replicas: { desired, ready: 0, available: 0 },
    endpoint,
  };
}

/**
 * Model-server Deployments' status → ModelDeployment status (seed 002's llm-d
 * rows): every Deployment `Available` and rolled out is Running; an error
 * condition (`ReplicaFailure: True`, or `Progressing: False` such as
 * ProgressDeadlineExceeded) is Failed with that condition's message;
 * otherwise Deploying with the `Progressing` message.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import type { MappedStatus } from '@runway-portal/provider-shared';
import { type Json, llmdEndpoint, modelServers } from './transform';

interface DeploymentCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

function conditionsOf(deployment: Json): DeploymentCondition[] {
  const conditions = asRecord(deployment.status).conditions;
  return Array.isArray(conditions) ? (conditions as DeploymentCondition[]) : [];
}

/** Why a Deployment failed, or undefined when it has no error condition. */
function failure(deployment: Json): string | undefined {
  const conditions = conditionsOf(deployment);
  const replicaFailure = conditions.find(
    c => c.type === 'ReplicaFailure' && c.status === 'True',
  );
  if (replicaFailure)
    return replicaFailure.message || replicaFailure.reason || 'replica failure';
  const stuck = conditions.find(
    c => c.type === 'Progressing' && c.status === 'False',
  );
  if (stuck)
    return stuck.message || stuck.reason || 'rollout is not progressing';
  return undefined;
}

/** True when a Deployment has rolled out its current spec and is available. */
function rolledOut(deployment: Json, desired: number): boolean {
  const meta = asRecord(deployment.metadata);
  const status = asRecord(deployment.status);
  const available = conditionsOf(deployment).some(
    c => c.type === 'Available' && c.status === 'True',
  );
  const observed = count(status.observedGeneration) >= count(meta.generation);
  return (
    available &&
    observed &&
    count(status.updatedReplicas) >= desired &&
    count(status.availableReplicas) >= desired
  );
}

/**
 * Maps the live model-server Deployments (by name; a missing one is not
 * created yet) to the status fields the provider owns.
 */
export function mapLlmdStatus(
  md: ModelDeployment,
  live: Map<string, KubeObject>,
): MappedStatus {
  const base = { endpoint: llmdEndpoint(md) };
  const replicas = { desired: 0, ready: 0, available: 0 };
  const failures: string[] = [];
  const waiting: string[] = [];
  for (const server of modelServers(md)) {
    replicas.desired += server.replicas;
    const deployment = live.get(server.name) as Json | undefined;
    if (!deployment) {
      waiting.push(`Deployment ${server.name} not created yet`);
      continue;
    }
    const status = asRecord(deployment.status);
    replicas.ready += count(status.readyReplicas);
    replicas.available += count(status.availableReplicas);
    const failed = failure(deployment);
    if (failed) failures.push(`Deployment ${server.name}: ${failed}`);
    else if (!rolledOut(deployment, server.replicas)) {
      const progressing = conditionsOf(deployment).find(
        c => c.type === 'Progressing',
      )?.message;
      waiting.push(
        `Deployment ${server.name}: ${
          progressing ?? 'waiting for the Deployment controller'
        }`,
      );
    }
  }
  if (failures.length > 0) {
    return {
      ...base,
      replicas,
      phase: 'Failed',
      message: failures.join('; '),
      ready: false,
      reason: 'DeploymentFailed',
    };
  }
  if (waiting.length > 0) {
    const message = `${replicas.available}/${
      replicas.desired
    } replicas available; ${waiting.join('; ')}`;
    return {
      ...base,
      replicas,
      phase: 'Deploying',
      message,
      ready: false,
      reason: 'Deploying',
    };
  }
  return {
    ...base,
    replicas,
    phase: 'Running',
    message: 'All replicas are ready',
    ready: true,
    reason: 'DeploymentReady',
  };
}

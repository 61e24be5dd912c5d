/**
 * DynamoGraphDeployment status → ModelDeployment status (seed 000 section
 * 4.9): `state: successful` is Running, `failed` is Failed with the upstream
 * message, anything else (`initializing`, `pending`, the seeds' `deploying`,
 * or no status yet) is Deploying. Replicas count the workers only (seed 000
 * example 3: 2 prefill + 4 decode = 6), never the frontend.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import type { MappedStatus } from '@runway-portal/provider-shared';
import { type Json, frontendEndpoint } from './transform';

interface UpstreamCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

interface WorkerReplicas {
  replicas: number;
  ready: number;
  available: number;
}

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};
const asNumber = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** Worker components of a DGD with their desired replicas, from its spec (v1alpha1 map or v1beta1 list). */
function desiredWorkers(dgd: Json): Map<string, number> {
  const spec = asRecord(dgd.spec);
  const workers = new Map<string, number>();
  if (Array.isArray(spec.components)) {
    for (const c of spec.components.map(asRecord)) {
      if (c.type !== 'frontend' && typeof c.name === 'string')
        workers.set(
          c.name,
          c.replicas === undefined ? 1 : asNumber(c.replicas),
        );
    }
  }
  for (const [name, s] of Object.entries(asRecord(spec.services))) {
    const service = asRecord(s);
    if (service.componentType !== 'frontend')
      workers.set(
        name,
        service.replicas === undefined ? 1 : asNumber(service.replicas),
      );
  }
  return workers;
}

/** Observed replicas per component (v1alpha1 `status.services`, v1beta1 `status.components`). */
function observedWorkers(dgd: Json): Map<string, WorkerReplicas> {
  const status = asRecord(dgd.status);
  const observed = new Map<string, WorkerReplicas>();
  for (const source of [status.services, status.components]) {
    for (const [name, s] of Object.entries(asRecord(source))) {
      const c = asRecord(s);
      observed.set(name, {
        replicas: asNumber(c.replicas),
        ready: asNumber(c.readyReplicas),
        available: asNumber(c.availableReplicas ?? c.readyReplicas),
      });
    }
  }
  return observed;
}

/** The most useful upstream explanation: `status.message`, else a failing condition's message. */
function upstreamMessage(status: Json): string | undefined {
  if (typeof status.message === 'string' && status.message)
    return status.message;
  const conditions = (
    Array.isArray(status.conditions) ? status.conditions : []
  ) as UpstreamCondition[];
  const failing =
    conditions.find(c => c.status === 'False' && c.message) ??
    conditions.find(c => c.message);
  return failing?.message;
}

/** Maps a live DynamoGraphDeployment (or none yet) to the status fields the provider owns. */
export function mapDynamoStatus(
  md: ModelDeployment,
  upstream: KubeObject,
): MappedStatus {
  const dgd = upstream as unknown as Json;
  const workers = desiredWorkers(dgd);
  const observed = observedWorkers(dgd);
  const replicas = { desired: 0, ready: 0, available: 0 };
  for (const [worker, desired] of workers) {
    replicas.desired += desired;
    replicas.ready += observed.get(worker)?.ready ?? 0;
    replicas.available += observed.get(worker)?.available ?? 0;
  }
  const status = asRecord(dgd.status);
  const state = typeof status.state === 'string' ? status.state : undefined;
  const base = { replicas, endpoint: frontendEndpoint(md) };
  if (state === 'successful') {
    return {
      ...base,
      phase: 'Running',
      message: 'All replicas are ready',
      ready: true,
      reason: 'DeploymentReady',
    };
  }
  if (state === 'failed') {
    const detail = upstreamMessage(status) ?? 'no message from Dynamo';
    return {
      ...base,
      phase: 'Failed',
      message: `DynamoGraphDeployment failed: ${detail}`,
      ready: false,
      reason: 'DeploymentFailed',
    };
  }
  const detail = upstreamMessage(status);
  const progress = `${replicas.ready}/${replicas.desired} worker replicas ready`;
  return {
    ...base,
    phase: 'Deploying',
    message: `DynamoGraphDeployment is ${
      state ?? 'being created'
    } (${progress})${detail ? `: ${detail}` : ''}`,
    ready: false,
    reason: 'Deploying',
  };
}

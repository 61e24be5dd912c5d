/** KubeRay's status mapping: the RayService's Ready condition and Serve status to the deployment's status. Pure. */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import type { MappedStatus } from '@runway-portal/provider-shared';
import { SERVE_PORT } from './transform';

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

function readyCondition(rs: KubeObject): Condition | undefined {
  const conditions =
    (rs.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  return conditions.find(c => c.type === 'Ready');
}

/** Messages of unhealthy Serve applications and deployments ("serveStatuses"). */
export function serveErrors(rs: KubeObject): string[] {
  const apps =
    (rs.status as any)?.activeServiceStatus?.applicationStatuses ?? {};
  const out: string[] = [];
  for (const [app, s] of Object.entries<any>(apps)) {
    if (s?.status && !['RUNNING', 'DEPLOYING'].includes(s.status) && s.message)
      out.push(`${app}: ${s.message}`);
    for (const [dep, d] of Object.entries<any>(
      s?.serveDeploymentStatuses ?? {},
    )) {
      if (d?.status === 'UNHEALTHY' && d.message)
        out.push(`${app}/${dep}: ${d.message}`);
    }
  }
  return out;
}

/** Ready=False reasons after which KubeRay gives up (the rest mean "still starting"). */
const FAILED_REASONS = new Set(['InitializingTimeout', 'ValidationFailed']);

export function mapKubeRayStatus(
  md: ModelDeployment,
  rs: KubeObject,
): MappedStatus {
  const name = rs.metadata?.name ?? md.metadata?.name ?? '';
  const workers = ((rs.spec as any)?.rayClusterConfig?.workerGroupSpecs ??
    []) as Array<{ replicas?: number }>;
  const desired = workers.reduce((n, w) => n + (w.replicas ?? 0), 0);
  const cluster =
    (rs.status as any)?.activeServiceStatus?.rayClusterStatus ?? {};
  const replicas = {
    desired,
    ready: cluster.readyWorkerReplicas ?? 0,
    available: cluster.availableWorkerReplicas ?? 0,
  };
  const endpoint = { service: `${name}-serve-svc`, port: SERVE_PORT };
  const ready = readyCondition(rs);
  const errors = serveErrors(rs);
  if (ready?.status === 'True') {
    return {
      phase: 'Running',
      message: ready.message || 'RayService is ready',
      ready: true,
      reason: ready.reason || 'Ready',
      replicas,
      endpoint,
    };
  }
  if (ready) {
    if (FAILED_REASONS.has(ready.reason ?? '') || errors.length > 0) {
      const message =
        [ready.message, ...errors].filter(Boolean).join('; ') ||
        'RayService failed';
      return {
        phase: 'Failed',
        message,
        ready: false,
        reason: ready.reason || 'Failed',
        replicas,
        endpoint,
      };
    }
    return {
      phase: 'Deploying',
      message: ready.message || 'Waiting for Ray Serve to become ready',
      ready: false,
      reason: ready.reason || 'Initializing',
      replicas,
      endpoint,
    };
  }
  // Older KubeRay without conditions: the deprecated serviceStatus (seed 000 section 4.9).
  const serviceStatus = (rs.status as { serviceStatus?: string } | undefined)
    ?.serviceStatus;
  if (serviceStatus === 'Running')
    return {
      phase: 'Running',
      message: 'RayService is running',
      ready: true,
      reason: 'Running',
      replicas,
      endpoint,
    };
  if (serviceStatus && /fail/i.test(serviceStatus)) {
    return {
      phase: 'Failed',
      message: errors.join('; ') || serviceStatus,
      ready: false,
      reason: 'Failed',
      replicas,
      endpoint,
    };
  }
  if (serviceStatus === 'Pending')
    return {
      phase: 'Pending',
      message: 'RayService is pending',
      ready: false,
      reason: 'Pending',
      replicas,
      endpoint,
    };
  return {
    phase: 'Deploying',
    message: 'Waiting for KubeRay to start the RayService',
    ready: false,
    reason: 'Deploying',
    replicas,
    endpoint,
  };
}

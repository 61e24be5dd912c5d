/**
 * KubeRay RayService (ray.io v1) as the KubeRay operator reports it: while
 * the Ray cluster and the Serve applications start, the service is Pending
 * with a `Ready: False` condition and a pending cluster; then the cluster
 * becomes the active one, every application is RUNNING and the service
 * Running. Seed 000 section 4.9 maps `serviceStatus` Running / Pending /
 * Failed to the same phases, with the failure message from the Serve
 * application statuses.
 */
import { parse } from 'yaml';
import type { Json, RuntimeSimulation, Stage, UpstreamObject } from './stages';

export const KUBERAY_RAY_SERVICE = {
  group: 'ray.io',
  plural: 'rayservices',
  kind: 'RayService',
} as const;

interface ServeApplication {
  name: string;
  deployments: string[];
}

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};

/**
 * Serve applications and their deployments from `spec.serveConfigV2` (a
 * YAML string); one application `default` when it is missing or unreadable.
 */
export function serveApplications(obj: UpstreamObject): ServeApplication[] {
  const text = asRecord(obj.spec).serveConfigV2;
  let config: unknown;
  try {
    config = typeof text === 'string' ? parse(text) : undefined;
  } catch {
    config = undefined;
  }
  const apps = asRecord(config).applications;
  const found = (Array.isArray(apps) ? apps : [])
    .map(asRecord)
    .filter(a => typeof a.name === 'string')
    .map(a => ({
      name: a.name as string,
      deployments: (Array.isArray(a.deployments) ? a.deployments : [])
        .map(asRecord)
        .map(d => d.name)
        .filter((n): n is string => typeof n === 'string'),
    }));
  return found.length > 0 ? found : [{ name: 'default', deployments: [] }];
}

function applicationStatuses(
  obj: UpstreamObject,
  status: string,
  deploymentStatus: string,
  message?: string,
): Json {
  return Object.fromEntries(
    serveApplications(obj).map(app => [
      app.name,
      {
        status,
        ...(message ? { message } : {}),
        serveDeploymentStatuses: Object.fromEntries(
          app.deployments.map(d => [d, { status: deploymentStatus }]),
        ),
      },
    ]),
  );
}

/** A stable, name-derived Ray cluster name (the operator adds a random suffix). */
function rayClusterName(obj: UpstreamObject): string {
  return `${obj.metadata?.name ?? 'rayservice'}-raycluster`;
}

export const kuberaySimulation: RuntimeSimulation = {
  name: 'kuberay',
  service(obj) {
    // KubeRay's Serve Service `<name>-serve-svc` selects the Ray pods that serve (port 8000).
    const name = obj.metadata?.name ?? '';
    return {
      name: `${name}-serve-svc`,
      selector: {
        'ray.io/serve': 'true',
        'ray.io/originated-from-cr-name': name,
      },
      port: 8000,
      targetPort: 8000,
    };
  },
  stages(obj) {
    const generation = obj.metadata?.generation ?? 1;
    const cluster = rayClusterName(obj);
    const pending: Stage = {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'Initializing',
          message: `Waiting for Ray cluster ${cluster} and its Serve applications`,
        },
        {
          type: 'UpgradeInProgress',
          status: 'False',
          reason: 'NoActiveCluster',
          message: 'The service has no active Ray cluster yet',
        },
      ],
      fields: {
        serviceStatus: 'Pending',
        observedGeneration: generation,
        numServeEndpoints: 0,
        pendingServiceStatus: {
          rayClusterName: cluster,
          // The cluster reports no state until it is ready.
          rayClusterStatus: {},
          applicationStatuses: applicationStatuses(
            obj,
            'DEPLOYING',
            'UPDATING',
          ),
        },
      },
    };
    const running: Stage = {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'NonZeroServeEndpoints',
          message: 'The service has ready Serve endpoints',
        },
        {
          type: 'UpgradeInProgress',
          status: 'False',
          reason: 'NoPendingCluster',
          message: 'No pending Ray cluster',
        },
      ],
      fields: {
        serviceStatus: 'Running',
        observedGeneration: generation,
        numServeEndpoints: 1,
        activeServiceStatus: {
          rayClusterName: cluster,
          rayClusterStatus: { state: 'ready' },
          applicationStatuses: applicationStatuses(obj, 'RUNNING', 'HEALTHY'),
        },
      },
    };
    return [pending, running];
  },
  failed(obj, message) {
    return {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ServeApplicationFailed',
          message,
        },
        {
          type: 'UpgradeInProgress',
          status: 'False',
          reason: 'NoActiveCluster',
          message: 'The service has no active Ray cluster yet',
        },
      ],
      fields: {
        serviceStatus: 'Failed',
        observedGeneration: obj.metadata?.generation ?? 1,
        numServeEndpoints: 0,
        pendingServiceStatus: {
          rayClusterName: rayClusterName(obj),
          rayClusterStatus: { state: 'ready' },
          applicationStatuses: applicationStatuses(
            obj,
            'DEPLOY_FAILED',
            'UNHEALTHY',
            message,
          ),
        },
      },
    };
  },
};

/**
 * Dynamo DynamoGraphDeployment (nvidia.com v1alpha1/v1beta1) as the Dynamo
 * operator reports it: `state` goes initializing → pending → successful
 * (or failed), with a `Ready` condition and per-component replica counts
 * (`status.components` in v1beta1, `status.services` in v1alpha1). Seed 000
 * section 4.9 maps `successful` to Running, `failed` to Failed (message
 * from the status) and the rest to Deploying.
 */
import type { Json, RuntimeSimulation, Stage, UpstreamObject } from './stages';

export const DYNAMO_GRAPH_DEPLOYMENT = {
  group: 'nvidia.com',
  plural: 'dynamographdeployments',
  kind: 'DynamoGraphDeployment',
} as const;

interface Component {
  name: string;
  replicas: number;
}

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};

const replicasOf = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : 1;

/** Components with their desired replicas: v1beta1 `spec.components` list or v1alpha1 `spec.services` map. */
export function dynamoComponents(obj: UpstreamObject): Component[] {
  const spec = asRecord(obj.spec);
  if (Array.isArray(spec.components)) {
    return spec.components
      .map(asRecord)
      .filter(c => typeof c.name === 'string')
      .map(c => ({ name: c.name as string, replicas: replicasOf(c.replicas) }));
  }
  return Object.entries(asRecord(spec.services)).map(([name, s]) => ({
    name,
    replicas: replicasOf(asRecord(s).replicas),
  }));
}

/** The replica status of every component with `ready` of them ready. */
function componentStatus(
  obj: UpstreamObject,
  ready: (c: Component) => number,
): Json {
  const v1alpha1 = !Array.isArray(asRecord(obj.spec).components);
  const graph = obj.metadata?.name ?? '';
  const entries = dynamoComponents(obj).map(c => {
    const resourceName = `${graph}-${c.name.toLowerCase()}`;
    const n = ready(c);
    const status: Json = {
      componentKind: 'Deployment',
      componentNames: [resourceName],
      replicas: c.replicas,
      updatedReplicas: c.replicas,
      readyReplicas: n,
      availableReplicas: n,
    };
    if (v1alpha1) status.componentName = resourceName;
    return [c.name, status] as const;
  });
  return {
    [v1alpha1 ? 'services' : 'components']: Object.fromEntries(entries),
  };
}

function summary(obj: UpstreamObject): string {
  return dynamoComponents(obj)
    .map(c => `${c.name} ${c.replicas}`)
    .join(', ');
}

export const dynamoSimulation: RuntimeSimulation = {
  name: 'dynamo',
  service(obj) {
    // The graph's Frontend component serves the OpenAI API behind `<name>-frontend`.
    const name = obj.metadata?.name ?? '';
    return {
      name: `${name}-frontend`,
      selector: {
        'nvidia.com/dynamo-graph-deployment-name': name,
        'nvidia.com/dynamo-component-type': 'frontend',
      },
      port: 8000,
      targetPort: 8000,
    };
  },
  stages(obj) {
    const generation = obj.metadata?.generation ?? 1;
    const initializing: Stage = {
      conditions: [
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'Initializing',
          message: 'Creating the components of the graph',
        },
      ],
      fields: {
        state: 'initializing',
        observedGeneration: generation,
        ...componentStatus(obj, () => 0),
      },
    };
    const pending: Stage = {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ComponentsNotReady',
          message: `Waiting for the components to be ready (${summary(obj)})`,
        },
      ],
      fields: {
        state: 'pending',
        observedGeneration: generation,
        ...componentStatus(obj, c => Math.floor(c.replicas / 2)),
      },
    };
    const successful: Stage = {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'AllComponentsReady',
          message: 'All components are ready',
        },
      ],
      fields: {
        state: 'successful',
        observedGeneration: generation,
        ...componentStatus(obj, c => c.replicas),
      },
    };
    return [initializing, pending, successful];
  },
  failed(obj, message) {
    return {
      conditions: [
        { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message },
      ],
      fields: {
        state: 'failed',
        observedGeneration: obj.metadata?.generation ?? 1,
        ...componentStatus(obj, () => 0),
      },
    };
  },
};

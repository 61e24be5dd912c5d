import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { resolveDeployment } from '@runway-portal/provider-shared';
import { llmdProvider } from './definition';
import { mapLlmdStatus } from './status';
import type { Json } from './transform';

const md: ModelDeployment = resolveDeployment({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'pd', namespace: 'ns' },
  spec: {
    model: { id: 'org/model' },
    provider: { name: 'llmd' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: {
      prefill: { replicas: 2, gpu: { count: 1 }, memory: '8Gi' },
      decode: { replicas: 1, gpu: { count: 1 }, memory: '8Gi' },
    },
  },
});

function deployment(
  name: string,
  replicas: number,
  ready: number,
  conditions: Json[],
  generation = 1,
  observedGeneration = 1,
): [string, KubeObject] {
  return [
    name,
    {
      metadata: { name, generation },
      spec: { replicas },
      status: {
        observedGeneration,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: ready,
        availableReplicas: ready,
        conditions,
      },
    },
  ];
}
const available = { type: 'Available', status: 'True' };
const progressing = (message: string) => ({
  type: 'Progressing',
  status: 'True',
  reason: 'ReplicaSetUpdated',
  message,
});

describe('mapLlmdStatus (seed 002 llm-d rows)', () => {
  it('is Deploying before the Deployments exist', () => {
    const s = mapLlmdStatus(md, new Map());
    expect(s).toMatchObject({
      phase: 'Deploying',
      ready: false,
      replicas: { desired: 3, ready: 0, available: 0 },
      reason: 'Deploying',
      endpoint: { service: 'pd', port: 8000 },
    });
    expect(s.message).toBe(
      '0/3 replicas available; Deployment pd-decode not created yet; Deployment pd-prefill not created yet',
    );
  });

  it('is Deploying with the Progressing message while a Deployment rolls out', () => {
    const s = mapLlmdStatus(
      md,
      new Map([
        deployment('pd-decode', 1, 1, [available]),
        deployment('pd-prefill', 2, 1, [
          progressing('ReplicaSet "pd-prefill-1" is progressing.'),
        ]),
      ]),
    );
    expect(s.phase).toBe('Deploying');
    expect(s.message).toBe(
      '2/3 replicas available; Deployment pd-prefill: ReplicaSet "pd-prefill-1" is progressing.',
    );
  });

  it('is Running when every Deployment is Available and rolled out', () => {
    const s = mapLlmdStatus(
      md,
      new Map([
        deployment('pd-decode', 1, 1, [available]),
        deployment('pd-prefill', 2, 2, [available]),
      ]),
    );
    expect(s).toMatchObject({
      phase: 'Running',
      ready: true,
      reason: 'DeploymentReady',
      message: 'All replicas are ready',
      replicas: { desired: 3, ready: 3, available: 3 },
    });
  });

  it('is not Running while the Deployment controller has not seen the newest spec', () => {
    const s = mapLlmdStatus(
      md,
      new Map([
        deployment('pd-decode', 1, 1, [available], 2, 1),
        deployment('pd-prefill', 2, 2, [available]),
      ]),
    );
    expect(s.phase).toBe('Deploying');
  });

  it('is Failed with the error condition message', () => {
    const failed = {
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'pods "pd-prefill-x" is forbidden: exceeded quota',
    };
    const stuck = {
      type: 'Progressing',
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "pd-decode-1" has timed out progressing.',
    };
    const s = mapLlmdStatus(
      md,
      new Map([
        deployment('pd-decode', 1, 0, [stuck]),
        deployment('pd-prefill', 2, 0, [failed]),
      ]),
    );
    expect(s).toMatchObject({ phase: 'Failed', ready: false });
    expect(s.message).toBe(
      'Deployment pd-decode: ReplicaSet "pd-decode-1" has timed out progressing.; Deployment pd-prefill: pods "pd-prefill-x" is forbidden: exceeded quota',
    );
  });

  it('the definition maps the model-server Deployments among the live helper objects the loop passes', () => {
    // As the loop passes them: objects with their kind (the informer fills it in).
    const asLive = ([, obj]: [string, KubeObject]): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      ...obj,
    });
    const [decode, prefill] = [
      asLive(deployment('pd-decode', 1, 1, [available])),
      asLive(deployment('pd-prefill', 2, 2, [available])),
    ];
    const pool = {
      apiVersion: 'inference.networking.k8s.io/v1',
      kind: 'InferencePool',
    };
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'pd' },
    };
    // Another Deployment (an endpoint picker's) does not count as a model server.
    const stuckPicker = asLive(deployment('pd-epp', 1, 0, []));
    const extras = [prefill, decode, service, stuckPicker];
    expect(llmdProvider.mapStatus(md, pool, extras)).toMatchObject({
      phase: 'Running',
      ready: true,
    });
    // Without a live prefill Deployment the deployment is not Running.
    expect(llmdProvider.mapStatus(md, pool, [decode, service]).phase).toBe(
      'Deploying',
    );
    expect(llmdProvider.mapStatus(md, pool).phase).toBe('Deploying');
  });
});

import { dynamoSimulation } from './dynamo';
import { kaitoSimulation } from './kaito';
import { kuberaySimulation } from './kuberay';
import {
  currentStage,
  decide,
  FAIL_ANNOTATION,
  plannedStages,
  type Json,
  type RuntimeSimulation,
  type UpstreamObject,
} from './stages';

const DELAY = 2000;
const T0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const objects: Record<string, UpstreamObject> = {
  kaito: {
    apiVersion: 'kaito.sh/v1beta1',
    kind: 'Workspace',
    metadata: { name: 'phi', namespace: 'ml', generation: 1 },
    resource: { count: 2 },
  } as UpstreamObject,
  dynamo: {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llama', namespace: 'ml', generation: 1 },
    spec: {
      components: [
        { name: 'Frontend', type: 'frontend', replicas: 1 },
        { name: 'VllmPrefillWorker', type: 'worker', replicas: 2 },
        { name: 'VllmDecodeWorker', type: 'worker', replicas: 4 },
      ],
    },
  },
  kuberay: {
    apiVersion: 'ray.io/v1',
    kind: 'RayService',
    metadata: { name: 'qwen', namespace: 'ml', generation: 1 },
    spec: {
      serveConfigV2:
        'applications:\n- name: llm\n  deployments:\n  - name: LLMServer\n  - name: OpenAiIngress\n',
    },
  },
};

const simulations: RuntimeSimulation[] = [
  kaitoSimulation,
  dynamoSimulation,
  kuberaySimulation,
];

/** Runs the simulation the way the controller does, returning each status applied. */
function rollout(sim: RuntimeSimulation, start: UpstreamObject): Json[] {
  let obj = start;
  let now = 0;
  const applied: Json[] = [];
  for (let i = 0; i < 10; i++) {
    const d = decide(sim, obj, at(now), DELAY);
    if (d.status) {
      applied.push(d.status);
      obj = { ...obj, status: d.status };
    }
    if (d.requeueAfterMs === undefined) break;
    now += d.requeueAfterMs;
  }
  return applied;
}

describe.each(simulations.map(s => [s.name, s] as const))(
  '%s simulation',
  (name, sim) => {
    const obj = objects[name];

    it('applies its first status at once and waits one step before the next', () => {
      const first = decide(sim, obj, T0, DELAY);
      expect(first.status).toBeDefined();
      expect(first.requeueAfterMs).toBe(DELAY);
      const withFirst = { ...obj, status: first.status };
      const early = decide(sim, withFirst, at(DELAY - 500), DELAY);
      expect(early).toEqual({ requeueAfterMs: 500, stage: 0 });
      const onTime = decide(sim, withFirst, at(DELAY), DELAY);
      expect(onTime.status).toBeDefined();
      expect(onTime.status).not.toEqual(first.status);
    });

    it('times a step from the remembered exact entry, not the whole-second condition time', () => {
      const first = decide(sim, obj, at(900), DELAY);
      const withFirst = { ...obj, status: first.status };
      // The condition says 00:00:00, the simulator knows it was 00:00:00.900.
      expect(decide(sim, withFirst, at(DELAY), DELAY).status).toBeDefined();
      const remembered = { generation: 1, stage: 0, atMs: at(900).getTime() };
      expect(decide(sim, withFirst, at(DELAY), DELAY, remembered)).toEqual({
        requeueAfterMs: 900,
        stage: 0,
      });
      // A memory of another generation is ignored.
      expect(
        decide(sim, withFirst, at(DELAY), DELAY, {
          ...remembered,
          generation: 2,
        }).status,
      ).toBeDefined();
    });

    it('walks every stage in order and then settles', () => {
      const applied = rollout(sim, obj);
      const stages = sim.stages(obj);
      expect(applied).toHaveLength(stages.length);
      const settled = { ...obj, status: applied[applied.length - 1] };
      expect(currentStage(stages, settled)).toBe(stages.length - 1);
      expect(decide(sim, settled, at(3_600_000), DELAY)).toEqual({
        stage: stages.length - 1,
      });
    });

    it('flips a condition status at every step, so each stage has its own start time', () => {
      const stages = sim.stages(obj);
      for (let i = 1; i < stages.length; i++) {
        const flipped = stages[i].conditions.some(
          c =>
            stages[i - 1].conditions.find(p => p.type === c.type)?.status !==
            c.status,
        );
        expect(flipped).toBe(true);
      }
    });

    it('marks conditions with the generation and starts over when the spec changes', () => {
      const settled = { ...obj, status: rollout(sim, obj).pop() };
      for (const c of (settled.status as { conditions: Array<Json> })
        .conditions) {
        expect(c.observedGeneration).toBe(1);
      }
      const changed = {
        ...settled,
        metadata: { ...settled.metadata, generation: 2 },
      };
      const restart = decide(sim, changed, at(10_000), DELAY);
      expect(restart.status).toEqual(
        expect.objectContaining({ conditions: expect.any(Array) }),
      );
      expect(
        currentStage(sim.stages(changed), {
          ...changed,
          status: restart.status,
        }),
      ).toBe(0);
    });

    it('reports the failure named by the annotation after one step', () => {
      const failing = {
        ...obj,
        metadata: {
          ...obj.metadata,
          annotations: { [FAIL_ANNOTATION]: 'out of GPU memory' },
        },
      };
      const applied = rollout(sim, failing);
      expect(applied).toHaveLength(2);
      expect(JSON.stringify(applied[1])).toContain('out of GPU memory');
      expect(plannedStages(sim, failing)).toHaveLength(2);
    });

    it('keeps the transition time of a condition whose status did not change', () => {
      const [first, second] = rollout(sim, obj) as Array<{
        conditions: Array<{
          type: string;
          status: string;
          lastTransitionTime: string;
        }>;
      }>;
      const expected = second.conditions.map(c => {
        const before = first.conditions.find(p => p.type === c.type);
        return before?.status === c.status
          ? before.lastTransitionTime
          : '2026-01-01T00:00:02Z';
      });
      expect(second.conditions.map(c => c.lastTransitionTime)).toEqual(
        expected,
      );
      expect(expected).toContain('2026-01-01T00:00:02Z');
    });
  },
);

describe('seed 000 section 4.9 states', () => {
  const last = (sim: RuntimeSimulation) =>
    rollout(sim, objects[sim.name]).pop() as Json;

  it('KAITO ends with WorkspaceSucceeded True after InferenceReady False', () => {
    const applied = rollout(kaitoSimulation, objects.kaito) as Array<{
      conditions: Array<{ type: string; status: string; message: string }>;
    }>;
    expect(applied[1].conditions).toContainEqual(
      expect.objectContaining({ type: 'InferenceReady', status: 'False' }),
    );
    expect(applied[2].conditions).toContainEqual(
      expect.objectContaining({ type: 'WorkspaceSucceeded', status: 'True' }),
    );
    expect(last(kaitoSimulation)).toEqual(
      expect.objectContaining({ targetNodeCount: 2 }),
    );
  });

  it('Dynamo goes initializing, pending, successful with every component ready', () => {
    const applied = rollout(dynamoSimulation, objects.dynamo);
    expect(applied.map(s => s.state)).toEqual([
      'initializing',
      'pending',
      'successful',
    ]);
    const components = applied[2].components as Record<string, Json>;
    expect(components.VllmDecodeWorker).toEqual(
      expect.objectContaining({
        replicas: 4,
        readyReplicas: 4,
        availableReplicas: 4,
      }),
    );
    expect(Object.keys(components)).toEqual([
      'Frontend',
      'VllmPrefillWorker',
      'VllmDecodeWorker',
    ]);
  });

  it('Dynamo v1alpha1 objects get status.services instead of status.components', () => {
    const v1alpha1: UpstreamObject = {
      metadata: { name: 'g', generation: 1 },
      spec: {
        services: { Frontend: { replicas: 1 }, Worker: { replicas: 3 } },
      },
    };
    const status = rollout(dynamoSimulation, v1alpha1).pop() as Json;
    expect(status.components).toBeUndefined();
    expect((status.services as Record<string, Json>).Worker).toEqual(
      expect.objectContaining({ componentName: 'g-worker', readyReplicas: 3 }),
    );
  });

  it('Dynamo failure sets state failed with the message on the Ready condition', () => {
    const failed = dynamoSimulation.failed(objects.dynamo, 'image pull failed');
    expect(failed.fields.state).toBe('failed');
    expect(failed.conditions[0]).toEqual(
      expect.objectContaining({
        status: 'False',
        message: 'image pull failed',
      }),
    );
  });

  it('KubeRay goes Pending then Running with every Serve application RUNNING', () => {
    const applied = rollout(kuberaySimulation, objects.kuberay);
    expect(applied.map(s => s.serviceStatus)).toEqual(['Pending', 'Running']);
    expect(applied[1].activeServiceStatus).toEqual(
      expect.objectContaining({
        applicationStatuses: {
          llm: {
            status: 'RUNNING',
            serveDeploymentStatuses: {
              LLMServer: { status: 'HEALTHY' },
              OpenAiIngress: { status: 'HEALTHY' },
            },
          },
        },
      }),
    );
  });

  it('KubeRay failure puts the message in the Serve application status', () => {
    const failed = kuberaySimulation.failed(objects.kuberay, 'no GPU');
    expect(failed.fields.serviceStatus).toBe('Failed');
    expect(JSON.stringify(failed.fields.pendingServiceStatus)).toContain(
      '"status":"DEPLOY_FAILED","message":"no GPU"',
    );
  });

  it('KubeRay without a readable serveConfigV2 simulates one application "default"', () => {
    const broken = { ...objects.kuberay, spec: { serveConfigV2: '{{{' } };
    const status = rollout(kuberaySimulation, broken).pop() as Json;
    expect(
      Object.keys(
        (status.activeServiceStatus as { applicationStatuses: Json })
          .applicationStatuses,
      ),
    ).toEqual(['default']);
  });
});

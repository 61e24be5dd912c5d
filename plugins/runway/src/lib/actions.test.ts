import { deployment } from '../__testUtils__/fixtures';
import {
  currentScale,
  isPaused,
  pausedDeployment,
  replicaIssue,
  scaledDeployment,
} from './actions';

const md = () => {
  const o = deployment('east', 'ml', 'llama').object;
  o.metadata = { ...o.metadata, resourceVersion: '7', labels: { app: 'x' } };
  return o as any;
};

describe('detail actions', () => {
  it('scales spec.scaling.replicas, sending the spec without status or server metadata', () => {
    const body = scaledDeployment(md(), { replicas: 3 });
    expect(body).toEqual({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'llama', namespace: 'ml', labels: { app: 'x' } },
      spec: {
        model: { id: 'org/llama' },
        scaling: { replicas: 3 },
        resources: { gpu: { count: 1 } },
      },
    });
    expect(currentScale(md())).toEqual({ replicas: 1 });
  });

  it('scales prefill and decode workers of a disaggregated deployment', () => {
    const d = md();
    d.spec = {
      ...d.spec,
      serving: { mode: 'disaggregated' },
      scaling: {
        prefill: { replicas: 1, gpu: { count: 1 } },
        decode: { replicas: 2, gpu: { count: 1 } },
      },
    };
    expect(currentScale(d)).toEqual({ prefill: 1, decode: 2 });
    expect(scaledDeployment(d, { prefill: 2, decode: 4 }).spec.scaling).toEqual(
      {
        prefill: { replicas: 2, gpu: { count: 1 } },
        decode: { replicas: 4, gpu: { count: 1 } },
      },
    );
  });

  it('names the field of a replica count that is not one', () => {
    expect(replicaIssue('spec.scaling.replicas', '2')).toBeUndefined();
    expect(replicaIssue('spec.scaling.replicas', '-1')).toBe(
      'spec.scaling.replicas must be a whole number from 0 to 100',
    );
    expect(replicaIssue('spec.scaling.replicas', '1.5')).toBeDefined();
    expect(replicaIssue('spec.scaling.replicas', '')).toBeDefined();
  });

  it("pauses and resumes with seed 000's annotation, keeping the others", () => {
    const d = md();
    d.metadata.annotations = { note: 'keep' };
    const paused = pausedDeployment(d, true);
    expect(paused.metadata?.annotations).toEqual({
      note: 'keep',
      'airunway.ai/reconcile-paused': 'true',
    });
    expect(isPaused(paused as any)).toBe(true);
    expect(
      pausedDeployment(paused as any, false).metadata?.annotations?.[
        'airunway.ai/reconcile-paused'
      ],
    ).toBe('false');
  });
});

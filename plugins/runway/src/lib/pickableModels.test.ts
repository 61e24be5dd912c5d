import { model } from '../__testUtils__/fixtures';
import { pickableModels } from './pickableModels';

describe('pickableModels', () => {
  const items = [
    model('east', 'ml', 'zeta', { phase: 'Downloading', pvcName: '' }),
    model('east', 'ml', 'alpha', { phase: 'Ready', pvcName: 'custom-pvc' }),
    model('east', 'team', 'beta', { phase: 'Failed', message: 'HTTP 404' }),
    model('east', 'ml', 'fresh', { phase: undefined, progress: undefined }),
    model('west', 'ml', 'far'),
  ];

  it("keeps one cluster's models, Ready first, then by namespace/name", () => {
    expect(pickableModels(items, 'east').map(m => [m.ref, m.phase])).toEqual([
      ['ml/alpha', 'Ready'],
      ['ml/fresh', 'Pending'],
      ['ml/zeta', 'Downloading'],
      ['team/beta', 'Failed'],
    ]);
  });

  it('filters by namespace when one is given', () => {
    expect(pickableModels(items, 'east', 'team').map(m => m.ref)).toEqual([
      'team/beta',
    ]);
  });

  it('gives what a template mounts: the PVC (status, else the naming convention) and default mount path', () => {
    const [alpha, , zeta, beta] = pickableModels(items, 'east');
    expect(alpha).toEqual({
      ref: 'ml/alpha',
      name: 'alpha',
      namespace: 'ml',
      phase: 'Ready',
      claimName: 'custom-pvc',
      mountPath: '/models/alpha',
      source: 'HuggingFace org/alpha@main',
      message: undefined,
    });
    expect(zeta.claimName).toBe('model-zeta');
    expect(beta.message).toBe('HTTP 404');
  });
});

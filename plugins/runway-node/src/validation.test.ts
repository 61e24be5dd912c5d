import {
  envelopeIssues,
  validateResourceBody,
  updateIssuesOf,
} from './validation';
import {
  issuesFromStatus,
  toPortalError,
  ResourceInvalidError,
  FieldConflictError,
  ClusterUnavailableError,
} from './errors';
import { toApplyBody } from './ClusterClient';
import {
  ApplyConflictError,
  KubeApiError,
  KubeConnectionError,
} from '@runway-portal/controller-runtime';
import { ConflictError, NotFoundError } from '@backstage/errors';

const deployment = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'llama-8b', namespace: 'team-a' },
  spec: {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
    ...spec,
  },
});

const model = {
  apiVersion: 'models.airunway.ai/v1alpha1',
  kind: 'Model',
  metadata: { name: 'llama', namespace: 'team-a' },
  spec: {
    source: { huggingFace: { repoId: 'meta-llama/Llama-3.1-8B-Instruct' } },
    storage: { size: '20Gi', storageClass: 'standard' },
  },
};

const stack = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'my-stack', namespace: 'team-a' },
  spec: { distribution: { name: 'starter' } },
};

describe('validateResourceBody', () => {
  it('accepts valid bodies of each kind', () => {
    expect(
      validateResourceBody('deployments', deployment()).filter(
        i => i.severity === 'error',
      ),
    ).toEqual([]);
    expect(
      validateResourceBody('models', model).filter(i => i.severity === 'error'),
    ).toEqual([]);
    expect(
      validateResourceBody('stacks', stack).filter(i => i.severity === 'error'),
    ).toEqual([]);
  });

  it('names each bad field and says how to fix it', () => {
    const issues = validateResourceBody('deployments', {
      ...deployment({ resources: { gpu: { count: -1 } } }),
      metadata: { name: 'Llama' },
    });
    const paths = issues.filter(i => i.severity === 'error').map(i => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'metadata.name',
        'metadata.namespace',
        'spec.resources.gpu.count',
      ]),
    );
    expect(issues.find(i => i.path === 'metadata.namespace')?.message).toMatch(
      /is required/,
    );
  });

  it('checks the kind, version and the target in the URL', () => {
    const issues = envelopeIssues(
      'models',
      { ...model, apiVersion: 'airunway.ai/v1alpha1' },
      { namespace: 'team-b', name: 'other' },
    );
    expect(issues.map(i => i.path)).toEqual([
      'apiVersion',
      'metadata.name',
      'metadata.namespace',
    ]);
    expect(envelopeIssues('stacks', 'nope')[0]).toMatchObject({
      path: '(root)',
    });
  });

  it('runs update rules against the stored deployment', () => {
    const stored = { ...deployment(), status: {} };
    const changed = deployment({
      model: { id: 'Qwen/Qwen2.5-7B', source: 'huggingface' },
    });
    const issues = updateIssuesOf('deployments', stored, changed);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'spec.model.id', severity: 'warning' }),
      ]),
    );
    expect(updateIssuesOf('models', model, model)).toEqual([]);
  });
});

describe('toApplyBody', () => {
  it('drops status and server-owned metadata, keeps resourceVersion for optimistic concurrency', () => {
    const body = toApplyBody({
      ...model,
      metadata: {
        ...model.metadata,
        uid: 'u',
        resourceVersion: '7',
        managedFields: [],
        creationTimestamp: 'x',
        generation: 2,
      },
      status: { phase: 'Ready' },
    });
    expect(body).toEqual({
      ...model,
      metadata: { ...model.metadata, resourceVersion: '7' },
    });
  });
});

describe('toPortalError', () => {
  const ctx = { cluster: 'east', what: 'Model team-a/llama' };

  it('turns the API server field causes into issues', () => {
    const err = toPortalError(
      new KubeApiError('PATCH', '/x', 422, {
        message: 'Model.models.airunway.ai "llama" is invalid',
        reason: 'Invalid',
        details: {
          causes: [
            {
              reason: 'FieldValueInvalid',
              field: 'spec.storage.size',
              message: 'Invalid value',
            },
          ],
        },
      }),
      ctx,
    );
    expect(err).toBeInstanceOf(ResourceInvalidError);
    expect((err as ResourceInvalidError).issues).toEqual([
      {
        path: 'spec.storage.size',
        message: 'Invalid value',
        severity: 'error',
      },
    ]);
    expect(issuesFromStatus({ message: 'bad' })).toEqual([
      { path: '(root)', message: 'bad', severity: 'error' },
    ]);
  });

  it('lists apply conflicts with their owners', () => {
    const err = toPortalError(
      new ApplyConflictError('PATCH', '/x', 409, {
        reason: 'Conflict',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              field: '.spec.storage.size',
              message:
                'conflict with "kubectl" using models.airunway.ai/v1alpha1',
            },
          ],
        },
      }),
      ctx,
    );
    expect(err).toBeInstanceOf(FieldConflictError);
    expect(err.message).toMatch(/\.spec\.storage\.size \(owned by kubectl\)/);
  });

  it('maps not found, stale writes, and cluster trouble', () => {
    expect(
      toPortalError(new KubeApiError('GET', '/x', 404, {}), ctx),
    ).toBeInstanceOf(NotFoundError);
    expect(
      toPortalError(
        new KubeApiError('PATCH', '/x', 409, { reason: 'Conflict' }),
        ctx,
      ),
    ).toBeInstanceOf(ConflictError);
    const down = toPortalError(
      new KubeConnectionError('GET', '/x', new Error('ECONNREFUSED')),
      ctx,
    );
    expect(down).toBeInstanceOf(ClusterUnavailableError);
    expect((down as ClusterUnavailableError).reason).toBe('Unreachable');
    const mine = new Error('my own');
    expect(toPortalError(mine, ctx)).toBe(mine);
  });
});

import { parseApplyConflicts } from '../kube/errors';
import { applyConfiguration, statusApplyConfiguration } from './applier';

const obj = {
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: {
    name: 'md',
    namespace: 'ns',
    uid: 'u',
    resourceVersion: '7',
    generation: 2,
    creationTimestamp: 't',
    managedFields: [{}],
    labels: { a: 'b' },
  },
  spec: { model: { id: 'x' } },
  status: { phase: 'Running' },
};

describe('applyConfiguration', () => {
  it('drops server-owned metadata and status, keeps the rest', () => {
    expect(applyConfiguration(obj)).toEqual({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'md', namespace: 'ns', labels: { a: 'b' } },
      spec: { model: { id: 'x' } },
    });
  });

  it('names every missing identity field', () => {
    expect(() => applyConfiguration({ metadata: {} })).toThrow(
      'server-side apply needs apiVersion, kind, metadata.name: set them on the object',
    );
  });
});

describe('statusApplyConfiguration', () => {
  it('sends identity and status only', () => {
    expect(statusApplyConfiguration(obj)).toEqual({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'md', namespace: 'ns' },
      status: { phase: 'Running' },
    });
  });

  it('refuses an object without status', () => {
    expect(() =>
      statusApplyConfiguration({ ...obj, status: undefined }),
    ).toThrow(/has no status/);
  });
});

describe('parseApplyConflicts', () => {
  it('reads manager and field from the causes of a 409', () => {
    expect(
      parseApplyConflicts({
        reason: 'Conflict',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "writer-a" using v1',
              field: '.data.key',
            },
            { reason: 'Other', message: 'x' },
          ],
        },
      }),
    ).toEqual([
      {
        manager: 'writer-a',
        field: '.data.key',
        message: 'conflict with "writer-a" using v1',
      },
    ]);
  });
});

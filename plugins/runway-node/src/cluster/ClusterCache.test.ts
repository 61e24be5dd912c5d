import { keepOwnedOnly } from './ClusterCache';

describe('the upstream cache keeps what Runway owns', () => {
  const owner = {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    name: 'llama',
    uid: 'u1',
  };

  it('keeps an object one of Runway kinds owns, without its managed fields', () => {
    const owned = keepOwnedOnly({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'llama-epp',
        namespace: 'ml',
        ownerReferences: [owner],
        managedFields: [{ manager: 'x' }],
      },
      spec: { replicas: 1 },
    });
    expect(owned.spec).toEqual({ replicas: 1 });
    expect(owned.metadata?.managedFields).toBeUndefined();
  });

  it("reduces anything else to its key, and a Service to its key and selector (the resource's pods, for the logs)", () => {
    const key = { name: 'llama', namespace: 'ml', resourceVersion: '7' };
    expect(
      keepOwnedOnly({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { ...key, labels: { a: 'b' } },
        spec: {
          selector: { 'kaito.sh/workspace': 'llama' },
          ports: [{ port: 80 }],
        },
      }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: key,
      spec: { selector: { 'kaito.sh/workspace': 'llama' } },
    });
    expect(
      keepOwnedOnly({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: key,
        spec: { selector: { matchLabels: { app: 'x' } } },
      }),
    ).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: key });
  });
});

import { CustomObjectsApi } from '@kubernetes/client-node';
import { startCluster, type TestCluster } from './index';
import { apiFailure, START_TIMEOUT_MS, WIDGETS_CRD } from './testing';

jest.setTimeout(60_000);

describe('CRD validation by the API server', () => {
  let cluster: TestCluster;
  let custom: CustomObjectsApi;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'crd-validation',
      crds: [WIDGETS_CRD],
    });
    custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
  }, START_TIMEOUT_MS);
  afterAll(() => cluster?.stop());

  const create = (name: string, spec: Record<string, unknown>) =>
    custom.createNamespacedCustomObject({
      group: 'e2e.runway.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: {
        apiVersion: 'e2e.runway.dev/v1',
        kind: 'Widget',
        metadata: { name },
        spec,
      },
    });

  it('accepts a valid object', async () => {
    const created = (await create('valid', {
      size: 3,
      color: 'red',
      minReplicas: 1,
      maxReplicas: 2,
    })) as any;
    expect(created.metadata.uid).toBeTruthy();
    expect(created.spec).toEqual({
      size: 3,
      color: 'red',
      minReplicas: 1,
      maxReplicas: 2,
    });
  });

  it.each([
    [
      'a wrong type',
      { size: 'ten' },
      /spec\.size: Invalid value: "string": spec\.size in body must be of type integer/,
    ],
    [
      'a value above the maximum',
      { size: 11 },
      /spec\.size: Invalid value: 11: spec\.size in body should be less than or equal to 10/,
    ],
    [
      'a value outside the enum',
      { size: 1, color: 'pink' },
      /spec\.color: Unsupported value: "pink": supported values: "red", "green", "blue"/,
    ],
    [
      'a missing required field',
      { color: 'red' },
      /spec\.size: Required value/,
    ],
    [
      'a violated x-kubernetes-validations rule',
      { size: 1, minReplicas: 3, maxReplicas: 2 },
      /Widget.e2e.runway.dev "bad-\w+" is invalid: spec: Invalid value: minReplicas must not exceed maxReplicas/,
    ],
  ])('rejects %s', async (_case, spec, message) => {
    const failure = await apiFailure(
      create(`bad-${Math.random().toString(36).slice(2, 8)}`, spec),
    );
    expect(failure.code).toBe(422);
    expect(failure.message).toMatch(message);
  });
});

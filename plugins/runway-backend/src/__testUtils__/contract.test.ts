import { assertFitsContract, operationOf } from './contract';

describe('holding answers to the REST contract', () => {
  it('finds the operation from the method and path', () => {
    expect(operationOf('get', '/api/runway/clusters')).toBe('ListClusters');
    expect(operationOf('get', '/api/runway/models?cluster=a')).toBe(
      'ListResources',
    );
    expect(operationOf('post', '/api/runway/stacks/east')).toBe(
      'CreateResource',
    );
    expect(operationOf('post', '/api/runway/deployments/east/preview')).toBe(
      'PreviewResource',
    );
    expect(operationOf('put', '/api/runway/deployments/east/ns/n')).toBe(
      'UpdateResource',
    );
    expect(operationOf('get', '/api/runway/openapi.json')).toBeUndefined();
  });

  it('fails an answer with a field the contract does not describe, naming it', () => {
    const ok = { items: [], clusters: [], errors: [] };
    expect(() =>
      assertFitsContract('get', '/api/runway/deployments', {
        status: 200,
        body: ok,
      }),
    ).not.toThrow();
    expect(() =>
      assertFitsContract('get', '/api/runway/deployments', {
        status: 200,
        body: { ...ok, total: 0 },
      }),
    ).toThrow(/outside the REST contract \(ListResources\): \/total/);
    expect(() =>
      assertFitsContract('get', '/api/runway/clusters', {
        status: 403,
        body: { message: 'no' },
      }),
    ).toThrow(/\/error/);
  });
});

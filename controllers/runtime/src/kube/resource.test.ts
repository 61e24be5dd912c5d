import { queryString } from './client';
import {
  ApplyConflictError,
  errorFromStatus,
  isGone,
  isNotFound,
  KubeApiError,
} from './errors';
import {
  apiVersionOf,
  keyOf,
  parseApiVersion,
  parseKey,
  resourcePath,
} from './resource';
import { ConfigMaps, Namespaces, Leases } from './wellKnown';

describe('resourcePath', () => {
  it('builds core, grouped, namespaced, cluster-wide and subresource paths', () => {
    expect(resourcePath(ConfigMaps)).toBe('/api/v1/configmaps');
    expect(resourcePath(ConfigMaps, { namespace: 'ns', name: 'a' })).toBe(
      '/api/v1/namespaces/ns/configmaps/a',
    );
    expect(
      resourcePath(Leases, {
        namespace: 'kube-system',
        name: 'x',
        subresource: 'status',
      }),
    ).toBe(
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/x/status',
    );
    expect(resourcePath(Namespaces, { name: 'ns' })).toBe(
      '/api/v1/namespaces/ns',
    );
  });

  it('explains misuse', () => {
    expect(() =>
      resourcePath(Namespaces, { namespace: 'x', name: 'y' }),
    ).toThrow(/Namespace is cluster-scoped/);
    expect(() =>
      resourcePath(ConfigMaps, { namespace: 'ns', name: '' }),
    ).toThrow(/metadata.name of ConfigMap is empty/);
    expect(() => resourcePath(ConfigMaps, { subresource: 'status' })).toThrow(
      /needs an object name/,
    );
  });

  it('escapes names', () => {
    expect(resourcePath(ConfigMaps, { namespace: 'ns', name: 'a/b' })).toBe(
      '/api/v1/namespaces/ns/configmaps/a%2Fb',
    );
  });
});

describe('apiVersion and keys', () => {
  it('parses and formats apiVersions', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('apps/v1')).toEqual({
      group: 'apps',
      version: 'v1',
    });
    expect(() => parseApiVersion('a/b/c')).toThrow(
      /apiVersion "a\/b\/c" is not valid/,
    );
    expect(apiVersionOf(Leases)).toBe('coordination.k8s.io/v1');
  });

  it('round-trips keys', () => {
    expect(keyOf({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    expect(keyOf({ name: 'a' })).toBe('a');
    expect(parseKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(parseKey('a')).toEqual({ name: 'a' });
  });

  it('builds query strings without empty values', () => {
    expect(queryString({ watch: true, a: undefined, b: '', limit: 5 })).toBe(
      '?watch=true&limit=5',
    );
    expect(queryString({})).toBe('');
  });
});

describe('errors', () => {
  it('types API errors from their Status', () => {
    const gone = errorFromStatus(
      'GET',
      '/x',
      410,
      { reason: 'Expired', message: 'too old' },
      false,
    );
    expect(isGone(gone)).toBe(true);
    expect(gone.message).toBe('GET /x failed with 410 Expired: too old');
    expect(
      isNotFound(
        errorFromStatus('GET', '/x', 404, { reason: 'NotFound' }, false),
      ),
    ).toBe(true);
    const conflict = errorFromStatus(
      'PATCH',
      '/x',
      409,
      { reason: 'Conflict' },
      true,
    );
    expect(conflict).toBeInstanceOf(ApplyConflictError);
    expect(
      errorFromStatus('PUT', '/x', 409, { reason: 'Conflict' }, false),
    ).not.toBeInstanceOf(ApplyConflictError);
    expect(conflict).toBeInstanceOf(KubeApiError);
  });
});

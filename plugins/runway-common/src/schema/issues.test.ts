import { error, joinPath, mergeResults, toResult, warning } from './issues';

describe('results', () => {
  it('is valid with only warnings and invalid with any error', () => {
    expect(toResult([warning('a', 'w')]).valid).toBe(true);
    expect(toResult([warning('a', 'w'), error('b', 'e')]).valid).toBe(false);
    expect(mergeResults(toResult([]), toResult([error('x', 'bad')]))).toEqual({
      valid: false,
      issues: [{ path: 'x', message: 'bad', severity: 'error' }],
    });
  });

  it.each([
    ['', 'spec', 'spec'],
    ['spec', 'model', 'spec.model'],
    ['spec.env', 0, 'spec.env[0]'],
    [
      'metadata.labels',
      'app.kubernetes.io/name',
      'metadata.labels["app.kubernetes.io/name"]',
    ],
  ])('joinPath(%p, %p) is %p', (parent, key, path) => {
    expect(joinPath(parent, key as string | number)).toBe(path);
  });
});

import type { KubeObject } from '@runway-portal/controller-runtime';
import { actionOf, summary } from './apply';

const obj = (
  rv: string,
  data: Record<string, string>,
  managedAt = 't1',
): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'a',
      resourceVersion: rv,
      managedFields: [{ time: managedAt }],
    },
    data,
  } as KubeObject);

describe('actionOf', () => {
  it('created when nothing was there', () => {
    expect(actionOf(undefined, obj('1', {}))).toBe('created');
  });
  it('by content: versions, managed fields and status written meanwhile are ignored', () => {
    expect(actionOf(obj('1', { a: '1' }), obj('2', { a: '1' }, 't2'))).toBe(
      'unchanged',
    );
    expect(actionOf(obj('1', { a: '1' }), obj('2', { a: '2' }))).toBe(
      'changed',
    );
  });
});

describe('summary', () => {
  it('counts each action', () => {
    expect(
      summary([
        { object: 'a', action: 'created' },
        { object: 'b', action: 'created' },
        { object: 'c', action: 'unchanged' },
      ]),
    ).toBe('2 created, 1 unchanged');
    expect(summary([])).toBe('nothing to do');
  });
});

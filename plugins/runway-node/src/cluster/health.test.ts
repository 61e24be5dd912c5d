import {
  KubeApiError,
  KubeConnectionError,
} from '@runway-portal/controller-runtime';
import {
  ClusterTimeoutError,
  classifyClusterError,
  dataAge,
  withTimeout,
} from './health';

const ctx = {
  cluster: 'east',
  what: 'ModelDeployment (airunway.ai/v1alpha1)',
  collection: true,
};

describe('classifyClusterError', () => {
  it.each([
    [
      new KubeApiError('GET', '/x', 401, { message: 'Unauthorized' }),
      'Unauthorized',
      /renew its serviceAccountToken/,
    ],
    [
      new KubeApiError('GET', '/x', 403, { message: 'forbidden' }),
      'Forbidden',
      /grant it .* RBAC/,
    ],
    [
      new KubeApiError('GET', '/x', 404, { message: 'not found' }),
      'NotInstalled',
      /install Runway's CRDs/,
    ],
    [
      new KubeApiError('GET', '/x', 500, { message: 'boom' }),
      'Error',
      /answered 500/,
    ],
    [
      new KubeConnectionError('GET', '/x', new Error('connect ECONNREFUSED')),
      'Unreachable',
      /cannot reach cluster "east"/,
    ],
    [
      new KubeConnectionError(
        'GET',
        '/x',
        new Error('no answer within 5000 ms'),
      ),
      'Timeout',
      /did not answer in time/,
    ],
    [
      new ClusterTimeoutError('east', 5000, 'a list'),
      'Timeout',
      /within 5000 ms/,
    ],
  ])('%s is %s', (err, reason, message) => {
    const result = classifyClusterError(err, ctx);
    expect(result.cluster).toBe('east');
    expect(result.reason).toBe(reason);
    expect(result.message).toMatch(message);
  });
});

describe('dataAge', () => {
  it('is null before the first list, 0 while healthy, and grows while failing', () => {
    expect(dataAge({ synced: false }, 1000)).toBeNull();
    expect(dataAge({ synced: true }, 1000)).toBe(0);
    expect(dataAge({ synced: true, failingSince: 400 }, 1000)).toBe(600);
  });
});

describe('withTimeout', () => {
  it('returns the work result within the bound', async () => {
    await expect(withTimeout('east', 1000, 'x', async () => 42)).resolves.toBe(
      42,
    );
  });

  it('rejects with ClusterTimeoutError and aborts the work after the bound', async () => {
    let aborted = false;
    const started = Date.now();
    await expect(
      withTimeout('east', 50, 'a slow read', signal => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise(() => {});
      }),
    ).rejects.toBeInstanceOf(ClusterTimeoutError);
    expect(aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

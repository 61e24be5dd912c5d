import {
  KubeApiError,
  KubeConnectionError,
} from '@runway-portal/controller-runtime';
import {
  ClusterTimeoutError,
  classifyClusterError,
  clusterHealth,
  dataAge,
  freshnessOf,
  INSTALL_FIX,
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

describe('clusterHealth', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const ready = [
    { name: 'kaito', ready: true },
    { name: 'dynamo', ready: true },
  ];

  it('is ok when the cluster answers, Runway is installed and every provider is ready', () => {
    expect(
      clusterHealth({ cluster: 'east', lastSeen: t0, providers: ready }),
    ).toEqual({ state: 'ok', message: '', lastSeen: t0 });
  });

  it('is unreachable while the API server gives no answer, stale since then, whatever else is known', () => {
    const health = clusterHealth({
      cluster: 'east',
      lastSeen: t0,
      downSince: t0 + 1000,
      downError: {
        cluster: 'east',
        reason: 'Unreachable',
        message:
          'cannot reach cluster "east" (connect ECONNREFUSED): check that its API server is up and that its url is right',
      },
      notInstalled: true,
      providers: [],
    });
    expect(health).toMatchObject({
      state: 'unreachable',
      lastSeen: t0,
      staleSince: t0 + 1000,
    });
    expect(health.message).toMatch(
      /^cannot reach cluster "east" .*url is right\. Its data is the last known/,
    );
    expect(clusterHealth({ cluster: 'east', downSince: t0 }).message).toMatch(
      /^cluster "east" does not answer\./,
    );
  });

  it('names the fix when Runway is not installed', () => {
    const health = clusterHealth({
      cluster: 'east',
      lastSeen: t0,
      notInstalled: true,
    });
    expect(health.state).toBe('not-installed');
    expect(health.message).toContain('`runway controller install`');
    expect(health.message).toContain(INSTALL_FIX);
  });

  it('is degraded when providers are not ready, none is registered, or a kind fails to list', () => {
    const notReady = clusterHealth({
      cluster: 'east',
      lastSeen: t0,
      providers: [
        { name: 'kaito', ready: true },
        { name: 'dynamo', ready: false },
      ],
    });
    expect(notReady.state).toBe('degraded');
    expect(notReady.message).toMatch(/1 of 2 providers not ready \(dynamo\)/);
    expect(
      clusterHealth({ cluster: 'east', lastSeen: t0, providers: [] }).message,
    ).toMatch(/no inference provider is registered .*runway provider install/);
    const forbidden = clusterHealth({
      cluster: 'east',
      lastSeen: t0,
      problems: [
        {
          cluster: 'east',
          reason: 'Forbidden',
          message:
            'cluster "east" refused the portal\'s service account access to Model (403): grant it the verbs it needs through RBAC.',
        },
      ],
      providers: ready,
    });
    expect(forbidden).toMatchObject({ state: 'degraded' });
    expect(forbidden.message).toMatch(/403\): grant it .*RBAC\.$/);
  });

  it('is unreachable before the first answer', () => {
    expect(clusterHealth({ cluster: 'east' })).toEqual({
      state: 'unreachable',
      message: expect.stringMatching(
        /^cluster "east" has not answered the portal yet: check/,
      ),
    });
  });

  it('is ok without a providers list yet (not listed is not "none registered")', () => {
    expect(clusterHealth({ cluster: 'east', lastSeen: t0 }).state).toBe('ok');
  });
});

describe('freshnessOf', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');

  it('is current while the cluster answers and the watch works', () => {
    expect(
      freshnessOf(
        { state: 'ok', message: '', lastSeen: t0 },
        { cluster: 'east', synced: true },
        t0 + 500,
      ),
    ).toEqual({
      cluster: 'east',
      synced: true,
      dataAgeMs: 0,
      state: 'ok',
      message: '',
      lastSeen: '2026-01-01T00:00:00.000Z',
      stale: false,
    });
  });

  it('is stale from the earlier of the outage and the watch failure', () => {
    const fresh = freshnessOf(
      {
        state: 'unreachable',
        message: 'm',
        lastSeen: t0,
        staleSince: t0 + 2000,
      },
      { cluster: 'east', synced: true, failingSince: t0 + 1000 },
      t0 + 10_000,
    );
    expect(fresh).toMatchObject({
      stale: true,
      staleSince: '2026-01-01T00:00:01.000Z',
      dataAgeMs: 9000,
      state: 'unreachable',
    });
  });

  it('has nothing stale before the first list, and no lastSeen before the first answer', () => {
    expect(
      freshnessOf(
        { state: 'unreachable', message: 'm', staleSince: t0 },
        { cluster: 'east', synced: false },
        t0 + 1000,
      ),
    ).toMatchObject({ stale: false, dataAgeMs: null, lastSeen: null });
  });
});

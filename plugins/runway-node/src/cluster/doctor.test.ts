import {
  KubeApiError,
  type KubeClient,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import type { Expectations } from '@runway-portal/cli/doctor';
import { ClusterDoctor, doctorReport, pendingReport } from './doctor';

const expectations: Expectations = {
  namespace: 'airunway-system',
  crds: [{ name: 'modeldeployments.airunway.ai', versions: ['v1alpha1'] }],
  controllers: [{ component: 'core', deployment: 'airunway-core' }],
  webhooks: [
    {
      kind: 'ValidatingWebhookConfiguration',
      name: 'airunway-core-validating',
      component: 'core',
    },
  ],
  providers: [],
  operators: [],
};

const apiError = (code: number) =>
  new KubeApiError('GET', '/x', code, {
    code,
    reason: code === 404 ? 'NotFound' : 'Forbidden',
    message: 'no',
  } as any);

/**
 * A cluster where the CRD exists, Deployments are forbidden (403: the
 * portal's role without the rule) and nothing else is there (404).
 */
function fakeClient(calls: string[] = [], delayMs = 0): KubeClient {
  return {
    request: async () => {
      calls.push('version');
      await new Promise(r => setTimeout(r, delayMs));
      return { gitVersion: 'v1.36.3' };
    },
    get: async (rt: ResourceType, key: { name: string }) => {
      if (rt.plural === 'customresourcedefinitions')
        return {
          metadata: { name: key.name },
          spec: { versions: [{ name: 'v1alpha1', served: true }] },
          status: { conditions: [{ type: 'Established', status: 'True' }] },
        };
      if (rt.plural === 'deployments') throw apiError(403);
      throw apiError(404);
    },
    list: async () => ({ items: [] }),
  } as unknown as KubeClient;
}

describe('doctorReport', () => {
  const checks = [
    { id: 'a', status: 'fail' as const, message: 'm', fix: 'f' },
    { id: 'b', status: 'warn' as const, message: 'm', fix: 'f' },
    { id: 'c', status: 'not-checked' as const, message: 'm', fix: 'f' },
    { id: 'd', status: 'ok' as const, message: 'm' },
  ];

  it('counts fail and warn as problems, not what was not checked', () => {
    expect(doctorReport('east', { checks, at: 0, durationMs: 12 })).toEqual({
      cluster: 'east',
      checkedAt: '1970-01-01T00:00:00.000Z',
      durationMs: 12,
      problems: 2,
      checks,
    });
  });

  it('a failed run keeps the previous checks and says why', () => {
    const previous = doctorReport('east', { checks, at: 0, durationMs: 1 });
    expect(
      doctorReport(
        'east',
        { error: 'cannot reach cluster "east"', at: 1000, durationMs: 5 },
        previous,
      ),
    ).toMatchObject({
      checkedAt: '1970-01-01T00:00:01.000Z',
      error: 'cannot reach cluster "east"',
      problems: 2,
      checks,
    });
    expect(pendingReport('east')).toEqual({
      cluster: 'east',
      checkedAt: null,
      problems: 0,
      checks: [],
    });
  });
});

describe('ClusterDoctor', () => {
  it("runs the CLI's checks read-only: a 403 is not-checked naming the permission, the webhook probe is left out", async () => {
    const doctor = new ClusterDoctor(() => new Map([['east', fakeClient()]]), {
      intervalMs: 0,
      expectations,
    });
    expect(doctor.report('east')).toEqual(pendingReport('east'));
    expect(doctor.report('nope')).toBeUndefined();
    const report = await doctor.run('east');
    const byId = Object.fromEntries(report.checks.map(c => [c.id, c]));
    expect(byId['crd/modeldeployments.airunway.ai'].status).toBe('ok');
    expect(byId['controller/*']).toMatchObject({
      status: 'not-checked',
      message: expect.stringContaining('needs get on deployments.apps'),
    });
    // Not registered (404): a failure with the install fix, whatever the probe.
    expect(byId['webhook/airunway-core-validating']).toMatchObject({
      status: 'fail',
      fix: 'runway controller install core',
    });
    expect(report.problems).toBe(
      report.checks.filter(c => c.status === 'fail' || c.status === 'warn')
        .length,
    );
    expect(doctor.report('east')).toBe(report);
    await doctor.stop();
  });

  it('joins a run in progress instead of starting another, and bounds each run', async () => {
    const calls: string[] = [];
    const doctor = new ClusterDoctor(
      () => new Map([['east', fakeClient(calls, 200)]]),
      { intervalMs: 0, expectations },
    );
    const [a, b] = await Promise.all([doctor.run('east'), doctor.run('east')]);
    expect(a).toBe(b);
    expect(calls).toEqual(['version']);

    const slow = new ClusterDoctor(
      () => new Map([['east', fakeClient([], 5_000)]]),
      { intervalMs: 0, timeoutMs: 50, expectations },
    );
    const report = await slow.run('east');
    expect(report.error).toMatch(
      /cluster "east" did not answer the doctor's checks within 50 ms/,
    );
    expect(report.checks).toEqual([]);
  });

  it('runs in the background every interval, until stopped', async () => {
    const calls: string[] = [];
    const doctor = new ClusterDoctor(
      () => new Map([['east', fakeClient(calls)]]),
      { intervalMs: 20, expectations },
    );
    doctor.start();
    await new Promise(r => setTimeout(r, 200));
    await doctor.stop();
    const runs = calls.length;
    expect(runs).toBeGreaterThanOrEqual(2);
    await new Promise(r => setTimeout(r, 100));
    expect(calls.length).toBe(runs);
  });
});

it('a stop does not wait for a run against a cluster that does not answer', async () => {
  const doctor = new ClusterDoctor(
    () => new Map([['slow', fakeClient([], 10_000)]]),
    { intervalMs: 0, timeoutMs: 20_000, expectations },
  );
  const running = doctor.run('slow');
  const started = Date.now();
  await doctor.stop(100);
  expect(Date.now() - started).toBeLessThan(1_000);
  void running;
});

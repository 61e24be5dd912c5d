import { Registry } from 'prom-client';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { CoreMetrics, countByPhase } from './metrics';
import type { CoreStatus } from './decide';
import { coreStatusUpToDate } from './reconciler';

const md = (
  name: string,
  namespace: string,
  status?: ModelDeployment['status'],
) =>
  ({
    metadata: { name, namespace },
    spec: { model: { id: 'a' } },
    status,
  } as ModelDeployment);

describe('metrics', () => {
  it('counts deployments by namespace and phase', () => {
    expect(
      countByPhase([
        md('a', 'x', { phase: 'Running' }),
        md('b', 'x', { phase: 'Running' }),
        md('c', 'y'),
      ]),
    ).toEqual([
      { namespace: 'x', phase: 'Running', count: 2 },
      { namespace: 'y', phase: 'Unknown', count: 1 },
    ]);
  });

  it('exposes the seed metrics with the airunway_ prefix, computed from the cache at scrape time', async () => {
    const registry = new Registry();
    const cache = [
      md('a', 'x', { phase: 'Running', replicas: { desired: 2, ready: 1 } }),
    ];
    const metrics = new CoreMetrics(registry, () => cache);
    metrics.providerSelection.inc({ provider: 'kaito', reason: 'r' });
    const text = await registry.metrics();
    expect(text).toContain(
      'airunway_modeldeployment_total{namespace="x",phase="Running"} 1',
    );
    expect(text).toContain(
      'airunway_deployment_replicas{name="a",namespace="x",state="ready"} 1',
    );
    expect(text).toContain(
      'airunway_deployment_phase{name="a",namespace="x",phase="Running"} 1',
    );
    expect(text).toContain(
      'airunway_provider_selection{provider="kaito",reason="r"} 1',
    );
    expect(text).toContain('airunway_reconciliation_duration_seconds');
    expect(text).toContain('airunway_reconciliation_errors_total');
  });
});

describe('coreStatusUpToDate', () => {
  const desired: CoreStatus = {
    provider: { name: 'kaito', selectedReason: 'r' },
    conditions: [
      {
        type: 'Validated',
        status: 'True',
        reason: 'ValidationPassed',
        message: 'm',
        lastTransitionTime: 't',
      },
    ],
    observedGeneration: 1,
  };
  it('ignores fields other writers own and notices a difference in its own', () => {
    const live: ModelDeployment['status'] = {
      ...desired,
      provider: { ...desired.provider, resourceName: 'x' },
      phase: 'Running' as const,
      conditions: [
        ...desired.conditions,
        {
          type: 'Ready',
          status: 'True',
          reason: 'r',
          message: 'm',
          lastTransitionTime: 't',
        },
      ],
    };
    expect(coreStatusUpToDate(desired, live)).toBe(true);
    expect(
      coreStatusUpToDate(desired, { ...live, observedGeneration: 2 }),
    ).toBe(false);
    expect(
      coreStatusUpToDate(
        {
          ...desired,
          phase: 'Pending',
          message: 'No healthy providers available',
        },
        live,
      ),
    ).toBe(false);
    expect(coreStatusUpToDate(desired, undefined)).toBe(false);
  });
});

import {
  deploymentEndpoint,
  formatAge,
  serviceEndpoint,
  toDeploymentRow,
} from './rows';
import {
  countByPhase,
  EMPTY_FILTER,
  filterOptions,
  filterRows,
} from './filters';
import type { ListedDeployment } from '../api/types';

function listed(
  cluster: string,
  name: string,
  extra: Partial<ListedDeployment['object']> = {},
): ListedDeployment {
  return {
    cluster,
    object: {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: {
        name,
        namespace: 'ml',
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: { model: { id: `org/${name}` } },
      ...extra,
    },
  };
}

describe('toDeploymentRow', () => {
  it('takes selection, replicas and endpoint from status', () => {
    const row = toDeploymentRow(
      listed('east', 'llama', {
        status: {
          phase: 'Running',
          provider: { name: 'dynamo' },
          engine: { type: 'vllm' },
          replicas: { desired: 2, ready: 1 },
          endpoint: { service: 'llama', port: 8000 },
        },
      }),
    );
    expect(row).toMatchObject({
      key: 'east/ml/llama',
      phase: 'Running',
      provider: 'dynamo',
      engine: 'vllm',
      replicasReady: 1,
      replicasDesired: 2,
      endpoint: 'http://llama.ml.svc:8000',
      createdMs: Date.parse('2026-01-01T00:00:00Z'),
    });
  });

  it('falls back to the spec and Pending before the controllers answered', () => {
    const row = toDeploymentRow(
      listed('west', 'qwen', {
        spec: {
          model: { id: 'q' },
          provider: { name: 'kaito' },
          scaling: { replicas: 3 },
        },
      }),
    );
    expect(row).toMatchObject({
      phase: 'Pending',
      provider: 'kaito',
      engine: '',
      replicasReady: 0,
      replicasDesired: 3,
      endpoint: '',
    });
  });

  it('prefers the gateway endpoint and carries its model name', () => {
    const item = listed('e', 'a', {
      status: {
        gateway: { endpoint: 'http://gw/v1', modelName: 'chat' },
        endpoint: { service: 's', port: 1 },
      },
    });
    expect(deploymentEndpoint(item.object)).toBe('http://gw/v1');
    expect(serviceEndpoint(item.object)).toBe('http://s.ml.svc:1');
    expect(toDeploymentRow(item)).toMatchObject({
      endpoint: 'http://gw/v1',
      viaGateway: true,
      gatewayModel: 'chat',
    });
    expect(toDeploymentRow(item).search).toContain('gateway chat');
  });

  it('is not reachable through the gateway before the core reports its URL', () => {
    const item = listed('e', 'a', {
      status: {
        gateway: { modelName: 'chat' },
        endpoint: { service: 's', port: 1 },
      },
    });
    expect(toDeploymentRow(item)).toMatchObject({
      endpoint: 'http://s.ml.svc:1',
      viaGateway: false,
      gatewayModel: '',
    });
    expect(toDeploymentRow(item).search).not.toContain('gateway');
  });
});

describe('formatAge', () => {
  it('reads like kubectl', () => {
    const now = Date.parse('2026-01-03T00:00:00Z');
    expect(formatAge(now - 30_000, now)).toBe('30s');
    expect(formatAge(now - 10 * 60_000, now)).toBe('10m');
    expect(formatAge(now - 5 * 3600_000, now)).toBe('5h');
    expect(formatAge(now - 3 * 86400_000, now)).toBe('3d');
    expect(formatAge(NaN, now)).toBe('');
  });
});

describe('filterRows', () => {
  const rows = [
    toDeploymentRow(
      listed('east', 'llama', {
        status: { phase: 'Running', provider: { name: 'dynamo' } },
      }),
    ),
    toDeploymentRow(
      listed('west', 'qwen', {
        status: { phase: 'Failed', provider: { name: 'kaito' } },
      }),
    ),
    toDeploymentRow({
      ...listed('west', 'phi'),
      object: {
        ...listed('west', 'phi').object,
        metadata: { name: 'phi', namespace: 'other' },
      },
    }),
  ];

  it('returns the same array when nothing is filtered', () => {
    expect(filterRows(rows, EMPTY_FILTER)).toBe(rows);
  });

  it('combines filters with AND and free text by words', () => {
    expect(
      filterRows(rows, { ...EMPTY_FILTER, clusters: ['west'] }).map(
        r => r.name,
      ),
    ).toEqual(['qwen', 'phi']);
    expect(
      filterRows(rows, {
        ...EMPTY_FILTER,
        clusters: ['west'],
        phases: ['Failed'],
      }).map(r => r.name),
    ).toEqual(['qwen']);
    expect(
      filterRows(rows, { ...EMPTY_FILTER, providers: ['dynamo'] }).map(
        r => r.name,
      ),
    ).toEqual(['llama']);
    expect(
      filterRows(rows, { ...EMPTY_FILTER, namespaces: ['other'] }).map(
        r => r.name,
      ),
    ).toEqual(['phi']);
    expect(
      filterRows(rows, { ...EMPTY_FILTER, text: 'WEST org/q' }).map(
        r => r.name,
      ),
    ).toEqual(['qwen']);
  });

  it('offers the distinct values, including clusters with no rows', () => {
    expect(filterOptions(rows, ['north'])).toEqual({
      clusters: ['east', 'north', 'west'],
      namespaces: ['ml', 'other'],
      phases: ['Failed', 'Pending', 'Running'],
      providers: ['dynamo', 'kaito'],
    });
    expect(countByPhase(rows)).toEqual({ Running: 1, Failed: 1, Pending: 1 });
  });
});

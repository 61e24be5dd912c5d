import {
  deploymentEndpoint,
  formatAge,
  serviceEndpoint,
  toDeploymentRow,
  toModelRow,
  toResourceRow,
  toRow,
  toStackRow,
  withStaleness,
} from './rows';
import {
  deployment,
  freshness,
  model,
  stack,
  unreachable,
} from '../__testUtils__/fixtures';
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
      key: 'deployments/east/ml/llama',
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

describe('withStaleness', () => {
  const row = (cluster: string, name: string) =>
    toResourceRow({
      cluster,
      object: { metadata: { namespace: 'ml', name } },
    });

  it('marks the rows of a cluster whose data is stale with since when, and leaves the others', () => {
    const down = unreachable('west', 42_000);
    const rows = withStaleness(
      [row('east', 'a'), row('west', 'b')],
      [freshness('east'), down],
    );
    expect(rows[0].staleSinceMs).toBeUndefined();
    expect(rows[1].staleSinceMs).toBe(Date.parse(down.staleSince!));
  });

  it('returns the same rows when nothing is stale', () => {
    const rows = [row('east', 'a')];
    expect(withStaleness(rows, [freshness('east')])).toBe(rows);
    expect(withStaleness(rows, undefined)).toBe(rows);
  });
});

describe('toModelRow', () => {
  it('shows the phase, source, size and byte progress', () => {
    const row = toModelRow(
      model('east', 'ml', 'qwen', {
        phase: 'Downloading',
        progress: 50,
        download: { bytesDownloaded: 1536, totalBytes: 3072 },
      }),
    );
    expect(row).toMatchObject({
      key: 'models/east/ml/qwen',
      kind: 'models',
      phase: 'Downloading',
      source: 'HuggingFace org/qwen@main',
      size: '20Gi',
      progress: 50,
      bytes: '1.5 KiB of 3.0 KiB',
    });
    expect(row.search).toContain('org/qwen');
  });

  it('reads S3 and URL sources, and a Ready model without progress as 100%', () => {
    const s3 = toModelRow(
      model(
        'east',
        'ml',
        'from-s3',
        { phase: 'Ready', progress: undefined },
        { source: { s3: { bucket: 'weights', key: 'llama/' } } },
      ),
    );
    expect(s3).toMatchObject({ source: 's3://weights/llama/', progress: 100 });
    const url = toModelRow(
      model(
        'east',
        'ml',
        'from-url',
        { phase: 'Pending', progress: undefined },
        { source: { url: { url: 'https://example.com/m.gguf' } } },
      ),
    );
    expect(url).toMatchObject({
      source: 'https://example.com/m.gguf',
      progress: undefined,
      bytes: '',
    });
  });
});

describe('toStackRow', () => {
  it('shows the distribution, the resolved image and the endpoint', () => {
    expect(toStackRow(stack('west', 'ml', 'assistant'))).toMatchObject({
      key: 'stacks/west/ml/assistant',
      kind: 'stacks',
      phase: 'Ready',
      distribution: 'starter',
      image: 'docker.io/llamastack/starter:0.2',
      endpoint: 'http://assistant-service.ml.svc:8321',
    });
  });

  it('prefers the route URL, and shows a stack without status as Pending', () => {
    const exposed = toStackRow(
      stack('west', 'ml', 'public', { routeURL: 'https://stack.example.com' }),
    );
    expect(exposed.endpoint).toBe('https://stack.example.com');
    const fresh = stack('west', 'ml', 'fresh');
    delete fresh.object.status;
    expect(toStackRow(fresh)).toMatchObject({
      phase: 'Pending',
      image: '',
      endpoint: '',
    });
  });
});

describe('toRow', () => {
  it('picks the row function of the kind', () => {
    expect(toRow('models', model('e', 'n', 'm')).kind).toBe('models');
    expect(toRow('stacks', stack('e', 'n', 's')).kind).toBe('stacks');
    expect(toRow('deployments', deployment('e', 'n', 'd')).kind).toBe(
      'deployments',
    );
  });
});

import { selectProvider } from '@runway-portal/plugin-runway-common';
import {
  clusterStateView,
  errorsBeyondState,
  freeGpus,
  freshnessOf,
  providerConfigsFor,
  gpuTypesOf,
  gpuTypeText,
  providersReady,
  summariseGpus,
} from './clusters';
import type { ClusterOverview } from '../api/types';
import { freshness, registered, unreachable } from '../__testUtils__/fixtures';

const cluster: ClusterOverview = {
  name: 'east',
  title: 'East',
  reachable: true,
  providers: [
    registered({
      name: 'kaito',
      displayName: 'KAITO',
      ready: true,
      message: '',
      engines: [
        {
          name: 'llamacpp',
          servingModes: ['aggregated'],
          gpuSupport: true,
          cpuSupport: true,
        },
      ],
    }),
    registered({
      name: 'dynamo',
      displayName: 'Dynamo',
      ready: false,
      message: 'controller down',
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          gpuSupport: true,
          cpuSupport: false,
        },
      ],
    }),
  ],
  gpus: [
    {
      resource: 'nvidia.com/gpu',
      allocatable: 8,
      requested: 3,
      pending: 2,
      nodes: 2,
    },
  ],
};

describe('cluster facts', () => {
  it('computes free GPUs per resource', () => {
    expect(summariseGpus(cluster.gpus)[0].free).toBe(3);
    expect(freeGpus(cluster)).toBe(3);
    expect(freeGpus(cluster, 'amd.com/gpu')).toBe(0);
    expect(freeGpus(undefined)).toBeUndefined();
    expect(providersReady(cluster)).toEqual({ ready: 1, total: 2 });
  });

  it("names the cluster's GPU models with their memory and how many are free", () => {
    const a100 = {
      product: 'NVIDIA-A100-SXM4-80GB',
      memoryBytes: 80 * 1024 ** 3,
      nodes: 1,
      allocatable: 4,
      free: 3,
      largestFreeOnNode: 3,
    };
    const withTypes: ClusterOverview = {
      ...cluster,
      gpus: [{ ...cluster.gpus[0], types: [a100] }],
    };
    expect(gpuTypesOf(withTypes)).toEqual([a100]);
    expect(gpuTypesOf(cluster)).toBeUndefined();
    expect(gpuTypeText(a100)).toBe(
      'NVIDIA-A100-SXM4-80GB, 80.0 GiB each: 3 of 4 free',
    );
    expect(gpuTypeText({ ...a100, product: undefined })).toBe(
      'GPU, 80.0 GiB each: 3 of 4 free',
    );
  });

  it('uses the registrations the cluster holds, with their readiness', () => {
    const configs = providerConfigsFor(cluster);
    expect(configs.map(c => [c.metadata?.name, c.status?.ready])).toEqual([
      ['kaito', true],
      ['dynamo', false],
    ]);
    expect(configs[0].spec?.capabilities?.engines).toEqual([
      {
        name: 'llamacpp',
        servingModes: ['aggregated'],
        gpuSupport: true,
        cpuSupport: true,
      },
    ]);
    const selection = selectProvider(
      {
        model: { id: 'x' },
        engine: { type: 'llamacpp' },
        resources: { gpu: { count: 0 } },
      },
      configs,
    );
    expect(selection).toMatchObject({
      ok: true,
      provider: 'kaito',
      auto: true,
    });
  });
});

describe('clusterStateView', () => {
  const now = Date.parse('2026-01-01T00:01:00Z');

  it('colours each state by its meaning', () => {
    const view = (state: any) =>
      clusterStateView(freshness('east', { state }), now);
    expect(view('ok')).toMatchObject({ label: 'ok', color: 'success' });
    expect(view('degraded')).toMatchObject({
      label: 'degraded',
      color: 'warning',
    });
    expect(view('unreachable')).toMatchObject({
      label: 'unreachable',
      color: 'error',
    });
    expect(view('not-installed')).toMatchObject({
      label: 'Runway not installed',
      color: 'info',
    });
    expect(clusterStateView(undefined, now)).toBeUndefined();
  });

  it('says how long ago the cluster answered and how long its data is stale', () => {
    const down = freshness('east', {
      state: 'unreachable',
      lastSeen: '2026-01-01T00:00:15Z',
      stale: true,
      staleSince: '2026-01-01T00:00:18Z',
      dataAgeMs: 1000,
    });
    expect(clusterStateView(down, now)).toMatchObject({
      stale: true,
      lastSeenAgoMs: 45_000,
      staleForMs: 42_000,
    });
    const current = clusterStateView(
      freshness('east', { lastSeen: '2026-01-01T00:00:59Z' }),
      now,
    );
    expect(current).toMatchObject({ stale: false, lastSeenAgoMs: 1000 });
    expect(current?.staleForMs).toBeUndefined();
    expect(
      clusterStateView(freshness('east', { lastSeen: null }), now)
        ?.lastSeenAgoMs,
    ).toBeUndefined();
  });

  it("finds a cluster's entry in an answer", () => {
    const answer = { clusters: [freshness('east'), unreachable('west')] };
    expect(freshnessOf(answer, 'west')?.state).toBe('unreachable');
    expect(freshnessOf(answer, 'north')).toBeUndefined();
    expect(freshnessOf(undefined, 'east')).toBeUndefined();
  });
});

describe('errorsBeyondState', () => {
  const errors = [
    { cluster: 'west', reason: 'Unreachable' as const, message: 'a' },
    { cluster: 'west', reason: 'Timeout' as const, message: 'b' },
    { cluster: 'west', reason: 'Forbidden' as const, message: 'c' },
    { cluster: 'east', reason: 'Unreachable' as const, message: 'd' },
  ];

  it("drops an unreachable cluster's own no-answer errors, which its notice says once", () => {
    expect(
      errorsBeyondState(errors, unreachable('west')).map(e => e.message),
    ).toEqual(['c', 'd']);
  });

  it('keeps every error otherwise', () => {
    expect(errorsBeyondState(errors, freshness('west'))).toBe(errors);
    expect(errorsBeyondState(errors, undefined)).toBe(errors);
  });
});

import { selectProvider } from '@runway-portal/plugin-runway-common';
import {
  freeGpus,
  providerConfigsFor,
  providersReady,
  summariseGpus,
} from './clusters';
import type { ClusterOverview } from '../api/types';
import { registered } from '../__testUtils__/fixtures';

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

import { mockServices } from '@backstage/backend-test-utils';
import type { ResourceChange } from '@runway-portal/plugin-runway-node';
import { runwaySignalChannel } from '@runway-portal/plugin-runway-common';
import { coalesce, forwardChangesToSignals } from './signals';

const change = (
  cluster: string,
  namespace: string,
  event = false,
  kind: ResourceChange['kind'] = 'deployments',
): ResourceChange => ({
  cluster,
  kind,
  namespace,
  type: 'modified',
  event,
});

describe('coalesce', () => {
  it('groups changes per kind, cluster and namespace, counting them', () => {
    expect(
      coalesce([
        change('east', 'a'),
        change('east', 'a', true),
        change('west', 'a', true),
        change('east', 'a', false, 'models'),
      ]),
    ).toEqual([
      {
        kind: 'deployments',
        cluster: 'east',
        namespace: 'a',
        changes: 2,
        eventsOnly: false,
      },
      {
        kind: 'deployments',
        cluster: 'west',
        namespace: 'a',
        changes: 1,
        eventsOnly: true,
      },
      {
        kind: 'models',
        cluster: 'east',
        namespace: 'a',
        changes: 1,
        eventsOnly: false,
      },
    ]);
  });
});

describe('forwardChangesToSignals', () => {
  it('publishes one broadcast per group after the window', async () => {
    let listener: (c: ResourceChange) => void = () => {};
    const published: unknown[] = [];
    const stop = forwardChangesToSignals({
      clusterClient: {
        onChange: (l: typeof listener) => {
          listener = l;
          return () => {};
        },
      } as any,
      signals: { publish: async (s: unknown) => void published.push(s) },
      logger: mockServices.logger.mock(),
      windowMs: 20,
    });
    for (let i = 0; i < 100; i++) listener(change('east', 'team-a'));
    expect(published).toEqual([]);
    await new Promise(r => setTimeout(r, 60));
    expect(published).toEqual([
      {
        recipients: { type: 'broadcast' },
        channel: runwaySignalChannel('deployments'),
        message: {
          kind: 'deployments',
          cluster: 'east',
          namespace: 'team-a',
          changes: 100,
          eventsOnly: false,
        },
      },
    ]);
    stop();
  });
});

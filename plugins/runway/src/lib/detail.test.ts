import { aggregateEvents, isFinal, isSettled, phaseMeaning } from './detail';

describe('phaseMeaning', () => {
  it('gives each phase a colour by meaning, in the words of its kind', () => {
    expect(phaseMeaning('deployments', 'Running')).toEqual({
      color: 'success',
      meaning: 'The model server is serving requests.',
    });
    expect(phaseMeaning('models', 'Ready').meaning).toBe(
      'The model files are downloaded and ready to mount.',
    );
    expect(phaseMeaning('stacks', 'Initializing').color).toBe('info');
    expect(phaseMeaning('deployments', 'Pending').color).toBe('warning');
    expect(phaseMeaning('deployments', 'Failed').color).toBe('error');
    expect(phaseMeaning('deployments', 'Terminating').meaning).toMatch(
      /finalizers/,
    );
    expect(phaseMeaning('deployments', '').meaning).toBe(
      'No phase reported yet.',
    );
    expect(isSettled('Running')).toBe(true);
    expect(isSettled('Deploying')).toBe(false);
    expect(isSettled('Failed')).toBe(false);
    expect(['Running', 'Ready', 'Failed'].map(isFinal)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['Pending', 'Downloading', 'Terminating'].some(isFinal)).toBe(false);
  });
});

describe('aggregateEvents', () => {
  it('merges identical events (core/v1 count and events.k8s.io series), newest first', () => {
    const rows = aggregateEvents([
      {
        metadata: { name: 'a' },
        type: 'Normal',
        reason: 'Created',
        message: 'created',
        involvedObject: { kind: 'Workspace', name: 'llama' },
        count: 1,
        lastTimestamp: '2026-01-01T00:00:00Z',
      },
      {
        metadata: { name: 'b' },
        type: 'Warning',
        reason: 'BackOff',
        note: 'restarting',
        regarding: { kind: 'Pod', name: 'llama-0' },
        series: { count: 4, lastObservedTime: '2026-01-01T00:10:00Z' },
      },
      {
        metadata: { name: 'c' },
        type: 'Warning',
        reason: 'BackOff',
        note: 'restarting',
        regarding: { kind: 'Pod', name: 'llama-0' },
        eventTime: '2026-01-01T00:05:00Z',
      },
    ] as any);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      reason: 'BackOff',
      object: 'Pod llama-0',
      message: 'restarting',
      count: 5,
      warning: true,
      lastSeen: Date.parse('2026-01-01T00:10:00Z'),
    });
    expect(rows[1]).toMatchObject({ reason: 'Created', warning: false });
  });
});

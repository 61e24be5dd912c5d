import {
  EventAggregator,
  eventAggregationKey,
  eventName,
  EventRecord,
  validateEvent,
} from './eventAggregation';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
};
const e = (over: Partial<EventRecord> = {}): EventRecord => ({
  involved: pod,
  type: 'Warning',
  reason: 'Failed',
  message: 'boom',
  ...over,
});

describe('eventAggregationKey', () => {
  it('is equal for repeats and differs when object, reason, message or type differ', () => {
    const k = eventAggregationKey('c', e());
    expect(eventAggregationKey('c', e())).toBe(k);
    expect(eventAggregationKey('c', e({ message: 'other' }))).not.toBe(k);
    expect(eventAggregationKey('c', e({ reason: 'Other' }))).not.toBe(k);
    expect(eventAggregationKey('c', e({ type: 'Normal' }))).not.toBe(k);
    expect(eventAggregationKey('d', e())).not.toBe(k);
    expect(
      eventAggregationKey(
        'c',
        e({ involved: { ...pod, metadata: { ...pod.metadata, uid: 'u2' } } }),
      ),
    ).not.toBe(k);
  });
});

describe('EventAggregator', () => {
  it('creates once, then counts repeats on the same Event within the window', () => {
    const agg = new EventAggregator(60_000);
    const t0 = new Date(1_000_000);
    const first = agg.observe('k', e(), t0);
    expect(first.action).toBe('create');
    expect(first.seen).toMatchObject({
      namespace: 'ns',
      count: 1,
      firstTimestamp: t0.toISOString(),
    });
    const second = agg.observe('k', e(), new Date(1_030_000));
    expect(second).toMatchObject({
      action: 'update',
      seen: {
        name: first.seen.name,
        count: 2,
        firstTimestamp: t0.toISOString(),
      },
    });
    // Silence longer than the window: a new Event.
    const third = agg.observe('k', e(), new Date(1_200_000));
    expect(third.action).toBe('create');
    expect(third.seen.name).not.toBe(first.seen.name);
  });

  it('evicts the least recently seen entry beyond its bound', () => {
    const agg = new EventAggregator(60_000, 2);
    const t = new Date(0);
    agg.observe('a', e(), t);
    agg.observe('b', e(), t);
    agg.observe('a', e(), t); // a is now most recent
    agg.observe('c', e(), t); // evicts b
    expect(agg.size).toBe(2);
    expect(agg.observe('a', e(), t).action).toBe('update');
    expect(agg.observe('b', e(), t).action).toBe('create');
  });

  it('starts afresh after forget', () => {
    const agg = new EventAggregator();
    agg.observe('k', e(), new Date(0));
    agg.forget('k');
    expect(agg.observe('k', e(), new Date(1)).action).toBe('create');
  });
});

describe('validateEvent and eventName', () => {
  it('explains invalid events', () => {
    expect(validateEvent(e())).toBeUndefined();
    expect(validateEvent(e({ type: 'Error' as 'Normal' }))).toMatch(
      /use "Normal" or "Warning"/,
    );
    expect(validateEvent(e({ reason: 'has space' }))).toMatch(/CamelCase/);
    expect(validateEvent(e({ involved: { metadata: {} } }))).toMatch(
      /no metadata.name/,
    );
  });

  it('names events after the object and a hex time', () => {
    expect(eventName('p', 1000)).toMatch(/^p\.[0-9a-f]+$/);
  });
});

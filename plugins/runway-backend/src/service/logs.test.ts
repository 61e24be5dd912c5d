import { lastLines, serverTiming, sseEvent, stepTimer } from './logs';

describe('log helpers', () => {
  it('keeps the last lines of a log read whole', () => {
    expect(lastLines('a\nb\nc\n', 2)).toEqual(['b', 'c']);
    expect(lastLines('a\nb', 5)).toEqual(['a', 'b']);
    expect(lastLines('', 5)).toEqual([]);
  });

  it('writes one server-sent event per line, named when it is not a line', () => {
    expect(sseEvent('INFO ready')).toBe('data: INFO ready\n\n');
    expect(sseEvent('', 'end')).toBe('event: end\ndata: \n\n');
    // A stray newline cannot end the event early.
    expect(sseEvent('a\nb', 'runway-error')).toBe(
      'event: runway-error\ndata: a\ndata: b\n\n',
    );
  });

  it('times each step since the previous one, as a Server-Timing header', () => {
    const clock = [100, 103.25, 110, 160.5];
    const timer = stepTimer(() => clock.shift()!);
    timer.step('authz');
    timer.step('resolve');
    timer.step('open');
    expect(timer.steps).toEqual([
      { name: 'authz', ms: 3.25 },
      { name: 'resolve', ms: 6.75 },
      { name: 'open', ms: 50.5 },
    ]);
    expect(serverTiming(timer.steps)).toBe(
      'authz;dur=3.3, resolve;dur=6.8, open;dur=50.5',
    );
    expect(serverTiming([])).toBe('');
  });
});

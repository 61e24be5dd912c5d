import { lastLines, sseEvent } from './logs';

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
});

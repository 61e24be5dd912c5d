import { formatLine, parseLine, percentOf, summarizeLog } from './progress';

describe('downloader lines', () => {
  it('round-trip and ignore everything else', () => {
    const line = {
      event: 'progress' as const,
      bytesDone: 10,
      bytesTotal: 100,
      bytesPerSecond: 5,
      etaSeconds: 18,
      percent: 10,
    };
    expect(parseLine(formatLine(line))).toEqual(line);
    expect(parseLine('Downloading config.json')).toBeUndefined();
    expect(parseLine('{not json')).toBeUndefined();
    expect(
      parseLine('{"event":"progress","bytesDone":-1,"bytesPerSecond":0}'),
    ).toBeUndefined();
    expect(parseLine('{"event":"error","message":"x"}')).toEqual({
      event: 'error',
      message: 'x',
      permanent: false,
    });
  });

  it('summarizes a log: the last progress line, and the end', () => {
    const log = [
      'starting',
      formatLine({
        event: 'progress',
        bytesDone: 1,
        bytesTotal: 4,
        bytesPerSecond: 1,
      }),
      formatLine({
        event: 'progress',
        bytesDone: 3,
        bytesTotal: 4,
        bytesPerSecond: 1,
      }),
      formatLine({ event: 'done', bytesTotal: 4, files: 1, seconds: 2 }),
      '',
    ].join('\n');
    expect(summarizeLog(log)).toEqual({
      progress: {
        event: 'progress',
        bytesDone: 3,
        bytesTotal: 4,
        bytesPerSecond: 1,
      },
      done: { event: 'done', bytesTotal: 4, files: 1, seconds: 2 },
    });
  });

  it('percent is whole, bounded, and unknown without a total', () => {
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(5, 0)).toBeUndefined();
    expect(percentOf(20, 10)).toBe(100);
  });
});

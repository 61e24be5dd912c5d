import { createLogger, formatLogLine } from './logger';

describe('createLogger', () => {
  it('writes one JSON object per line with child fields and level filtering', () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      write: l => lines.push(l),
      now: () => new Date(0),
    });
    log.debug('hidden');
    log.child({ controller: 'c1' }).info('reconciled', { key: 'ns/a', ms: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0])).toEqual({
      level: 'info',
      ts: '1970-01-01T00:00:00.000Z',
      msg: 'reconciled',
      controller: 'c1',
      key: 'ns/a',
      ms: 3,
    });
  });

  it('serializes errors and survives circular fields', () => {
    const err = new TypeError('boom');
    expect(
      JSON.parse(formatLogLine('error', 'x', { err }, new Date(0))).err,
    ).toMatchObject({
      name: 'TypeError',
      message: 'boom',
    });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(
      JSON.parse(formatLogLine('warn', 'y', { circular }, new Date(0))),
    ).toMatchObject({
      msg: 'y',
      fieldsError: 'fields not serializable',
    });
  });
});

import { LOG_TAIL_DEFAULT, LOG_TAIL_MAX, parseLogQuery } from './logs';

describe('parseLogQuery', () => {
  it('defaults to the first container, the last lines, not following', () => {
    expect(parseLogQuery({})).toEqual({
      value: {
        container: undefined,
        tailLines: LOG_TAIL_DEFAULT,
        previous: false,
        follow: false,
      },
      issues: [],
    });
    expect(
      parseLogQuery({ container: 'model', tailLines: '50', follow: 'true' })
        .value,
    ).toEqual({
      container: 'model',
      tailLines: 50,
      previous: false,
      follow: true,
    });
  });

  it('names the parameter of every bad value and says what is accepted', () => {
    const { value, issues } = parseLogQuery({
      container: '../etc/passwd',
      tailLines: String(LOG_TAIL_MAX + 1),
      previous: 'yes',
    });
    expect(value).toBeUndefined();
    expect(issues.map(i => i.path)).toEqual([
      'container',
      'tailLines',
      'previous',
    ]);
    expect(issues[1].message).toBe(
      `tailLines must be a whole number from 1 to ${LOG_TAIL_MAX}, not "5001"`,
    );
    expect(parseLogQuery({ tailLines: '0' }).issues[0].path).toBe('tailLines');
    expect(parseLogQuery({ tailLines: '2.5' }).issues[0].path).toBe(
      'tailLines',
    );
    expect(
      parseLogQuery({ previous: 'true', follow: 'true' }).issues[0],
    ).toMatchObject({ path: 'follow' });
  });
});

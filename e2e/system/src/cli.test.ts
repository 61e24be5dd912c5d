import { parseUpArgs } from './cli';

describe('parseUpArgs', () => {
  it('defaults to dev and staging with Backstage', () => {
    expect(parseUpArgs(['up'])).toEqual({
      clusters: ['dev', 'staging'],
      backstage: true,
      stepDelayMs: undefined,
    });
  });

  it('reads clusters, --no-backstage and the simulator delay', () => {
    expect(
      parseUpArgs([
        'up',
        '--clusters',
        'a, b-2',
        '--no-backstage',
        '--step-delay-ms=0',
      ]),
    ).toEqual({ clusters: ['a', 'b-2'], backstage: false, stepDelayMs: 0 });
  });

  it('names the bad flag and the fix', () => {
    expect(() => parseUpArgs(['up', '--clusters', 'Dev,ok'])).toThrow(
      '--clusters must list cluster names of lower-case letters, digits and "-" (e.g. dev,staging); not valid: Dev',
    );
    expect(() => parseUpArgs(['up', '--clusters', 'a,a'])).toThrow(
      '--clusters names a cluster twice: a,a',
    );
    expect(() => parseUpArgs(['up', '--step-delay-ms=-1'])).toThrow(
      '--step-delay-ms must be a whole number of milliseconds, 0 or more; got "-1"',
    );
    expect(() => parseUpArgs(['down'])).toThrow(
      'usage: up [--clusters dev,staging]',
    );
    expect(() => parseUpArgs(['up', '--bogus'])).toThrow(/bogus/);
  });
});

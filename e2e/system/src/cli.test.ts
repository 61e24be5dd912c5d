import { parseUpArgs } from './cli';

describe('parseUpArgs', () => {
  it('defaults to dev and staging with Backstage', () => {
    expect(parseUpArgs(['up'])).toEqual({
      clusters: ['dev', 'staging'],
      backstage: true,
      stepDelayMs: undefined,
      ports: { app: undefined, backend: undefined },
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
    ).toEqual({
      clusters: ['a', 'b-2'],
      backstage: false,
      stepDelayMs: 0,
      ports: { app: undefined, backend: undefined },
    });
    expect(
      parseUpArgs(['up', '--port', '3100', '--backend-port', '7100']).ports,
    ).toEqual({
      app: 3100,
      backend: 7100,
    });
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
    expect(() => parseUpArgs(['up', '--port', '70000'])).toThrow(
      '--port must be a port number from 1 to 65535; got "70000"',
    );
    expect(() =>
      parseUpArgs(['up', '--port', '1', '--backend-port', '1']),
    ).toThrow('--port and --backend-port must differ');
    expect(() => parseUpArgs(['down'])).toThrow(
      'usage: up [--clusters dev,staging]',
    );
    expect(() => parseUpArgs(['up', '--bogus'])).toThrow(/bogus/);
  });
});

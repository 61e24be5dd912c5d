import {
  helpRequested,
  optionErrorsText,
  optionParsers as p,
  type OptionSpecs,
  type OptionsResult,
  parseDuration,
  parseProcessOptions,
  parseWebhookManagerOptions,
  usage,
  webhookManagerOptions,
  webhookProcessOptions,
} from './options';

const SPECS = {
  kubeconfig: {
    flag: 'kubeconfig',
    env: 'KUBECONFIG',
    help: 'path of a kubeconfig file',
    parse: p.string,
  },
  metricsPort: {
    flag: 'metrics-port',
    env: 'METRICS_PORT',
    help: 'port of /metrics',
    default: '8080',
    parse: p.port,
  },
  mode: {
    flag: 'mode',
    env: 'MODE',
    help: 'how to run',
    default: 'service',
    parse: p.oneOf(['service', 'url', 'off']),
  },
  timeout: {
    flag: 'timeout',
    env: 'TIMEOUT',
    help: 'how long to wait',
    default: '5m',
    parse: p.duration,
  },
} satisfies OptionSpecs;

function errorsOf(result: OptionsResult<unknown>): string[] {
  if (result.ok)
    throw new Error(`expected errors, got ${JSON.stringify(result.options)}`);
  return result.errors;
}

describe('parseProcessOptions', () => {
  it('takes flags over environment variables over defaults, in both flag forms', () => {
    const env = { KUBECONFIG: '/env/kc', METRICS_PORT: '9000', MODE: 'off' };
    expect(
      parseProcessOptions(SPECS, ['--metrics-port', '0', '--mode=url'], env),
    ).toEqual({
      ok: true,
      options: {
        kubeconfig: '/env/kc',
        metricsPort: 0,
        mode: 'url',
        timeout: 300_000,
      },
    });
    expect(parseProcessOptions(SPECS, [], {})).toEqual({
      ok: true,
      options: { metricsPort: 8080, mode: 'service', timeout: 300_000 },
    });
  });

  it('types the settings from the specs', () => {
    const r = parseProcessOptions(SPECS, ['--timeout=3s'], {});
    if (!r.ok) throw new Error(r.errors.join('; '));
    // Compile-time: a default makes the setting defined; the union comes from oneOf.
    const port: number = r.options.metricsPort;
    const mode: 'service' | 'url' | 'off' = r.options.mode;
    const kubeconfig: string | undefined = r.options.kubeconfig;
    // @ts-expect-error a setting without a default may be undefined
    const required: string = r.options.kubeconfig;
    expect(required).toBeUndefined();
    expect([port, mode, kubeconfig, r.options.timeout]).toEqual([
      8080,
      'service',
      undefined,
      3000,
    ]);
  });

  it('counts an empty value as not set', () => {
    expect(
      parseProcessOptions(SPECS, ['--kubeconfig='], {
        METRICS_PORT: '',
        MODE: 'url',
      }),
    ).toEqual({
      ok: true,
      options: { metricsPort: 8080, mode: 'url', timeout: 300_000 },
    });
  });

  it('returns every problem at once, naming the flag and its variable and how to fix the value', () => {
    const errors = errorsOf(
      parseProcessOptions(
        SPECS,
        ['--bogus=1', 'stray', '--metrics-port=eighty', '--kubeconfig'],
        { MODE: 'sometimes', TIMEOUT: 'soon' },
      ),
    );
    expect(errors).toEqual([
      'unknown flag "--bogus": run with --help to list the flags',
      'unexpected argument "stray": settings are flags, written --name=value or --name value',
      '--kubeconfig needs a value: write --kubeconfig=<value> or --kubeconfig <value>',
      '--metrics-port (METRICS_PORT) "eighty" is not valid: use a whole number from 0 to 65535',
      '--mode (MODE) "sometimes" is not valid: use service, url or off',
      '--timeout (TIMEOUT) "soon" is not a duration: write e.g. 30s, 5m or 1h',
    ]);
  });

  it('does not take a following flag as a value', () => {
    expect(
      errorsOf(parseProcessOptions(SPECS, ['--kubeconfig', '--mode=url'], {})),
    ).toEqual([
      '--kubeconfig needs a value: write --kubeconfig=<value> or --kubeconfig <value>',
    ]);
  });

  it('lets the last of a repeated flag win', () => {
    expect(
      parseProcessOptions(SPECS, ['--mode=off', '--mode', 'url'], {}),
    ).toEqual({
      ok: true,
      options: expect.objectContaining({ mode: 'url' }),
    });
  });
});

describe('optionParsers', () => {
  const ok = <T>(parse: (raw: string, label: string) => T, raw: string) =>
    parse(raw, '--x (X)');
  const fails =
    (parse: (raw: string, label: string) => unknown, raw: string) => () =>
      parse(raw, '--x (X)');

  it('parses whole numbers within bounds', () => {
    expect(ok(p.port, '65535')).toBe(65535);
    expect(fails(p.port, '65536')).toThrow(
      '--x (X) "65536" is not valid: use a whole number from 0 to 65535',
    );
    expect(fails(p.port, '-1')).toThrow('use a whole number from 0 to 65535');
    expect(fails(p.port, '1.5')).toThrow('use a whole number from 0 to 65535');
    expect(ok(p.wholeNumber(1), '100000')).toBe(100000);
    expect(fails(p.wholeNumber(1), '0')).toThrow(
      '--x (X) "0" is not valid: use a whole number of at least 1',
    );
  });

  it('parses durations longer than 0', () => {
    expect(parseDuration('5m', 'x')).toBe(300_000);
    expect(parseDuration('250ms', 'x')).toBe(250);
    expect(parseDuration('2', 'x')).toBe(2000);
    expect(parseDuration('1.5h', 'x')).toBe(5_400_000);
    expect(fails(p.duration, '0s')).toThrow(
      '--x (X) "0s" is not valid: use a duration longer than 0, e.g. 30s',
    );
    expect(fails(p.duration, '5 minutes')).toThrow(
      '--x (X) "5 minutes" is not a duration: write e.g. 30s, 5m or 1h',
    );
  });

  it('parses booleans, log levels and names strictly', () => {
    expect(ok(p.boolean, 'false')).toBe(false);
    expect(fails(p.boolean, 'yes')).toThrow(
      '--x (X) "yes" is not valid: use true or false',
    );
    expect(ok(p.logLevel, 'WARN')).toBe('warn');
    expect(fails(p.logLevel, 'loud')).toThrow(
      '--x (X) "loud" is not valid: use debug, info, warn or error',
    );
    expect(ok(p.k8sName, 'gw.example-1')).toBe('gw.example-1');
    expect(fails(p.k8sName, 'Bad_Name')).toThrow(
      '--x (X) "Bad_Name" is not valid: use a Kubernetes name',
    );
    expect(fails(p.k8sName, 'a'.repeat(254))).toThrow('use a Kubernetes name');
    expect(ok(p.namespaceName, 'airunway-system')).toBe('airunway-system');
    expect(fails(p.namespaceName, 'a.b')).toThrow(
      '--x (X) "a.b" is not valid: use a namespace name',
    );
    expect(fails(p.namespaceName, 'a'.repeat(64))).toThrow(
      'use a namespace name',
    );
  });
});

describe('usage and help', () => {
  it('lists every flag with its variable, help and default', () => {
    expect(usage('demo', SPECS)).toBe(
      [
        'usage: demo [flags]',
        '  --kubeconfig <value>  (env KUBECONFIG)  path of a kubeconfig file',
        '  --metrics-port <value>  (env METRICS_PORT)  port of /metrics, default 8080',
        '  --mode <value>  (env MODE)  how to run, default service',
        '  --timeout <value>  (env TIMEOUT)  how long to wait, default 5m',
      ].join('\n'),
    );
  });

  it('prints each problem after the program name, then the usage', () => {
    const text = optionErrorsText('demo', SPECS, ['a is wrong', 'b is wrong']);
    expect(
      text.startsWith(
        'demo: a is wrong\ndemo: b is wrong\nusage: demo [flags]\n',
      ),
    ).toBe(true);
  });

  it('sees --help and -h anywhere', () => {
    expect(helpRequested(['--mode=url', '--help'])).toBe(true);
    expect(helpRequested(['-h'])).toBe(true);
    expect(helpRequested(['--mode=help'])).toBe(false);
  });
});

describe('webhook Manager options', () => {
  const specs = {
    ...webhookManagerOptions('demo', { maxConcurrentReconciles: '8' }),
    region: {
      flag: 'region',
      env: 'REGION',
      help: 'where',
      parse: p.string,
    },
  };

  it('defaults for a cluster: service mode on <program>-webhook.<namespace>.svc', () => {
    expect(parseWebhookManagerOptions('demo', specs, [], {})).toEqual({
      ok: true,
      options: expect.objectContaining({
        namespace: 'airunway-system',
        webhookMode: 'service',
        webhookHost: 'demo-webhook.airunway-system.svc',
        webhookPort: 9443,
        leaderElect: false,
        maxConcurrentReconciles: 8,
        metricsPort: 8080,
      }),
    });
    expect(usage('demo', specs)).toContain(
      '--webhook-host <value>  (env WEBHOOK_HOST)  Service DNS name (service mode, default demo-webhook.<namespace>.svc) or IP/host (url mode, default 127.0.0.1)',
    );
  });

  it('defaults the host to 127.0.0.1 in url mode, and keeps a given one', () => {
    const url = parseWebhookManagerOptions('demo', specs, [], {
      WEBHOOK_MODE: 'url',
    });
    expect(url.ok && url.options.webhookHost).toBe('127.0.0.1');
    const given = parseWebhookManagerOptions(
      'demo',
      specs,
      ['--webhook-host=hooks.example'],
      {},
    );
    expect(given.ok && given.options.webhookHost).toBe('hooks.example');
  });

  it("reports the shared check and the process's own at once", () => {
    expect(
      parseWebhookManagerOptions(
        'demo',
        specs,
        ['--webhook-mode=url', '--webhook-port=0'],
        {},
        () => ({ ok: false, errors: ['--region (REGION) is needed'] }),
      ),
    ).toEqual({
      ok: false,
      errors: [
        '--webhook-port (WEBHOOK_PORT) must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0',
        '--region (REGION) is needed',
      ],
    });
  });

  it("returns the process's refined settings", () => {
    const result = parseWebhookManagerOptions(
      'demo',
      specs,
      ['--region=eu'],
      {},
      o => ({ ok: true, options: { region: o.region?.toUpperCase() } }),
    );
    expect(result).toEqual({ ok: true, options: { region: 'EU' } });
  });

  it('does not run the checks across flags when a flag is bad on its own', () => {
    const finish = jest.fn();
    expect(
      parseWebhookManagerOptions(
        'demo',
        specs,
        ['--leader-elect=yes'],
        {},
        finish,
      ).ok,
    ).toBe(false);
    expect(finish).not.toHaveBeenCalled();
  });
});

describe('webhookProcessOptions', () => {
  const demo = webhookProcessOptions(
    'demo',
    {
      region: { flag: 'region', env: 'REGION', help: 'where', parse: p.string },
    },
    {
      maxConcurrentReconciles: '4',
      finish: o =>
        o.region === 'nowhere'
          ? { ok: false, errors: ['--region (REGION) must be somewhere'] }
          : { ok: true, options: { ...o, region: o.region ?? 'home' } },
    },
  );

  it('lists the shared flags first, then its own', () => {
    const flags = Object.values(demo.specs).map(s => s.flag);
    expect(flags.slice(0, 4)).toEqual([
      'kubeconfig',
      'metrics-port',
      'health-port',
      'log-level',
    ]);
    expect(flags.slice(-2)).toEqual(['max-concurrent-reconciles', 'region']);
    expect(demo.program).toBe('demo');
  });

  it('parses with the shared checks, then its own finish', () => {
    expect(demo.parse([], {})).toEqual({
      ok: true,
      options: expect.objectContaining({
        region: 'home',
        maxConcurrentReconciles: 4,
        webhookHost: 'demo-webhook.airunway-system.svc',
      }),
    });
    expect(demo.parse(['--region=nowhere', '--webhook-mode=url'], {})).toEqual({
      ok: false,
      errors: ['--region (REGION) must be somewhere'],
    });
  });
});

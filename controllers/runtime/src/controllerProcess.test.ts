import { KubeConfig } from '@kubernetes/client-node';
import {
  controllerMain,
  type ControllerProcess,
  runControllerProcess,
  startWebhookManager,
  webhookBaseUrl,
  webhookManager,
  whileUnreachable,
} from './controllerProcess';
import { KubeClient } from './kube/client';
import { KubeApiError, KubeConnectionError } from './kube/errors';
import type { Manager } from './manager/manager';
import { silentLogger } from './observability/logger';
import {
  parseWebhookManagerOptions,
  type WebhookManagerOptions,
  webhookManagerOptions,
} from './options';

const SPECS = webhookManagerOptions('demo');

function demoProcess(
  run: ControllerProcess<WebhookManagerOptions>['run'],
): ControllerProcess<WebhookManagerOptions> {
  return {
    program: 'demo',
    specs: SPECS,
    parse: (argv, env) => parseWebhookManagerOptions('demo', SPECS, argv, env),
    run,
  };
}

function options(
  changes: Partial<WebhookManagerOptions> = {},
): WebhookManagerOptions {
  const parsed = parseWebhookManagerOptions('demo', SPECS, [], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return { ...parsed.options, ...changes };
}

const apiError = (code: number, reason: string) =>
  new KubeApiError('POST', '/api/v1/namespaces', code, { reason });

/** What the code under test writes to `stream`, from the first call on. */
function captured(stream: NodeJS.WriteStream): () => string {
  const write = jest.spyOn(stream, 'write').mockImplementation(() => true);
  return () => write.mock.calls.map(call => String(call[0])).join('');
}

describe('runControllerProcess', () => {
  let out: () => string;
  let err: () => string;
  beforeEach(() => {
    out = captured(process.stdout);
    err = captured(process.stderr);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('prints the usage for --help and runs nothing', async () => {
    const run = jest.fn();
    expect(await runControllerProcess(demoProcess(run), ['-h'], {})).toBe(0);
    expect(out()).toContain('usage: demo [flags]\n');
    expect(out()).toContain('--webhook-mode <value>  (env WEBHOOK_MODE)');
    expect(run).not.toHaveBeenCalled();
  });

  it('exits 2 naming every bad setting, then the usage', async () => {
    const run = jest.fn();
    expect(
      await runControllerProcess(
        demoProcess(run),
        ['--webhook-mode=url', '--webhook-port=0'],
        { LEADER_ELECT: 'yes' },
      ),
    ).toBe(2);
    expect(err()).toContain(
      'demo: --leader-elect (LEADER_ELECT) "yes" is not valid: use true or false\n',
    );
    expect(err()).toContain('usage: demo [flags]');
    expect(run).not.toHaveBeenCalled();
  });

  it('runs with the parsed settings; its exit code, or 0', async () => {
    const seen: WebhookManagerOptions[] = [];
    const run = async (o: WebhookManagerOptions) => {
      seen.push(o);
    };
    expect(
      await runControllerProcess(demoProcess(run), ['--namespace=ops'], {}),
    ).toBe(0);
    expect(seen[0]).toMatchObject({
      namespace: 'ops',
      webhookHost: 'demo-webhook.ops.svc',
    });
    expect(
      await runControllerProcess(
        demoProcess(async () => 3),
        [],
        {},
      ),
    ).toBe(3);
  });

  it('exits 1 with "<program>: <why>" when the run fails, even at once', async () => {
    const failing = demoProcess(() => {
      throw new Error('cannot read /nonexistent/kubeconfig');
    });
    expect(await runControllerProcess(failing, [], {})).toBe(1);
    expect(err()).toBe('demo: cannot read /nonexistent/kubeconfig\n');
  });

  it('as an entry point leaves only a non-zero code in process.exitCode', async () => {
    await controllerMain(demoProcess(async () => undefined))([], {});
    expect(process.exitCode).toBeUndefined();
    await controllerMain(demoProcess(async () => 1))([], {});
    expect(process.exitCode).toBe(1);
  });
});

describe('webhookManager', () => {
  const client = () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return new KubeClient(kc);
  };
  const deps = () => ({
    client: client(),
    logger: silentLogger,
    handleSignals: false,
  });

  it('serves webhooks unless they are off', () => {
    const targets = { secretName: 'demo-cert' };
    const on = webhookManager('demo', options(), targets, deps());
    expect(on.webhookServer).toBeDefined();
    expect(on.certManager).toBeDefined();
    const off = webhookManager(
      'demo',
      options({ webhookMode: 'off' }),
      targets,
      deps(),
    );
    expect(off.webhookServer).toBeUndefined();
    expect(off.certManager).toBeUndefined();
  });
});

describe('webhookBaseUrl', () => {
  it('puts an IPv6 host in brackets', () => {
    expect(
      webhookBaseUrl({ webhookHost: '127.0.0.1', webhookPort: 9443 }),
    ).toBe('https://127.0.0.1:9443');
    expect(webhookBaseUrl({ webhookHost: '::1', webhookPort: 19443 })).toBe(
      'https://[::1]:19443',
    );
    expect(
      webhookBaseUrl({ webhookHost: 'svc.ns.svc', webhookPort: 443 }),
    ).toBe('https://svc.ns.svc:443');
  });
});

describe('startWebhookManager', () => {
  function fakeManager(create: () => Promise<unknown>) {
    const calls: string[] = [];
    const manager = {
      logger: silentLogger,
      client: {
        create: async () => {
          calls.push('create namespace');
          return create();
        },
      },
      start: async () => {
        calls.push('start');
      },
    } as unknown as Manager;
    return { manager, calls };
  }

  it('in url mode makes the namespace, registers the webhooks at its URL, then starts', async () => {
    const { manager, calls } = fakeManager(() =>
      Promise.reject(apiError(409, 'AlreadyExists')),
    );
    await startWebhookManager(
      manager,
      options({ webhookMode: 'url', webhookHost: '127.0.0.1' }),
      async url => {
        calls.push(`register ${url}`);
      },
    );
    expect(calls).toEqual([
      'create namespace',
      'register https://127.0.0.1:9443',
      'start',
    ]);
  });

  it('in service mode only starts (the install ships the configurations)', async () => {
    const { manager, calls } = fakeManager(async () => ({}));
    const register = jest.fn();
    await startWebhookManager(manager, options(), register);
    expect(calls).toEqual(['start']);
    expect(register).not.toHaveBeenCalled();
  });

  it('fails on an answer it cannot go on from', async () => {
    const { manager, calls } = fakeManager(() =>
      Promise.reject(apiError(422, 'Invalid')),
    );
    await expect(
      startWebhookManager(
        manager,
        options({ webhookMode: 'url', webhookHost: '127.0.0.1' }),
        jest.fn(),
      ),
    ).rejects.toThrow('422');
    expect(calls).toEqual(['create namespace']);
  });
});

describe('whileUnreachable', () => {
  it('retries while the API server does not answer', async () => {
    let attempts = 0;
    await whileUnreachable(
      silentLogger,
      'testing',
      async () => {
        attempts++;
        if (attempts < 3)
          throw new KubeConnectionError('GET', '/x', new Error('ECONNREFUSED'));
      },
      1,
    );
    expect(attempts).toBe(3);
  });

  it('retries a 403 a few times (a fresh server), then fails with it', async () => {
    let attempts = 0;
    await expect(
      whileUnreachable(
        silentLogger,
        'testing',
        async () => {
          attempts++;
          throw apiError(403, 'Forbidden');
        },
        1,
      ),
    ).rejects.toThrow('403');
    expect(attempts).toBe(10);
  });
});

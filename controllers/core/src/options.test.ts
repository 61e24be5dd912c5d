import { usage } from '@runway-portal/controller-runtime';
import { CORE_OPTIONS, CORE_PROGRAM, parseOptions } from './options';

describe('parseOptions', () => {
  it('uses defaults for a service-mode process in a cluster', () => {
    const r = parseOptions([], {});
    expect(r).toEqual({
      ok: true,
      options: expect.objectContaining({
        namespace: 'airunway-system',
        webhookMode: 'service',
        webhookHost: 'airunway-core-webhook.airunway-system.svc',
        webhookPort: 9443,
        metricsPort: 8080,
        healthPort: 8081,
        leaderElect: false,
      }),
    });
  });

  it('checks token Secrets unless --check-secrets=false', () => {
    expect(parseOptions([], {})).toEqual({
      ok: true,
      options: expect.objectContaining({ checkSecrets: true }),
    });
    expect(parseOptions(['--check-secrets=false'], {})).toEqual({
      ok: true,
      options: expect.objectContaining({ checkSecrets: false }),
    });
    expect(parseOptions([], { CHECK_SECRETS: 'no' })).toEqual({
      ok: false,
      errors: [
        '--check-secrets (CHECK_SECRETS) "no" is not valid: use true or false',
      ],
    });
  });

  it('takes flags over environment variables, in both flag forms', () => {
    const r = parseOptions(
      ['--webhook-mode=url', '--webhook-port', '19443', '--metrics-port=0'],
      { WEBHOOK_MODE: 'off', KUBECONFIG: '/tmp/kc', HEALTH_PORT: '0' },
    );
    expect(r).toEqual({
      ok: true,
      options: expect.objectContaining({
        webhookMode: 'url',
        webhookHost: '127.0.0.1',
        webhookPort: 19443,
        metricsPort: 0,
        healthPort: 0,
        kubeconfig: '/tmp/kc',
      }),
    });
  });

  it('names every bad setting and how to fix it', () => {
    const r = parseOptions(
      ['--metrics-port=http', '--bogus', '--webhook-mode=sometimes'],
      {
        LEADER_ELECT: 'yes',
        POD_NAMESPACE: 'Bad_NS',
        MAX_CONCURRENT_RECONCILES: '0',
      },
    );
    expect(r.ok).toBe(false);
    expect((r as { errors: string[] }).errors).toEqual([
      'unknown flag "--bogus": run with --help to list the flags',
      '--metrics-port (METRICS_PORT) "http" is not valid: use a whole number from 0 to 65535',
      expect.stringContaining(
        '--namespace (POD_NAMESPACE) "Bad_NS" is not valid: use a namespace name',
      ),
      '--webhook-mode (WEBHOOK_MODE) "sometimes" is not valid: use service, url or off',
      '--leader-elect (LEADER_ELECT) "yes" is not valid: use true or false',
      '--max-concurrent-reconciles (MAX_CONCURRENT_RECONCILES) "0" is not valid: use a whole number of at least 1',
    ]);
  });

  it('needs a fixed webhook port in url mode', () => {
    const r = parseOptions(['--webhook-mode=url', '--webhook-port=0'], {});
    expect((r as { errors: string[] }).errors).toEqual([
      '--webhook-port (WEBHOOK_PORT) must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0',
    ]);
  });

  it('lists every flag with its variable and default', () => {
    const text = usage(CORE_PROGRAM, CORE_OPTIONS);
    for (const flag of [
      'kubeconfig',
      'namespace',
      'metrics-port',
      'health-port',
      'webhook-mode',
      'webhook-port',
      'webhook-host',
      'leader-elect',
      'max-concurrent-reconciles',
      'log-level',
      'gateway-name',
      'gateway-namespace',
    ]) {
      expect(text).toContain(`--${flag} <value>`);
    }
    expect(text).toContain(
      '--namespace <value>  (env POD_NAMESPACE)  namespace of the certificate Secret and leader Lease, default airunway-system',
    );
  });

  it('takes the Gateway flags as a pair', () => {
    expect(
      parseOptions(['--gateway-name=gw', '--gateway-namespace=infra'], {}),
    ).toEqual({
      ok: true,
      options: expect.objectContaining({
        gatewayName: 'gw',
        gatewayNamespace: 'infra',
      }),
    });
    const r = parseOptions(['--gateway-name=gw'], { GATEWAY_NAMESPACE: '' });
    expect((r as { errors: string[] }).errors.join('\n')).toContain(
      '--gateway-name (GATEWAY_NAME) and --gateway-namespace (GATEWAY_NAMESPACE) go together',
    );
    const bad = parseOptions(
      ['--gateway-name=Bad_Name', '--gateway-namespace=infra'],
      {},
    );
    expect((bad as { errors: string[] }).errors.join('\n')).toContain(
      '--gateway-name (GATEWAY_NAME) "Bad_Name" is not valid: use a Kubernetes name',
    );
  });
});

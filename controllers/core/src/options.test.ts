import { parseOptions } from './options';

describe('parseOptions', () => {
  it('uses defaults for a service-mode process in a cluster', () => {
    const r = parseOptions([], {});
    expect(r).toEqual({
      ok: true,
      options: expect.objectContaining({ namespace: 'airunway-system', webhookMode: 'service', webhookHost: 'airunway-core-webhook.airunway-system.svc', webhookPort: 9443, metricsPort: 8080, healthPort: 8081, leaderElect: false }),
    });
  });

  it('takes flags over environment variables, in both flag forms', () => {
    const r = parseOptions(['--webhook-mode=url', '--webhook-port', '19443', '--metrics-port=0'], { WEBHOOK_MODE: 'off', KUBECONFIG: '/tmp/kc', HEALTH_PORT: '0' });
    expect(r).toEqual({ ok: true, options: expect.objectContaining({ webhookMode: 'url', webhookHost: '127.0.0.1', webhookPort: 19443, metricsPort: 0, healthPort: 0, kubeconfig: '/tmp/kc' }) });
  });

  it('names every bad setting and how to fix it', () => {
    const r = parseOptions(['--metrics-port=http', '--bogus', '--webhook-mode=url', '--webhook-port=0'], { LEADER_ELECT: 'yes', POD_NAMESPACE: 'Bad_NS' });
    expect(r.ok).toBe(false);
    const errors = (r as { errors: string[] }).errors.join('\n');
    expect(errors).toContain('--metrics-port (env METRICS_PORT) must be a port number 0-65535, got "http"');
    expect(errors).toContain('unknown argument "--bogus"');
    expect(errors).toContain('--leader-elect (env LEADER_ELECT) must be true or false, got "yes"');
    expect(errors).toContain('--namespace (env POD_NAMESPACE) must be a namespace name');
    expect(errors).toContain('--webhook-port must be a fixed port in url mode');
  });

  it('takes the Gateway flags as a pair', () => {
    expect(parseOptions(['--gateway-name=gw', '--gateway-namespace=infra'], {})).toEqual({
      ok: true,
      options: expect.objectContaining({ gatewayName: 'gw', gatewayNamespace: 'infra' }),
    });
    const r = parseOptions(['--gateway-name=gw'], { GATEWAY_NAMESPACE: '' });
    expect((r as { errors: string[] }).errors.join('\n')).toContain('--gateway-name and --gateway-namespace (env GATEWAY_NAME, GATEWAY_NAMESPACE) go together');
    const bad = parseOptions(['--gateway-name=Bad_Name', '--gateway-namespace=infra'], {});
    expect((bad as { errors: string[] }).errors.join('\n')).toContain('--gateway-name (env GATEWAY_NAME) must be a Kubernetes object name, got "Bad_Name"');
  });
});

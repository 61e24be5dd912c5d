import { parseOptions } from './options';

describe('parseOptions', () => {
  it('defaults for a cluster: service-mode webhooks on the Service the install deploys', () => {
    const result = parseOptions([], {});
    expect(result).toEqual({
      ok: true,
      options: expect.objectContaining({
        namespace: 'airunway-system',
        webhookMode: 'service',
        webhookHost: 'airunway-stacks-webhook.airunway-system.svc',
        webhookPort: 9443,
        recheckInterval: 60_000,
        imageOverrides: {},
      }),
    });
  });

  it('reads image-overrides from the operator ConfigMap value (env), lines or commas', () => {
    const result = parseOptions([], {
      IMAGE_OVERRIDES: 'starter: mirror/starter:1\npostgres-demo: mirror/pg:1',
    });
    expect(result.ok && result.options.imageOverrides).toEqual({
      starter: 'mirror/starter:1',
      'postgres-demo': 'mirror/pg:1',
    });
    expect(
      parseOptions(['--image-overrides=starter: a:1, starter-gpu: b:2'], {}).ok,
    ).toBe(true);
  });

  it('names the flag and the fix', () => {
    expect(parseOptions(['--image-overrides=starter'], {})).toEqual({
      ok: false,
      errors: [
        '--image-overrides (IMAGE_OVERRIDES): image-overrides line 1 ("starter") is not "<distribution name>: <image>": fix or remove it',
      ],
    });
    expect(
      parseOptions(['--webhook-mode=url', '--webhook-port=0'], {}),
    ).toEqual({
      ok: false,
      errors: [
        '--webhook-port (WEBHOOK_PORT) must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0',
      ],
    });
  });
});

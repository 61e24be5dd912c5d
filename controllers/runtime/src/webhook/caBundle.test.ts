import { applyPatch } from 'fast-json-patch';
import { crdConversionCaPatch, webhookConfigurationCaPatch } from './caBundle';

describe('webhookConfigurationCaPatch', () => {
  const config = {
    metadata: { name: 'hooks' },
    webhooks: [
      { name: 'a.example.com', clientConfig: { url: 'https://127.0.0.1:1/a' } },
      {
        name: 'b.example.com',
        clientConfig: { url: 'https://127.0.0.1:1/b', caBundle: 'NEW' },
      },
      {
        name: 'c.example.com',
        clientConfig: { url: 'https://127.0.0.1:1/c', caBundle: 'OLD' },
      },
    ],
  };

  it('sets the bundle where it differs, guarded by the webhook name', () => {
    const ops = webhookConfigurationCaPatch(config, 'NEW');
    expect(ops).toEqual([
      { op: 'test', path: '/webhooks/0/name', value: 'a.example.com' },
      { op: 'add', path: '/webhooks/0/clientConfig/caBundle', value: 'NEW' },
      { op: 'test', path: '/webhooks/2/name', value: 'c.example.com' },
      { op: 'add', path: '/webhooks/2/clientConfig/caBundle', value: 'NEW' },
    ]);
    const patched = applyPatch(structuredClone(config), ops).newDocument;
    expect(patched.webhooks.map(w => w.clientConfig.caBundle)).toEqual([
      'NEW',
      'NEW',
      'NEW',
    ]);
    expect(webhookConfigurationCaPatch(patched, 'NEW')).toEqual([]);
  });

  it('makes a patch that fails when the list was reordered', () => {
    const ops = webhookConfigurationCaPatch(config, 'NEW');
    const reordered = {
      ...config,
      webhooks: [config.webhooks[1], config.webhooks[0], config.webhooks[2]],
    };
    expect(() => applyPatch(structuredClone(reordered), ops)).toThrow();
  });
});

describe('crdConversionCaPatch', () => {
  const crd = {
    metadata: { name: 'widgets.example.com' },
    spec: {
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' } },
      },
    },
  };

  it('sets the conversion caBundle', () => {
    const { ops } = crdConversionCaPatch(crd, 'CA');
    expect(
      applyPatch(structuredClone(crd), ops).newDocument.spec.conversion.webhook
        .clientConfig,
    ).toEqual({
      url: 'https://127.0.0.1:1/convert',
      caBundle: 'CA',
    });
  });

  it('explains why a CRD without webhook conversion is left alone', () => {
    const result = crdConversionCaPatch(
      {
        metadata: { name: 'x.example.com' },
        spec: { conversion: { strategy: 'None' } },
      },
      'CA',
    );
    expect(result.ops).toEqual([]);
    expect(result.reason).toMatch(
      /x.example.com does not use webhook conversion/,
    );
  });
});

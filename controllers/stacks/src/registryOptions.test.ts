import { parseOptions } from './options';
import { imageConfigsOptions } from './registryOptions';

describe('registry options', () => {
  it('reads labels by default, over HTTPS, with a 10 s deadline', () => {
    const result = parseOptions([], {});
    expect(result.ok && imageConfigsOptions(result.options)).toEqual({
      registry: { insecureRegistries: [], timeoutMs: 10_000 },
    });
  });

  it('--insecure-registries lists host:port read over HTTP; --image-config-labels=false turns reading off', () => {
    const result = parseOptions(
      ['--insecure-registries=127.0.0.1:5000, registry.local:5000,[::1]:5000'],
      { REGISTRY_TIMEOUT: '3s' },
    );
    expect(result.ok && imageConfigsOptions(result.options)).toEqual({
      registry: {
        insecureRegistries: [
          '127.0.0.1:5000',
          'registry.local:5000',
          '[::1]:5000',
        ],
        timeoutMs: 3000,
      },
    });
    const off = parseOptions(['--image-config-labels=false'], {});
    expect(off.ok && imageConfigsOptions(off.options)).toBeUndefined();
  });

  it('names the flag and the fix', () => {
    expect(
      parseOptions(['--insecure-registries=http://reg:5000'], {}),
    ).toMatchObject({
      ok: false,
      errors: [
        expect.stringContaining(
          '"http://reg:5000" is not host[:port]: write e.g. 127.0.0.1:5000,registry.local:5000',
        ),
      ],
    });
  });
});

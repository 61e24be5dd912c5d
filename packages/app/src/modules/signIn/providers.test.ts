import { ConfigReader } from '@backstage/config';
import { signInProviders } from './providers';

/** The config as the frontend sees it: auth.providers' entries present, their contents filtered out. */
const frontendConfig = (providers: Record<string, object>) =>
  new ConfigReader({ auth: { providers } });

describe('signInProviders', () => {
  it('offers the guest only where the config enables it (the local system)', () => {
    expect(signInProviders(frontendConfig({ guest: {} }))).toEqual(['guest']);
    expect(signInProviders(frontendConfig({ github: {}, guest: {} }))).toEqual([
      'github',
      'guest',
    ]);
  });

  it('offers GitHub in production, and never the guest there', () => {
    expect(signInProviders(frontendConfig({ github: {} }))).toEqual(['github']);
    // Nothing configured: GitHub, whose backend provider the example backend installs.
    expect(signInProviders(new ConfigReader({}))).toEqual(['github']);
  });
});

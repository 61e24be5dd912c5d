import { CHROMIUM_FLAGS } from './browser';

describe('Chromium flags', () => {
  it('keep Chromium off the closed network and out of the sandbox it cannot have here', () => {
    expect(CHROMIUM_FLAGS).toEqual(
      expect.arrayContaining([
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ]),
    );
  });
});

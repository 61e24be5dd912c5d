import { CHROMIUM_FLAGS, signalSubscription } from './browser';

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

describe('signalSubscription', () => {
  it("reads the signals client's subscribe and unsubscribe frames", () => {
    expect(
      signalSubscription(
        '{"action":"subscribe","channel":"runway:deployments"}',
      ),
    ).toEqual({ channel: 'runway:deployments', subscribed: true });
    expect(
      signalSubscription(
        Buffer.from('{"action":"unsubscribe","channel":"runway:models"}'),
      ),
    ).toEqual({ channel: 'runway:models', subscribed: false });
  });

  it('ignores any other frame', () => {
    expect(signalSubscription('not json')).toBeUndefined();
    expect(signalSubscription('{"action":"subscribe"}')).toBeUndefined();
    expect(
      signalSubscription('{"action":"ping","channel":"runway:deployments"}'),
    ).toBeUndefined();
  });
});

import { proxyableHostAddress, simulatedAnswer } from './openAiSimulator';

describe('OpenAI API simulator', () => {
  it('answers with words that say it is simulated and echo the last user message', () => {
    const words = simulatedAnswer('m', [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'Hello\n  there' },
    ]);
    expect(words.join('')).toBe(
      'This is a simulated answer from m (e2e/simulators, an OpenAI API simulator, not a model). You said: "Hello there".',
    );
    expect(words[0]).toBe('This ');
  });

  it('listens on an address the API server proxies to: not loopback, not link-local', () => {
    const nic = (address: string, internal = false) => ({
      address,
      family: 'IPv4' as const,
      internal,
      netmask: '255.255.255.0',
      mac: '00:00:00:00:00:00',
      cidr: `${address}/24`,
    });
    expect(
      proxyableHostAddress({
        lo: [nic('127.0.0.1', true)],
        eth0: [nic('169.254.1.2'), nic('10.1.2.3')],
      }),
    ).toBe('10.1.2.3');
    expect(proxyableHostAddress({ lo: [nic('127.0.0.1', true)] })).toBe(
      undefined,
    );
  });
});

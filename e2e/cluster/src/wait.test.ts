import { apiErrorMessage, StopWaiting, waitFor } from './wait';

describe('waitFor', () => {
  it('retries until the check passes', async () => {
    let calls = 0;
    await waitFor('three calls', async () => ++calls === 3, { intervalMs: 1 });
    expect(calls).toBe(3);
  });

  it('reports the last error and the explanation on timeout', async () => {
    await expect(
      waitFor(
        'never',
        async () => {
          throw new Error('connection refused');
        },
        { timeoutMs: 20, intervalMs: 5, explain: async () => 'log tail' },
      ),
    ).rejects.toThrow(
      /Timed out after 0.02 s waiting for never \(last error: connection refused\)\nlog tail/,
    );
  });

  it('stops at once on StopWaiting', async () => {
    await expect(
      waitFor(
        'x',
        async () => {
          throw new StopWaiting('exited');
        },
        { timeoutMs: 60_000 },
      ),
    ).rejects.toThrow('exited');
  });
});

describe('apiErrorMessage', () => {
  it('extracts the Status message of an API error', () => {
    const error = {
      code: 422,
      body: JSON.stringify({
        kind: 'Status',
        reason: 'Invalid',
        message: 'spec.x: Invalid value',
      }),
    };
    expect(apiErrorMessage(error)).toBe(
      'HTTP 422 Invalid: spec.x: Invalid value',
    );
    expect(apiErrorMessage(new Error('plain'))).toBe('plain');
  });
});

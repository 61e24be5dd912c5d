import { KubeApiError } from '@runway-portal/controller-runtime';
import { retryTooManyRequests } from './kube';

const tooMany = () =>
  new KubeApiError('GET', '/apis/x', 429, {
    message: 'storage is (re)initializing',
    reason: 'TooManyRequests',
    code: 429,
    details: { retryAfterSeconds: 0 },
  });

describe('retryTooManyRequests', () => {
  it('asks again while the API server answers 429, then returns the answer', async () => {
    let calls = 0;
    const result = await retryTooManyRequests(async () => {
      calls++;
      if (calls < 3) throw tooMany();
      return 'listed';
    });
    expect(result).toBe('listed');
    expect(calls).toBe(3);
  });

  it('gives up after the attempts, and never retries other errors', async () => {
    let calls = 0;
    await expect(
      retryTooManyRequests(async () => {
        calls++;
        throw tooMany();
      }, 2),
    ).rejects.toThrow(/storage is \(re\)initializing/);
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      retryTooManyRequests(async () => {
        calls++;
        throw new Error('forbidden');
      }),
    ).rejects.toThrow('forbidden');
    expect(calls).toBe(1);
  });
});

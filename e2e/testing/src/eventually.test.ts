import { eventually } from './eventually';

describe('eventually', () => {
  it('returns the first truthy value, counting errors as not yet', async () => {
    let calls = 0;
    const value = await eventually(
      'the third call',
      () => {
        calls++;
        if (calls === 1) throw new Error('not ready');
        return calls === 3 && 'done';
      },
      1000,
      1,
    );
    expect(value).toBe('done');
    expect(calls).toBe(3);
  });

  it('names what it waited for and the last error when it times out', async () => {
    await expect(
      eventually(
        'the widget',
        () => {
          throw new Error('widget missing');
        },
        20,
        1,
      ),
    ).rejects.toThrow(
      'timed out after 20 ms waiting for the widget (last error: widget missing)',
    );
  });
});

import { loadWithoutStarting } from './testing';

describe('loadWithoutStarting', () => {
  it('returns what an inert load returns', async () => {
    await expect(loadWithoutStarting(() => ({ name: 'lib' }))).resolves.toEqual(
      { name: 'lib' },
    );
  });

  it('fails when the load exits the process from a promise callback, and restores process.exit', async () => {
    const exit = process.exit;
    await expect(
      loadWithoutStarting(() =>
        Promise.resolve(2).then(code => process.exit(code)),
      ),
    ).rejects.toThrow('loading the library called process.exit(2)');
    expect(process.exit).toBe(exit);
  });

  it('fails when the load installs a SIGTERM handler', async () => {
    const handler = () => undefined;
    try {
      await expect(
        loadWithoutStarting(() => process.once('SIGTERM', handler)),
      ).rejects.toThrow('installed a SIGTERM handler');
    } finally {
      process.off('SIGTERM', handler);
    }
  });
});

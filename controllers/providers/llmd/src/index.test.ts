describe('the package entry point', () => {
  it('exports the provider definition without starting a process', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(code => {
      throw new Error(`importing the library called process.exit(${code})`);
    });
    const signalHandlers = process.listenerCount('SIGTERM');
    try {
      const lib: typeof import('./index') = jest.requireActual('./index');
      expect(lib.llmdProvider).toMatchObject({ name: 'llmd', version: lib.LLMD_PROVIDER_VERSION });
      expect(typeof lib.llmdProvider.transform).toBe('function');
      expect(typeof lib.llmdProvider.mapStatus).toBe('function');
      // A started provider (runProvider) would have installed its shutdown handler.
      expect(process.listenerCount('SIGTERM')).toBe(signalHandlers);
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
    }
  });
});

import { fingerprint } from './fingerprint';

describe('fingerprint', () => {
  it('is the same for the same value and differs when anything in it changes', () => {
    const objects = { httpRoute: [{ metadata: { name: 'llama' } }] };
    expect(fingerprint(objects)).toBe(
      fingerprint({ httpRoute: [{ metadata: { name: 'llama' } }] }),
    );
    expect(fingerprint(objects)).not.toBe(
      fingerprint({ httpRoute: [{ metadata: { name: 'llama2' } }] }),
    );
    // A short digest, whatever the size of the value.
    expect(fingerprint({ big: 'x'.repeat(100_000) })).toHaveLength(44);
  });
});

import { newestFirst } from './informer';

describe('newestFirst', () => {
  it('replays the newest objects first, keeping the order of equal ones', () => {
    const at = (name: string, creationTimestamp?: string) => ({
      metadata: { name, creationTimestamp },
    });
    const ordered = newestFirst([
      at('old', '2026-11-26T05:00:00Z'),
      at('new', '2026-11-26T05:10:00Z'),
      at('also-old', '2026-11-26T05:00:00Z'),
      at('unknown'),
    ]).map(o => o.metadata.name);
    expect(ordered).toEqual(['new', 'old', 'also-old', 'unknown']);
  });
});

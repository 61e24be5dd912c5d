import { existsSync } from 'node:fs';
import { nodeOptionsWithWatch, PARENT_WATCH } from './processes';

describe('nodeOptionsWithWatch', () => {
  it('adds the parent watch to NODE_OPTIONS, keeping what is there', () => {
    expect(existsSync(PARENT_WATCH)).toBe(true);
    expect(nodeOptionsWithWatch(undefined)).toBe(
      `--require ${JSON.stringify(PARENT_WATCH)}`,
    );
    expect(nodeOptionsWithWatch('--max-old-space-size=512')).toBe(
      `--max-old-space-size=512 --require ${JSON.stringify(PARENT_WATCH)}`,
    );
  });
});

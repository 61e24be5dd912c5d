import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  asciiOnly,
  bundleController,
  bundleStaleness,
  CONTROLLER_BUNDLE,
  CONTROLLER_NODE_FLAGS,
} from './bundle';

describe('asciiOnly', () => {
  it('escapes every non-ASCII character so that code means the same', () => {
    const code = 'module.exports = [/(µs|ms)/.test("5µs"), "😀".length, `é`];';
    const escaped = asciiOnly(code);
    expect(escaped).toMatch(/^[\x20-\x7e]*$/);
    const run = (src: string) => {
      const module = { exports: undefined as unknown };
      // eslint-disable-next-line no-new-func
      new Function('module', src)(module);
      return module.exports;
    };
    expect(run(escaped)).toEqual(run(code));
    expect(run(escaped)).toEqual([true, 2, 'é']);
  });
});

describe('bundleController', () => {
  jest.setTimeout(60_000);

  it('writes one runnable file, current until one of its sources changes or is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
    await mkdir(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src', 'main.ts'),
      "import { greeting } from './greeting';\nprocess.stdout.write(greeting);\n",
    );
    writeFileSync(
      join(dir, 'src', 'greeting.ts'),
      // esbuild escapes strings but not regular expressions: asciiOnly does.
      "export const greeting: string = /é/.test('é') ? 'héllo' : 'wrong';\n",
    );
    expect(bundleStaleness(dir, 'src/main.ts')).toBe(
      `${CONTROLLER_BUNDLE} is not built`,
    );
    await bundleController(dir, 'src/main.ts');
    const code = readFileSync(join(dir, CONTROLLER_BUNDLE), 'utf8');
    expect(code).toMatch(/^[\n\x20-\x7e]*$/);
    expect(
      execFileSync(process.execPath, [join(dir, CONTROLLER_BUNDLE)], {
        encoding: 'utf8',
      }),
    ).toBe('héllo');
    expect(bundleStaleness(dir, 'src/main.ts')).toBeUndefined();
    expect(bundleStaleness(dir, 'src/other.ts')).toBe(
      'it was built from src/main.ts, the entry is src/other.ts',
    );

    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'src', 'greeting.ts'), later, later);
    expect(bundleStaleness(dir, 'src/main.ts')).toBe(
      `${join(dir, 'src', 'greeting.ts')} changed`,
    );
  });

  it('names the missing entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
    await expect(bundleController(dir, 'src/main.ts')).rejects.toThrow(
      `cannot bundle ${dir}: its entry src/main.ts does not exist (the last word of the package's "start" script)`,
    );
  });
});

describe('the image', () => {
  it('runs the bundle with the same Node flags as the local system', () => {
    const dockerfile = readFileSync(
      join(__dirname, '..', '..', '..', 'Dockerfile'),
      'utf8',
    );
    const entrypoint = /^ENTRYPOINT (.*)$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(entrypoint ?? '[]')).toEqual([
      'node',
      ...CONTROLLER_NODE_FLAGS,
      '/app/controller.cjs',
    ]);
    expect(dockerfile).toContain(`ARG ENTRY=${CONTROLLER_BUNDLE}`);
  });
});

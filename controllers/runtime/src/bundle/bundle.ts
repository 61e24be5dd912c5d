/**
 * The production entry of a controller: its `start` script's source entry
 * bundled by esbuild into one CommonJS file (`dist/controller.cjs`), which
 * the image, the local system and the footprint bench all run with the same
 * Node flags. One file loads in a fraction of the time and memory of the
 * module graph through the test transform, and only what the entry uses
 * is in it (see README, "Footprint").
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/** Where a controller package's bundle goes, relative to the package. @public */
export const CONTROLLER_BUNDLE = 'dist/controller.cjs';
/** Beside a bundle (`x.cjs`): the files it was made from (`x.inputs.json`), to tell when it is stale. @public */
export function bundleInputsFile(bundle: string): string {
  return bundle.replace(/\.cjs$/, '.inputs.json');
}
/** @public */
export const CONTROLLER_BUNDLE_INPUTS = bundleInputsFile(CONTROLLER_BUNDLE);

/**
 * Node flags the image's ENTRYPOINT and the local system pass before the
 * bundle (controllers/Dockerfile must list the same: a test checks).
 * A 1 MiB young generation instead of 16 MiB: a controller allocates in
 * small bursts, and larger semi-spaces only keep garbage resident (about
 * 6 MiB idle). The old generation collected when it has grown by half
 * since the last collection, not up to 4x as V8 chooses for a fast
 * allocator: a core reconciling 1,000 deployments had 95 MiB of heap in
 * use of which 35 MiB were live.
 *
 * @public
 */
export const CONTROLLER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--heap-growing-percent=50',
];

const CLIENT_NODE_DIST = '/node_modules/@kubernetes/client-node/dist/';

/**
 * esbuild keeps every module a reachable one imports unless its package says
 * it has no side effects; `@kubernetes/client-node` does not say so, and its
 * `KubeConfig` imports the generated API index, which imports all ~900
 * models (0.6 MB of code, 25 MiB of heap). Its modules only declare
 * classes and functions, so declaring them side-effect free lets esbuild
 * drop every model our client never names.
 */
const clientNodeWithoutSideEffects: Plugin = {
  name: 'client-node-without-side-effects',
  setup(build) {
    // Its own imports are relative with the file's extension: resolve them here, without a round trip.
    build.onResolve({ filter: /^\.\.?\// }, args =>
      args.importer.includes(CLIENT_NODE_DIST) && args.path.endsWith('.js')
        ? { path: resolve(args.resolveDir, args.path), sideEffects: false }
        : undefined,
    );
    build.onResolve({ filter: /^@kubernetes\/client-node$/ }, async args => {
      if (args.pluginData) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: true,
      });
      return found.errors.length
        ? undefined
        : { path: found.path, sideEffects: false };
    });
  },
};

/**
 * V8 keeps a source with any non-ASCII character as two bytes per
 * character (10 MiB instead of 5 for a bundle); esbuild leaves a few in
 * regular expressions. `\uXXXX` means the same in strings, templates and
 * regular expressions (a pair of surrogates, in both regex modes).
 *
 * @public
 */
export function asciiOnly(code: string): string {
  return code.replace(
    /[\u0080-\uffff]/g,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** @public */
export interface BundleResult {
  outfile: string;
  ms: number;
  bytes: number;
}

/**
 * Bundles `entry` (relative to `packageDir`) into the package's `bundle`
 * (default CONTROLLER_BUNDLE; the runway CLI's is dist/runway.cjs), and
 * records its inputs for `bundleStaleness`.
 *
 * @public
 */
export async function bundleController(
  packageDir: string,
  entry: string,
  bundle: string = CONTROLLER_BUNDLE,
): Promise<BundleResult> {
  const startedAt = Date.now();
  // Loaded here: only building needs esbuild (a devDependency); no controller imports this module.
  // eslint-disable-next-line @backstage/no-undeclared-imports
  const esbuild: typeof import('esbuild') = require('esbuild');
  const outfile = join(packageDir, bundle);
  const entryPath = join(packageDir, entry);
  if (!existsSync(entryPath)) {
    throw new Error(
      `cannot bundle ${packageDir}: its entry ${entry} does not exist (the last word of the package's "start" script)`,
    );
  }
  const result = await esbuild.build({
    entryPoints: [entryPath],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    write: false,
    metafile: true,
    // No comments or indentation (a smaller source string); names kept for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'error',
    // ws's optional native add-ons: absent, and ws works without them.
    external: ['bufferutil', 'utf-8-validate'],
    // Node's deprecated built-in punycode (old whatwg-url) warns on every start outside
    // node_modules, as a bundle is: the same code from the npm package instead.
    alias: { punycode: 'punycode/' },
    plugins: [clientNodeWithoutSideEffects],
  });
  const [output] = result.outputFiles;
  const code = asciiOnly(output.text);
  mkdirSync(dirname(outfile), { recursive: true });
  // Renamed into place: a process starting meanwhile runs the old file or the new one, never half of one.
  const partial = `${outfile}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, outfile);
  const inputs = Object.keys(result.metafile.inputs).map(p =>
    resolve(process.cwd(), p),
  );
  writeFileSync(
    join(packageDir, bundleInputsFile(bundle)),
    `${JSON.stringify({ entry, inputs: [...inputs, __filename] }, null, 1)}\n`,
  );
  return { outfile, ms: Date.now() - startedAt, bytes: code.length };
}

/**
 * Why the package's bundle must be built again (no bundle, another entry,
 * an input changed or gone since it was written), or undefined when it is
 * current. Only file times are read: about 1,500 stat calls.
 *
 * @public
 */
export function bundleStaleness(
  packageDir: string,
  entry: string,
  bundle: string = CONTROLLER_BUNDLE,
): string | undefined {
  const outfile = join(packageDir, bundle);
  const inputsFile = join(packageDir, bundleInputsFile(bundle));
  if (!existsSync(outfile) || !existsSync(inputsFile)) {
    return `${bundle} is not built`;
  }
  const builtAt = statSync(outfile).mtimeMs;
  let recorded: { entry?: unknown; inputs?: unknown };
  try {
    recorded = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return `${bundleInputsFile(bundle)} is not valid JSON`;
  }
  if (recorded.entry !== entry) {
    return `it was built from ${String(recorded.entry)}, the entry is ${entry}`;
  }
  if (!Array.isArray(recorded.inputs)) {
    return `${bundleInputsFile(bundle)} lists no inputs`;
  }
  for (const input of recorded.inputs as string[]) {
    let changedAt: number;
    try {
      changedAt = statSync(input).mtimeMs;
    } catch {
      return `${input} is gone`;
    }
    if (changedAt > builtAt) return `${input} changed`;
  }
  return undefined;
}

/** Builds the bundle when it is stale; says whether it did and how long it took. @public */
export async function ensureControllerBundle(
  packageDir: string,
  entry: string,
  bundle: string = CONTROLLER_BUNDLE,
): Promise<{ built: boolean; reason?: string; ms: number }> {
  const reason = bundleStaleness(packageDir, entry, bundle);
  if (!reason) return { built: false, ms: 0 };
  const { ms } = await bundleController(packageDir, entry, bundle);
  return { built: true, reason, ms };
}

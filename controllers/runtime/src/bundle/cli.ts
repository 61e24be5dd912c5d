/**
 * `node --require @backstage/cli/config/nodeTransform.cjs <this file> <entry> [<bundle>]`
 * in a controller package: bundles its entry (the `start` script's file)
 * into dist/controller.cjs, the file its image runs (or into `<bundle>`:
 * the runway CLI's dist/runway.cjs). Each controller's `build` script ends
 * with it (`yarn bundle`).
 */
import { bundleController, CONTROLLER_BUNDLE } from './bundle';

const [entry, bundle = CONTROLLER_BUNDLE] = process.argv.slice(2);
if (!entry) {
  process.stderr.write(
    `usage: bundle <entry> [<bundle>], run in the package folder: the file its "start" script runs (e.g. src/main.ts), and where the bundle goes (default ${CONTROLLER_BUNDLE})\n`,
  );
  process.exit(2);
}
bundleController(process.cwd(), entry, bundle).then(
  ({ ms, bytes }) => {
    process.stdout.write(
      `${bundle}: ${(bytes / 1048576).toFixed(1)} MB in ${ms} ms\n`,
    );
  },
  err => {
    process.stderr.write(
      `bundle: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);

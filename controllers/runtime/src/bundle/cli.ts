/**
 * `node --require @backstage/cli/config/nodeTransform.cjs <this file> <entry>`
 * in a controller package: bundles its entry (the `start` script's file)
 * into dist/controller.cjs, the file its image runs. Each controller's
 * `build` script ends with it (`yarn bundle`).
 */
import { bundleController, CONTROLLER_BUNDLE } from './bundle';

const [entry] = process.argv.slice(2);
if (!entry) {
  process.stderr.write(
    `usage: bundle <entry>, run in the controller's package folder: the file its "start" script runs, e.g. src/main.ts\n`,
  );
  process.exit(2);
}
bundleController(process.cwd(), entry).then(
  ({ ms, bytes }) => {
    process.stdout.write(
      `${CONTROLLER_BUNDLE}: ${(bytes / 1048576).toFixed(1)} MB in ${ms} ms\n`,
    );
  },
  err => {
    process.stderr.write(
      `bundle: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);

/**
 * `yarn workspace @runway-portal/cli build-helm`: builds the real helm into the
 * cache (see binary.ts), so that scripts/test builds it in its "cluster
 * binaries" step, next to the control plane, and not inside a test's timeout.
 */
import { ensureHelm } from './binary';

ensureHelm().then(
  file => console.log(`helm ready: ${file}`),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);

/** Helpers shared by this package's integration tests (not exported). */
import { join } from 'node:path';
import { PACKAGE_DIR } from './binary';
import { apiErrorMessage } from './wait';

export const FIXTURES_DIR = join(PACKAGE_DIR, 'src', 'fixtures');
export const WIDGETS_CRD = join(FIXTURES_DIR, 'widgets.crd.yaml');

/** Budget for starting a cluster in beforeAll (the binary may need a cold build first). */
export const START_TIMEOUT_MS = 30 * 60_000;

/** Awaits a client-node call expected to fail; returns HTTP code and the API server's message. */
export async function apiFailure(
  call: Promise<unknown>,
): Promise<{ code: number | undefined; message: string }> {
  try {
    await call;
  } catch (error) {
    return {
      code: (error as { code?: number }).code,
      message: apiErrorMessage(error),
    };
  }
  throw new Error(
    'expected the API server to reject the request, but it accepted it',
  );
}

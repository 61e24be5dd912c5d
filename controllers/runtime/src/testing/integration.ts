/** Helpers shared by this package's integration tests (not exported). */
import { KubeClient } from '../kube/client';
import { Namespaces } from '../kube/wellKnown';

/** Budget for starting a cluster in beforeAll (the binary may need a cold build first). */
export const START_TIMEOUT_MS = 30 * 60_000;

export const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, ms));

/** Polls `check` until it is true; errors count as "not yet". */
export async function eventually(
  description: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const detail =
        lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description}${detail}`,
      );
    }
    await sleep(intervalMs);
  }
}

/** Retries `write` until it succeeds: the API server may be down for a while. */
export async function persist<T>(
  write: () => Promise<T>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(200);
    }
  }
}

export async function createNamespace(
  client: KubeClient,
  name: string,
): Promise<void> {
  await client.create(Namespaces, { metadata: { name } });
}

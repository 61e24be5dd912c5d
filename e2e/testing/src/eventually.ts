/** Waiting in tests: a sleep and a poll that counts errors as "not yet". */

export const sleep = (ms: number) =>
  new Promise<void>(resolve => setTimeout(resolve, ms));

/**
 * Polls `check` every `intervalMs` until it returns something truthy, and
 * returns that; errors count as "not yet". Throws after `timeoutMs`, naming
 * `description` and the last error.
 */
export async function eventually<T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description}${
          last instanceof Error ? ` (last error: ${last.message})` : ''
        }`,
      );
    }
    await sleep(intervalMs);
  }
}

/** Thrown by a waitFor check to stop waiting at once (the condition can no longer hold). */
export class StopWaiting extends Error {}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Extra text for the timeout error, e.g. a component's log tail. */
  explain?: () => Promise<string>;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/**
 * Polls `check` until it returns true. Errors thrown by `check` count as
 * "not yet" (the last one is reported on timeout), except StopWaiting.
 */
export async function waitFor(
  description: string,
  check: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 100, explain }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      if (error instanceof StopWaiting) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail = lastError
        ? ` (last error: ${apiErrorMessage(lastError)})`
        : '';
      const extra = explain ? `\n${await explain()}` : '';
      throw new Error(
        `Timed out after ${
          timeoutMs / 1000
        } s waiting for ${description}${detail}${extra}`,
      );
    }
    await sleep(intervalMs);
  }
}

/** The API server's message from a client-node ApiException, or the error's message. */
export function apiErrorMessage(error: unknown): string {
  const { code, body, message } = (error ?? {}) as {
    code?: number;
    body?: unknown;
    message?: string;
  };
  let status: { message?: string; reason?: string } | undefined;
  if (typeof body === 'string') {
    try {
      status = JSON.parse(body);
    } catch {
      status = { message: body };
    }
  } else if (body && typeof body === 'object') {
    status = body as typeof status;
  }
  if (status?.message) {
    return `${code ? `HTTP ${code}` : ''}${
      status.reason ? ` ${status.reason}` : ''
    }: ${status.message}`.trim();
  }
  return message ?? String(error);
}

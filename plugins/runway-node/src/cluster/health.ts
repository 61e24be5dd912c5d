/**
 * Per-cluster errors as data: every answer that spans clusters lists the
 * clusters it could not (fully) use, each with a machine-readable reason and
 * a message that says what to fix. Pure functions.
 */

// The shapes are the REST contract's (runway-common): the answers carry them unchanged.
import type { ClusterError } from '@runway-portal/plugin-runway-common';

export type {
  ClusterError,
  ClusterErrorReason,
  ClusterFreshness,
} from '@runway-portal/plugin-runway-common';

/** Raised when an operation on one cluster takes longer than the bound. */
export class ClusterTimeoutError extends Error {
  readonly name = 'ClusterTimeoutError';
  constructor(
    readonly cluster: string,
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`cluster "${cluster}" did not answer ${what} within ${timeoutMs} ms`);
  }
}

interface ApiErrorLike {
  name: string;
  code: number;
  reason?: string;
  message: string;
  status?: { message?: string };
}

function isApiError(err: unknown): err is ApiErrorLike {
  return (
    err instanceof Error &&
    typeof (err as Partial<ApiErrorLike>).code === 'number'
  );
}

/** The client reports its own request timeout as a connection error caused by "no answer within". */
function isClientTimeout(err: Error): boolean {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message.startsWith('no answer within');
}

export interface ErrorContext {
  cluster: string;
  /** What was being read, e.g. `ModelDeployment (airunway.ai/v1alpha1)`. */
  what: string;
  /** True when reading a collection (a 404 then means the kind is not served). */
  collection?: boolean;
}

/** Turns any error from talking to a cluster into a ClusterError. */
export function classifyClusterError(
  err: unknown,
  ctx: ErrorContext,
): ClusterError {
  const base = { cluster: ctx.cluster };
  if (err instanceof ClusterTimeoutError) {
    return { ...base, reason: 'Timeout', message: err.message };
  }
  if (isApiError(err)) {
    const detail = err.status?.message ?? err.message;
    switch (err.code) {
      case 401:
        return {
          ...base,
          reason: 'Unauthorized',
          message: `cluster "${ctx.cluster}" rejected the portal's credentials (401): renew its serviceAccountToken in kubernetes.clusterLocatorMethods`,
        };
      case 403:
        return {
          ...base,
          reason: 'Forbidden',
          message: `cluster "${ctx.cluster}" refused the portal's service account access to ${ctx.what} (403): grant it the verbs it needs through RBAC (${detail})`,
        };
      case 404:
        if (ctx.collection) {
          return {
            ...base,
            reason: 'NotInstalled',
            message: `cluster "${ctx.cluster}" does not serve ${ctx.what}: install Runway's CRDs and controllers there`,
          };
        }
        break;
      default:
        break;
    }
    return {
      ...base,
      reason: 'Error',
      message: `cluster "${ctx.cluster}" answered ${err.code} reading ${ctx.what}: ${detail}`,
    };
  }
  if (err instanceof Error && err.name === 'KubeConnectionError') {
    if (isClientTimeout(err)) {
      return {
        ...base,
        reason: 'Timeout',
        message: `cluster "${ctx.cluster}" did not answer in time reading ${ctx.what}`,
      };
    }
    return {
      ...base,
      reason: 'Unreachable',
      message: `cannot reach cluster "${ctx.cluster}" (${err.message}): check that its API server is up and that its url is right`,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    ...base,
    reason: 'Error',
    message: `cluster "${ctx.cluster}": ${message}`,
  };
}

/** Data age from what the cache knows: synced, and since when it fails (if it does). */
export function dataAge(
  state: { synced: boolean; failingSince?: number },
  now: number,
): number | null {
  if (!state.synced) return null;
  if (state.failingSince === undefined) return 0;
  return Math.max(0, now - state.failingSince);
}

/**
 * Races `work` against the bound. On timeout the work's signal is aborted
 * so that the request it runs stops too.
 */
export async function withTimeout<T>(
  cluster: string,
  timeoutMs: number,
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ClusterTimeoutError(cluster, timeoutMs, what);
      controller.abort(err);
      reject(err);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

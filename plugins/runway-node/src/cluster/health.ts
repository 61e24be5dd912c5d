/**
 * Per-cluster errors as data: every answer that spans clusters lists the
 * clusters it could not (fully) use, each with a machine-readable reason and
 * a message that says what to fix. Pure functions.
 */

// The shapes are the REST contract's (runway-common): the answers carry them unchanged.
import type {
  ClusterError,
  ClusterFreshness,
  ClusterState,
} from '@runway-portal/plugin-runway-common';

export type {
  ClusterError,
  ClusterErrorReason,
  ClusterFreshness,
  ClusterState,
} from '@runway-portal/plugin-runway-common';

/** Raised when an operation on one cluster takes longer than the bound. @public */
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

/** Reasons that mean the API server gave no answer at all. */
export function isNoAnswer(error: ClusterError): boolean {
  return error.reason === 'Unreachable' || error.reason === 'Timeout';
}

/** What a cluster's cache has observed of it, for `clusterHealth`. */
export interface ClusterObservation {
  cluster: string;
  /** The API server's last answer of any kind (ms since the epoch); unset before the first. */
  lastSeen?: number;
  /** Since when it gives no answer (a probe or a watch failed without an HTTP answer); unset while it answers. */
  downSince?: number;
  /** What that failure was. */
  downError?: ClusterError;
  /** It answers 404 for the `airunway.ai` API group: Runway's CRDs are absent. */
  notInstalled?: boolean;
  /** Kinds whose list or watch fails although the server answers (403, 500, ...). */
  problems?: readonly ClusterError[];
  /** The provider registrations, once listed. */
  providers?: ReadonlyArray<{ name: string; ready: boolean }>;
}

/** A cluster's state, for every answer about it. */
export interface ClusterHealth {
  state: ClusterState;
  /** Why, and what to do; '' when ok. */
  message: string;
  lastSeen?: number;
  /** Set while unreachable: since then the data served is the last known. */
  staleSince?: number;
}

/** The fix for a cluster without Runway, as the CLI spells it (packages/cli). */
export const INSTALL_FIX =
  'install the controllers: `runway controller install` (then a provider: `runway provider install <name>`, or `runway install --all`)';

/**
 * The state of a cluster from what its cache observed. Unreachable wins
 * (nothing else can be known), then not-installed, then degraded. Pure.
 */
export function clusterHealth(o: ClusterObservation): ClusterHealth {
  const seen = o.lastSeen !== undefined ? { lastSeen: o.lastSeen } : {};
  if (o.downSince !== undefined) {
    const why =
      o.downError?.message ?? `cluster "${o.cluster}" does not answer`;
    return {
      state: 'unreachable',
      message: `${why.replace(
        /[.\s]+$/,
        '',
      )}. Its data is the last known and is refreshed by itself when it answers again.`,
      ...seen,
      staleSince: o.downSince,
    };
  }
  if (o.lastSeen === undefined) {
    // Asked before its first answer (the first probe takes longer than the answer's bound).
    return {
      state: 'unreachable',
      message: `cluster "${o.cluster}" has not answered the portal yet: check that its API server is up and that its url is right.`,
    };
  }
  if (o.notInstalled) {
    return {
      state: 'not-installed',
      message: `Runway is not installed in cluster "${o.cluster}" (it does not serve the airunway.ai API group): ${INSTALL_FIX}.`,
      ...seen,
    };
  }
  const reasons: string[] = (o.problems ?? []).map(p =>
    p.message.replace(/[.\s]+$/, ''),
  );
  if (o.providers) {
    const notReady = o.providers.filter(p => !p.ready).map(p => p.name);
    if (o.providers.length === 0) {
      reasons.push(
        `no inference provider is registered in cluster "${o.cluster}": install one with \`runway provider install <name>\``,
      );
    } else if (notReady.length > 0) {
      reasons.push(
        `${notReady.length} of ${
          o.providers.length
        } providers not ready (${notReady.join(
          ', ',
        )}): deployments that need them wait; each provider's message says why`,
      );
    }
  }
  if (reasons.length > 0) {
    return { state: 'degraded', message: `${reasons.join('; ')}.`, ...seen };
  }
  return { state: 'ok', message: '', ...seen };
}

/**
 * What an answer says about one cluster: its state, and whether the data of
 * the kind it serves is current. The data is stale while the cluster is
 * unreachable or that kind's watch fails, from the earlier of the two. Pure.
 */
export function freshnessOf(
  health: ClusterHealth,
  watch: { cluster: string; synced: boolean; failingSince?: number },
  now: number,
): ClusterFreshness {
  const since = [health.staleSince, watch.failingSince].filter(
    (t): t is number => t !== undefined,
  );
  const staleSince = since.length > 0 ? Math.min(...since) : undefined;
  const stale = watch.synced && staleSince !== undefined;
  return {
    cluster: watch.cluster,
    synced: watch.synced,
    dataAgeMs: dataAge({ synced: watch.synced, failingSince: staleSince }, now),
    state: health.state,
    message: health.message,
    lastSeen:
      health.lastSeen !== undefined
        ? new Date(health.lastSeen).toISOString()
        : null,
    stale,
    ...(stale ? { staleSince: new Date(staleSince).toISOString() } : {}),
  };
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

/**
 * Errors of single-cluster operations (get, create, update, delete), as
 * Backstage error types the HTTP layer and the scaffolder both understand.
 * Field-level problems keep their field paths.
 */
import {
  ConflictError,
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import type { ValidationIssue } from '@runway-portal/plugin-runway-common';
import { classifyClusterError } from './cluster/health';

/** The body is not a valid resource: `issues` name each field and say how to fix it. @public */
export class ResourceInvalidError extends InputError {
  constructor(message: string, readonly issues: ValidationIssue[]) {
    super(message);
  }
}

/** One field another writer owns (server-side apply conflict). @public */
export interface FieldConflict {
  manager: string;
  field: string;
  message: string;
}

/** Server-side apply refused: other managers own fields this update sets. @public */
export class FieldConflictError extends ConflictError {
  constructor(message: string, readonly conflicts: FieldConflict[]) {
    super(message);
  }
}

/**
 * The cluster could not do what was asked for reasons that are not the
 * caller's: unreachable, timed out, or the portal's own credentials or RBAC
 * are insufficient. `reason` is the same vocabulary as per-cluster errors.
 *
 * @public
 */
export class ClusterUnavailableError extends ServiceUnavailableError {
  constructor(
    message: string,
    readonly cluster: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

interface StatusLike {
  message?: string;
  reason?: string;
  details?: {
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
  };
}

interface ApiErrorLike extends Error {
  code: number;
  reason: string;
  status: StatusLike;
  conflicts?: FieldConflict[];
}

function isApiError(err: unknown): err is ApiErrorLike {
  return (
    err instanceof Error &&
    typeof (err as Partial<ApiErrorLike>).code === 'number'
  );
}

/** The API server's field causes (422 Invalid) as validation issues. @public */
export function issuesFromStatus(status: StatusLike): ValidationIssue[] {
  const causes = status.details?.causes ?? [];
  const issues = causes.map(c => ({
    path: (c.field ?? '').replace(/^\./, '') || '(root)',
    message: c.message ?? c.reason ?? 'invalid',
    severity: 'error' as const,
  }));
  return issues.length > 0
    ? issues
    : [
        {
          path: '(root)',
          message: status.message ?? 'invalid',
          severity: 'error',
        },
      ];
}

/** Maps an error from one cluster operation to a portal error. @public */
export function toPortalError(
  err: unknown,
  ctx: { cluster: string; what: string },
): Error {
  if (!isApiError(err)) {
    const classified = classifyClusterError(err, {
      cluster: ctx.cluster,
      what: ctx.what,
    });
    // Connection problems and timeouts are the cluster's; anything else (our own checks) passes as is.
    if (classified.reason === 'Error' && err instanceof Error) return err;
    return new ClusterUnavailableError(
      classified.message,
      ctx.cluster,
      classified.reason,
    );
  }
  const detail = err.status?.message ?? err.message;
  switch (err.code) {
    case 400:
      return new InputError(
        `cluster "${ctx.cluster}" refused ${ctx.what}: ${detail}`,
      );
    case 404:
      return new NotFoundError(
        `${ctx.what} not found in cluster "${ctx.cluster}"`,
      );
    case 409:
      if (err.conflicts && err.conflicts.length > 0) {
        const fields = err.conflicts
          .map(c => `${c.field} (owned by ${c.manager})`)
          .join(', ');
        return new FieldConflictError(
          `${ctx.what}: other writers own ${fields}; leave those fields unchanged, or update with force to take them over`,
          err.conflicts,
        );
      }
      if (err.reason === 'AlreadyExists') {
        return new ConflictError(
          `${ctx.what} already exists in cluster "${ctx.cluster}": update it instead, or choose another name`,
        );
      }
      return new ConflictError(
        `${ctx.what} changed in cluster "${ctx.cluster}" since it was read: reload it and apply your change again (${detail})`,
      );
    case 422:
      return new ResourceInvalidError(
        `cluster "${ctx.cluster}" rejected ${ctx.what}: ${detail}`,
        issuesFromStatus(err.status),
      );
    default: {
      const classified = classifyClusterError(err, {
        cluster: ctx.cluster,
        what: ctx.what,
      });
      return new ClusterUnavailableError(
        classified.message,
        ctx.cluster,
        classified.reason,
      );
    }
  }
}

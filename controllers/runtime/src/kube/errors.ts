import type { Status } from './types';

/** An error answer of the API server, with its metav1.Status. @public */
export class KubeApiError extends Error {
  readonly name: string = 'KubeApiError';
  /** HTTP status code. */
  readonly code: number;
  /** `NotFound`, `Conflict`, `AlreadyExists`, `Expired`, `Gone`, `Invalid`, ... */
  readonly reason: string;

  constructor(
    readonly method: string,
    readonly path: string,
    code: number,
    readonly status: Status,
  ) {
    super(
      `${method} ${path} failed with ${code} ${status.reason ?? ''}: ${
        status.message ?? 'no message'
      }`,
    );
    this.code = code;
    this.reason = status.reason ?? 'Unknown';
  }
}

/** One field owned by another manager, from a server-side apply conflict. @public */
export interface FieldConflict {
  manager: string;
  field: string;
  message: string;
}

/**
 * A server-side apply was refused because other field managers own fields
 * this apply sets. Either stop setting those fields, or apply with
 * `force: true` to take them over (an explicit choice).
 *
 * @public
 */
export class ApplyConflictError extends KubeApiError {
  readonly name: string = 'ApplyConflictError';
  readonly conflicts: FieldConflict[];

  constructor(method: string, path: string, code: number, status: Status) {
    super(method, path, code, status);
    this.conflicts = parseApplyConflicts(status);
  }
}

/** The API server could not be reached or the connection broke. @public */
export class KubeConnectionError extends Error {
  readonly name = 'KubeConnectionError';
  constructor(readonly method: string, readonly path: string, cause: unknown) {
    super(
      `${method} ${path}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
  }
}

/**
 * Causes of an apply conflict read like
 * `conflict with "manager-a" using v1: .data.key` (field `.data.key`).
 *
 * @public
 */
export function parseApplyConflicts(status: Status): FieldConflict[] {
  return (status.details?.causes ?? [])
    .filter(c => c.reason === 'FieldManagerConflict')
    .map(c => {
      const match = /conflict with "([^"]*)"/.exec(c.message ?? '');
      return {
        manager: match?.[1] ?? 'unknown',
        field: c.field ?? '',
        message: c.message ?? '',
      };
    });
}

export function errorFromStatus(
  method: string,
  path: string,
  code: number,
  status: Status,
  isApply: boolean,
): KubeApiError {
  if (isApply && code === 409 && status.reason === 'Conflict') {
    return new ApplyConflictError(method, path, code, status);
  }
  return new KubeApiError(method, path, code, status);
}

/** @public */
export function isNotFound(err: unknown): boolean {
  return err instanceof KubeApiError && err.code === 404;
}
/** @public */
export function isConflict(err: unknown): boolean {
  return (
    err instanceof KubeApiError && err.code === 409 && err.reason === 'Conflict'
  );
}
/** @public */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof KubeApiError && err.reason === 'AlreadyExists';
}
/** 410 Gone / Expired: the resourceVersion is too old, list again. @public */
export function isGone(err: unknown): boolean {
  return (
    err instanceof KubeApiError &&
    (err.code === 410 || err.reason === 'Expired' || err.reason === 'Gone')
  );
}

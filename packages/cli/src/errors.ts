/** Errors the CLI prints as one line and exits non-zero with. */
import {
  ApplyConflictError,
  KubeApiError,
  KubeConnectionError,
} from '@runway-portal/controller-runtime';

/** A failure with a named cause (the first words of the line printed). @public */
export class CliError extends Error {
  readonly name = 'CliError';
  constructor(
    /** `no cluster`, `no permission`, `conflict`, `webhook not answering`, `bad input`, ... */
    readonly cause: string,
    message: string,
  ) {
    super(`${cause}: ${message}`);
  }
}

/** The one-line cause of a failed API call, for `what` (e.g. "apply Deployment airunway-system/airunway-core"). */
export function explainKubeError(
  err: unknown,
  what: string,
  server?: string,
): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof KubeConnectionError) {
    return new CliError(
      'no cluster',
      `cannot reach the API server${server ? ` at ${server}` : ''} (${
        err.message
      }): check --kubeconfig and --context`,
    );
  }
  if (err instanceof ApplyConflictError) {
    const managers = [...new Set(err.conflicts.map(c => c.manager))].join(', ');
    const fields = err.conflicts
      .map(c => c.field)
      .slice(0, 3)
      .join(', ');
    return new CliError(
      'conflict',
      `${what}: fields ${fields} are owned by field manager ${managers} (installed by another tool); rerun with --force-conflicts to take them over`,
    );
  }
  if (err instanceof KubeApiError) {
    if (err.code === 401)
      return new CliError(
        'not authenticated',
        `${what}: the API server refused the kubeconfig's credentials: log in again or pick another --context`,
      );
    if (err.code === 403)
      return new CliError(
        'no permission',
        `${what}: ${
          err.status.message ?? 'forbidden'
        }: ask a cluster admin for cluster-admin or the rights listed`,
      );
    return new CliError(
      'api error',
      `${what}: ${err.status.message ?? err.message} (HTTP ${err.code} ${
        err.reason
      })`,
    );
  }
  return new CliError(
    'error',
    `${what}: ${(err as Error)?.message ?? String(err)}`,
  );
}

import { type Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds } from '@backstage/types';
import type { ClusterConfigProblem } from './readClusters';

/** @public */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

/** @public */
export interface RunwayOptions {
  /** Bound of anything that touches a cluster, and of the wait for a cache's first sync. */
  requestTimeoutMs: number;
  /** The doctor's background runs (`runway.doctor`); unset fields take the defaults of cluster/doctor.ts. */
  doctor: { intervalMs?: number; timeoutMs?: number; namespace?: string };
}

/** A duration option in milliseconds; a bad value is a problem (and undefined: the default). */
function readMs(
  config: Config,
  key: string,
  problems: ClusterConfigProblem[],
  options: { allowZero?: boolean; example: string; fallback: string },
): number | undefined {
  if (!config.has(key)) return undefined;
  try {
    const ms = durationToMilliseconds(readDurationFromConfig(config, { key }));
    if (!(ms > 0) && !(options.allowZero && ms === 0))
      throw new Error(
        `it must be longer than zero${options.allowZero ? ' (or 0)' : ''}`,
      );
    return ms;
  } catch (err) {
    problems.push({
      path: key,
      message: `${
        err instanceof Error ? err.message : String(err)
      }; write e.g. ${options.example} (using ${options.fallback})`,
    });
    return undefined;
  }
}

/**
 * `runway.requestTimeout` (e.g. `{ seconds: 5 }` or `5s`); a bad value is a
 * problem, reported, and the default is used instead.
 *
 * @public
 */
export function readRunwayOptions(config: Config): {
  options: RunwayOptions;
  problems: ClusterConfigProblem[];
} {
  const problems: ClusterConfigProblem[] = [];
  let requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  if (config.has('runway.requestTimeout')) {
    try {
      const ms = durationToMilliseconds(
        readDurationFromConfig(config, { key: 'runway.requestTimeout' }),
      );
      if (!(ms > 0)) throw new Error('it must be longer than zero');
      requestTimeoutMs = ms;
    } catch (err) {
      problems.push({
        path: 'runway.requestTimeout',
        message: `${
          err instanceof Error ? err.message : String(err)
        }; write e.g. "5s" or { seconds: 5 } (using ${DEFAULT_REQUEST_TIMEOUT_MS} ms)`,
      });
    }
  }
  const doctor: RunwayOptions['doctor'] = {};
  const intervalMs = readMs(config, 'runway.doctor.interval', problems, {
    allowZero: true,
    example: '"60s" or { seconds: 60 }; 0 runs the checks only on demand',
    fallback: '60 s',
  });
  if (intervalMs !== undefined) doctor.intervalMs = intervalMs;
  const timeoutMs = readMs(config, 'runway.doctor.timeout', problems, {
    example: '"30s" or { seconds: 30 }',
    fallback: '30 s',
  });
  if (timeoutMs !== undefined) doctor.timeoutMs = timeoutMs;
  const namespace = config.getOptionalString('runway.doctor.namespace');
  if (namespace) doctor.namespace = namespace;
  return { options: { requestTimeoutMs, doctor }, problems };
}

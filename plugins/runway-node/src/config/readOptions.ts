import { type Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds } from '@backstage/types';
import type { ClusterConfigProblem } from './readClusters';

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

export interface RunwayOptions {
  /** Bound of anything that touches a cluster, and of the wait for a cache's first sync. */
  requestTimeoutMs: number;
}

/**
 * `runway.requestTimeout` (e.g. `{ seconds: 5 }` or `5s`); a bad value is a
 * problem, reported, and the default is used instead.
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
  return { options: { requestTimeoutMs }, problems };
}

import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import type { ClusterError, ClusterFreshness } from '../../api/types';

/** Seconds or minutes, for "data is 3 min old". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  return `${Math.round(seconds / 60)} min`;
}

/**
 * One banner per cluster that could not (fully) answer, naming it; the rest
 * of the page keeps showing what the other clusters answered.
 */
export function ClusterErrors({
  errors,
  clusters = [],
}: {
  errors: ClusterError[];
  clusters?: ClusterFreshness[];
}) {
  const failing = new Set(errors.map(e => e.cluster));
  const staleData = new Set(clusters.filter(c => c.stale).map(c => c.cluster));
  // An unreachable cluster's staleness is said by its state (card, StaleNotice), not again here.
  const stale = clusters.filter(
    c =>
      !failing.has(c.cluster) &&
      c.state !== 'unreachable' &&
      c.dataAgeMs !== null &&
      c.dataAgeMs > 0,
  );
  if (errors.length === 0 && stale.length === 0) return null;
  return (
    <Stack
      spacing={1}
      sx={{ mb: 2 }}
      aria-label="cluster problems"
      role="region"
    >
      {errors.map(e => (
        <Alert
          key={`${e.cluster}-${e.reason}`}
          severity={e.reason === 'Syncing' ? 'info' : 'error'}
        >
          <AlertTitle>
            Cluster {e.cluster}: {e.reason}
          </AlertTitle>
          {/[.!?]$/.test(e.message.trim()) ? e.message : `${e.message}.`}{' '}
          {staleData.has(e.cluster)
            ? 'Its last known data is shown, marked stale.'
            : 'Showing what the other clusters answered.'}
        </Alert>
      ))}
      {stale.map(c => (
        <Alert key={`${c.cluster}-stale`} severity="warning">
          Data from cluster {c.cluster} is {formatDuration(c.dataAgeMs ?? 0)}{' '}
          old: its watch is reconnecting.
        </Alert>
      ))}
    </Stack>
  );
}

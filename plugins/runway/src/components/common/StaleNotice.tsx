import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { ClusterFreshness } from '../../api/types';
import { clusterStateView } from '../../lib/clusters';
import { formatDuration } from './ClusterErrors';
import { useNow } from './useNow';

/**
 * For a resource page: says when the resource's cluster is not ok, and above
 * all when what the page shows is the cluster's last known data (stale, with
 * its age) rather than current. Renders nothing for a healthy cluster.
 */
export function StaleNotice({
  freshness,
}: {
  /** The answer's `clusters` entry of the resource's cluster. */
  freshness?: ClusterFreshness;
}) {
  // The age ticks every second while the page shows stale data.
  const now = useNow(freshness?.stale ? 1_000 : 30_000);
  const view = clusterStateView(freshness, now);
  if (!view || (view.state === 'ok' && !view.stale)) return null;
  const cluster = freshness!.cluster;
  const lastSeen =
    view.lastSeenAgoMs === undefined
      ? 'it has never answered the portal'
      : `last seen ${formatDuration(view.lastSeenAgoMs)} ago`;
  let title: string;
  if (view.stale) {
    title = `Stale: cluster ${cluster} is ${
      view.label
    } (${lastSeen}); this is its state as of ${formatDuration(
      view.staleForMs ?? 0,
    )} ago`;
  } else if (view.state === 'unreachable') {
    title = `Cluster ${cluster} is unreachable (${lastSeen})`;
  } else {
    title = `Cluster ${cluster}: ${view.label}`;
  }
  return (
    <Alert
      severity={view.stale ? 'error' : view.color}
      sx={{ mb: 2 }}
      data-testid="stale-notice"
      data-state={view.state}
    >
      <AlertTitle>{title}</AlertTitle>
      {view.message}
    </Alert>
  );
}

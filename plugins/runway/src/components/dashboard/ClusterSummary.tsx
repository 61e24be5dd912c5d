import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { doctorInstallFix } from '@runway-portal/plugin-runway-common';
import type { ClusterFreshness, ClusterOverview } from '../../api/types';
import {
  clusterStateView,
  type ClusterStateView,
  gpuTypeText,
  providersReady,
  summariseGpus,
} from '../../lib/clusters';
import { formatDuration } from '../common/ClusterErrors';
import { useNow } from '../common/useNow';
import { DoctorChip } from './DoctorChip';

/** The card's border follows the state's colour, so a problem shows from afar. */
const BORDER: Record<ClusterStateView['color'], string> = {
  success: 'divider',
  warning: 'warning.main',
  error: 'error.main',
  info: 'info.main',
};

/**
 * One card per cluster: its state (ok, degraded, unreachable, Runway not
 * installed) coloured by meaning, providers ready and GPU capacity. An
 * unreachable cluster's numbers are its last known: dimmed, with their age.
 */
export function ClusterSummary({
  clusters,
  states = [],
}: {
  clusters: ClusterOverview[];
  /** The answer's per-cluster state (`clusters` of the clusters answer). */
  states?: ClusterFreshness[];
}) {
  // Ages of stale data tick every second; a healthy page re-renders rarely.
  const now = useNow(states.some(s => s.stale) ? 1_000 : 30_000);
  return (
    <Grid
      container
      spacing={2}
      sx={{ mb: 2 }}
      component="section"
      aria-label="cluster summary"
    >
      {clusters.map(cluster => {
        const view = clusterStateView(
          states.find(s => s.cluster === cluster.name),
          now,
        );
        return (
          <Grid item xs={12} sm={6} md={4} key={cluster.name}>
            <ClusterCard cluster={cluster} view={view} />
          </Grid>
        );
      })}
    </Grid>
  );
}

function ClusterCard({
  cluster,
  view,
}: {
  cluster: ClusterOverview;
  view?: ClusterStateView;
}) {
  const providers = providersReady(cluster);
  // Older backends send no state: reachability is all there is.
  const label =
    view?.label ?? (cluster.reachable ? 'reachable' : 'unreachable');
  const color = view?.color ?? (cluster.reachable ? 'success' : 'error');
  const stale = view?.stale ?? false;
  const notInstalled = view?.state === 'not-installed';
  // The doctor's fix for the first failing check: with no CRDs, the install command.
  const installFix = doctorInstallFix(cluster.doctor);
  // Unreachable and never listed: there are no numbers to show, not even old ones.
  const unknown = view?.state === 'unreachable' && !stale;
  return (
    <Card
      variant="outlined"
      data-testid={`cluster-card-${cluster.name}`}
      data-state={view?.state ?? ''}
      data-stale={stale ? 'true' : 'false'}
      sx={{ borderColor: BORDER[color], height: '100%' }}
    >
      <CardContent>
        <Stack
          direction="row"
          spacing={1}
          alignItems="center"
          sx={{ mb: 1, flexWrap: 'wrap' }}
        >
          <Typography variant="h6" component="h2">
            {cluster.title || cluster.name}
          </Typography>
          <Tooltip title={view?.message || ''}>
            <Chip
              size="small"
              color={color}
              label={label}
              data-testid={`cluster-state-${cluster.name}`}
            />
          </Tooltip>
          <DoctorChip
            cluster={cluster.name}
            report={cluster.doctor}
            stale={view?.state === 'unreachable'}
          />
          {cluster.version && (
            <Typography variant="caption" color="text.secondary">
              {cluster.version}
            </Typography>
          )}
        </Stack>
        {view?.state === 'unreachable' && (
          <Typography
            variant="body2"
            color="error"
            sx={{ mb: 1 }}
            data-testid={`cluster-last-seen-${cluster.name}`}
          >
            {view.lastSeenAgoMs === undefined
              ? 'Never answered the portal.'
              : `Last seen ${formatDuration(view.lastSeenAgoMs)} ago.`}
          </Typography>
        )}
        {view && view.state !== 'ok' && (
          <Alert
            severity={color}
            variant="outlined"
            sx={{ mb: 1, py: 0, '& .MuiAlert-message': { fontSize: 13 } }}
          >
            {view.message}
          </Alert>
        )}
        {notInstalled && installFix && (
          <Typography
            variant="body2"
            sx={{ mb: 1 }}
            data-testid={`cluster-install-fix-${cluster.name}`}
          >
            Install:{' '}
            <Typography
              component="code"
              variant="body2"
              sx={{ fontFamily: 'monospace' }}
            >
              {installFix}
            </Typography>
          </Typography>
        )}
        <Box
          aria-label={
            stale ? `last known numbers of cluster ${cluster.name}` : undefined
          }
          sx={stale ? { opacity: 0.5 } : undefined}
        >
          {stale && (
            <Typography
              variant="caption"
              component="p"
              sx={{ fontStyle: 'italic' }}
            >
              Stale: as of {formatDuration(view?.staleForMs ?? 0)} ago
            </Typography>
          )}
          {unknown && (
            <Typography variant="body2" color="text.secondary">
              No data: the portal has not reached this cluster yet.
            </Typography>
          )}
          {!notInstalled && !unknown && (
            <>
              <Typography variant="body2">
                Providers ready: {providers.ready}/{providers.total}
              </Typography>
              <Stack
                direction="row"
                spacing={0.5}
                sx={{ my: 1, flexWrap: 'wrap' }}
              >
                {cluster.providers.map(p => (
                  <Tooltip
                    key={p.name}
                    title={p.message || (p.ready ? 'ready' : 'not ready')}
                  >
                    <Chip
                      size="small"
                      variant="outlined"
                      color={p.ready ? 'success' : 'warning'}
                      label={p.displayName || p.name}
                    />
                  </Tooltip>
                ))}
              </Stack>
            </>
          )}
          {!unknown &&
            summariseGpus(cluster.gpus).map(g => (
              <Box key={g.resource}>
                <Typography variant="body2">
                  {g.resource}: {g.free} free of {g.allocatable} ({g.requested}{' '}
                  in use, {g.pending} pending, {g.nodes} nodes)
                </Typography>
                {g.types?.map(t => (
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    key={`${t.product}|${t.memoryBytes}`}
                  >
                    {gpuTypeText(t)}
                  </Typography>
                ))}
              </Box>
            ))}
          {!unknown && cluster.gpus.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              No GPUs
            </Typography>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

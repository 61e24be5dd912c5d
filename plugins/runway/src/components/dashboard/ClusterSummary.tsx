import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ClusterOverview } from '../../api/types';
import { providersReady, summariseGpus } from '../../lib/clusters';

/** One card per cluster: reachable, providers ready, GPU capacity. */
export function ClusterSummary({ clusters }: { clusters: ClusterOverview[] }) {
  return (
    <Grid
      container
      spacing={2}
      sx={{ mb: 2 }}
      component="section"
      aria-label="cluster summary"
    >
      {clusters.map(cluster => {
        const providers = providersReady(cluster);
        return (
          <Grid item xs={12} sm={6} md={4} key={cluster.name}>
            <Card
              variant="outlined"
              data-testid={`cluster-card-${cluster.name}`}
            >
              <CardContent>
                <Stack
                  direction="row"
                  spacing={1}
                  alignItems="center"
                  sx={{ mb: 1 }}
                >
                  <Typography variant="h6" component="h2">
                    {cluster.title || cluster.name}
                  </Typography>
                  <Chip
                    size="small"
                    color={cluster.reachable ? 'success' : 'error'}
                    label={cluster.reachable ? 'reachable' : 'unreachable'}
                  />
                  {cluster.version && (
                    <Typography variant="caption" color="text.secondary">
                      {cluster.version}
                    </Typography>
                  )}
                </Stack>
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
                {summariseGpus(cluster.gpus).map(g => (
                  <Typography variant="body2" key={g.resource}>
                    {g.resource}: {g.free} free of {g.allocatable} (
                    {g.requested} in use, {g.pending} pending, {g.nodes} nodes)
                  </Typography>
                ))}
                {cluster.gpus.length === 0 && (
                  <Typography variant="body2" color="text.secondary">
                    No GPUs
                  </Typography>
                )}
              </CardContent>
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { runwayPermissions } from '@runway-portal/plugin-runway-common';
import { useDeferredValue, useMemo, useState } from 'react';
import type { ListedDeployment } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import {
  countByPhase,
  EMPTY_FILTER,
  filterOptions,
  filterRows,
  type RowFilter,
} from '../../lib/filters';
import { toDeploymentRow } from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import {
  DeployButton,
  useRunwayPermissionAnywhere,
} from '../common/PermissionGate';
import { useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { ClusterSummary } from './ClusterSummary';
import { deploymentColumns, VirtualTable } from './DeploymentsTable';
import { Filters } from './Filters';

/** The multi-cluster dashboard: cluster summary, per-cluster errors, filters, deployments. */
export function DeploymentsDashboard() {
  const links = useRunwayLinks();
  const now = useNow();
  const deployments = useRunwayData(api => api.list('deployments'), []);
  const clusters = useRunwayData(api => api.listClusters(), []);
  const [filter, setFilter] = useState<RowFilter>(EMPTY_FILTER);
  const createAccess = useRunwayPermissionAnywhere(
    runwayPermissions.deployments.create,
    clusters.value?.items,
  );

  const rows = useMemo(
    () =>
      (deployments.value?.items ?? []).map(item =>
        toDeploymentRow(item as ListedDeployment),
      ),
    [deployments.value],
  );
  const knownClusters = useMemo(
    () => (clusters.value?.items ?? []).map(c => c.name),
    [clusters.value],
  );
  const options = useMemo(
    () => filterOptions(rows, knownClusters),
    [rows, knownClusters],
  );
  // The inputs update at once; the table follows as soon as React has time (typing stays smooth).
  const deferredFilter = useDeferredValue(filter);
  const visible = useMemo(
    () => filterRows(rows, deferredFilter),
    [rows, deferredFilter],
  );
  const phases = useMemo(() => countByPhase(visible), [visible]);
  const columns = useMemo(
    () =>
      deploymentColumns(row =>
        links.detail(row.cluster, row.namespace, row.name),
      ),
    [links],
  );

  // Errors of the list and of the overview name the same clusters; show each once.
  const errors = useMemo(() => {
    const all = [
      ...(deployments.value?.errors ?? []),
      ...(clusters.value?.errors ?? []),
    ];
    return all.filter(
      (e, i) =>
        all.findIndex(o => o.cluster === e.cluster && o.reason === e.reason) ===
        i,
    );
  }, [deployments.value, clusters.value]);

  return (
    <Box>
      <Stack
        direction="row"
        justifyContent="space-between"
        alignItems="center"
        sx={{ mb: 2 }}
      >
        <Typography variant="h5" component="h1">
          Deployments
        </Typography>
        <DeployButton
          access={createAccess}
          to={links.deploy}
          variant="contained"
        />
      </Stack>

      {clusters.value && <ClusterSummary clusters={clusters.value.items} />}
      {clusters.error && (
        <ErrorAlert
          error={clusters.error}
          title="Could not load the cluster summary"
        />
      )}
      <ClusterErrors errors={errors} clusters={deployments.value?.clusters} />
      {deployments.error && (
        <ErrorAlert
          error={deployments.error}
          title="Could not load deployments"
        />
      )}

      {deployments.loading && (
        <LinearProgress aria-label="loading deployments" sx={{ mb: 2 }} />
      )}

      {deployments.value && rows.length === 0 && (
        <Alert
          severity="info"
          action={<DeployButton access={createAccess} to={links.deploy} />}
        >
          No deployments yet
          {errors.length ? ' in the clusters that answered' : ''}. Deploy a
          model to see it here.
        </Alert>
      )}

      {rows.length > 0 && (
        <>
          <Filters filter={filter} options={options} onChange={setFilter} />
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mb: 1 }}
            aria-live="polite"
          >
            {visible.length} of {rows.length} deployments
            {Object.keys(phases).length > 0 &&
              ` · ${Object.entries(phases)
                .map(([phase, n]) => `${n} ${phase}`)
                .join(', ')}`}
          </Typography>
          {visible.length === 0 ? (
            <Alert severity="info">No deployments match the filters.</Alert>
          ) : (
            <VirtualTable
              rows={visible}
              columns={columns}
              now={now}
              label="deployments"
            />
          )}
        </>
      )}
    </Box>
  );
}

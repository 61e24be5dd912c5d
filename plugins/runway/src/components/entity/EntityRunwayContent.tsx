import { useEntity } from '@backstage/plugin-catalog-react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { runwayPermissions } from '@runway-portal/plugin-runway-common';
import { useMemo } from 'react';
import type { ListResponse, RunwayKind } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import { countByPhase } from '../../lib/filters';
import { type DashboardRow, type DeploymentRow, toRow } from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import {
  DeployButton,
  useRunwayPermissionAnywhere,
} from '../common/PermissionGate';
import { useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import {
  type Column,
  deploymentColumns,
  VirtualTable,
} from '../dashboard/DeploymentsTable';
import { modelColumns, stackColumns } from '../dashboard/kindColumns';
import { KUBERNETES_ID } from '../../kubernetesId';

export const KINDS: Array<{ kind: RunwayKind; title: string }> = [
  { kind: 'deployments', title: 'Deployments' },
  { kind: 'models', title: 'Models' },
  { kind: 'stacks', title: 'Stacks' },
];

type EntityLists = Record<RunwayKind, ListResponse>;

/** The label selector of an entity's resources. */
export function entitySelector(kubernetesId: string): string {
  return `${KUBERNETES_ID}=${kubernetesId}`;
}

function useEntityResources() {
  const { entity } = useEntity();
  const id =
    entity.metadata.annotations?.[KUBERNETES_ID] ?? entity.metadata.name;
  const data = useRunwayData<EntityLists>(
    async api => {
      const labelSelector = entitySelector(id);
      const [deployments, models, stacks] = await Promise.all(
        KINDS.map(k => api.list(k.kind, { labelSelector })),
      );
      return { deployments, models, stacks };
    },
    [id],
    ['deployments', 'models', 'stacks'],
  );
  return { id, ...data };
}

/** The rows of each kind, with the dashboard's row functions. */
function rowsOf(lists: EntityLists): Record<RunwayKind, DashboardRow[]> {
  return {
    deployments: lists.deployments.items.map(i => toRow('deployments', i)),
    models: lists.models.items.map(i => toRow('models', i)),
    stacks: lists.stacks.items.map(i => toRow('stacks', i)),
  };
}

function allErrors(lists: EntityLists) {
  const all = KINDS.flatMap(k => lists[k.kind].errors);
  return all.filter(
    (e, i) =>
      all.findIndex(o => o.cluster === e.cluster && o.reason === e.reason) ===
      i,
  );
}

/** Entity tab: the entity's deployments, models and stacks across clusters. */
export function EntityRunwayContent() {
  const { id, value, error, loading } = useEntityResources();
  const links = useRunwayLinks();
  const now = useNow();
  // As on the dashboard: "Deploy a model" is disabled when no namespace of the clusters allows creating.
  const clusters = useRunwayData(api => api.listClusters(), []);
  const createAccess = useRunwayPermissionAnywhere(
    runwayPermissions.deployments.create,
    clusters.value?.items,
  );
  const rows = useMemo(() => (value ? rowsOf(value) : undefined), [value]);
  // The dashboard's columns of each kind.
  const columns = useMemo((): Record<RunwayKind, Column<any>[]> => {
    const link = (r: DashboardRow) =>
      links.of(r.kind, r.cluster, r.namespace, r.name);
    return {
      deployments: deploymentColumns(link),
      models: modelColumns(link),
      stacks: stackColumns(link),
    };
  }, [links]);
  if (loading) return <LinearProgress aria-label="loading runway resources" />;
  if (!value || !rows)
    return <ErrorAlert error={error ?? new Error('no answer')} />;
  return (
    <Box>
      {error && (
        <ErrorAlert
          error={error}
          title="Showing the last known state: reload failed"
        />
      )}
      <ClusterErrors errors={allErrors(value)} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Resources labelled <code>{entitySelector(id)}</code> in every cluster.{' '}
        <DeployButton
          access={createAccess}
          to={`${links.deploy}?kubernetesId=${encodeURIComponent(id)}`}
        />
      </Typography>
      {KINDS.map(({ kind, title }) => (
        <Box key={kind} component="section" aria-label={title} sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {title} ({rows[kind].length})
          </Typography>
          {rows[kind].length === 0 ? (
            <Alert severity="info">
              No {title.toLowerCase()} labelled for this entity.
            </Alert>
          ) : (
            <VirtualTable
              rows={rows[kind]}
              columns={columns[kind]}
              now={now}
              label={title}
            />
          )}
        </Box>
      ))}
    </Box>
  );
}

/** Entity card: how many deployments, models and stacks, by phase. */
export function EntityRunwayCard() {
  const { value, error, loading } = useEntityResources();
  const byKind = useMemo(() => (value ? rowsOf(value) : undefined), [value]);
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Runway
        </Typography>
        {loading && <LinearProgress aria-label="loading runway resources" />}
        {!loading && !value && (
          <ErrorAlert error={error ?? new Error('no answer')} />
        )}
        {value && (
          <>
            {allErrors(value).map(e => (
              <Alert severity="error" key={e.cluster} sx={{ mb: 1 }}>
                Cluster {e.cluster}: {e.reason}
              </Alert>
            ))}
            {KINDS.map(({ kind, title }) => {
              const rows = byKind![kind];
              const phases = countByPhase(rows);
              const viaGateway = rows.filter(
                r => (r as DeploymentRow).viaGateway,
              ).length;
              return (
                <Stack
                  direction="row"
                  spacing={1}
                  alignItems="center"
                  key={kind}
                  sx={{ mb: 0.5 }}
                  aria-label={`${title} summary`}
                >
                  <Typography variant="body2" sx={{ minWidth: 110 }}>
                    {title}: {rows.length}
                  </Typography>
                  {Object.entries(phases).map(([phase, n]) => (
                    <Typography variant="caption" key={phase}>
                      {n} {phase}
                    </Typography>
                  ))}
                  {viaGateway > 0 && (
                    <Typography
                      variant="caption"
                      title="Reachable through the cluster's inference Gateway"
                    >
                      {viaGateway} through the gateway
                    </Typography>
                  )}
                </Stack>
              );
            })}
          </>
        )}
      </CardContent>
    </Card>
  );
}

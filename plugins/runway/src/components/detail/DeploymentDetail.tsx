import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type ModelDeployment,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { type ResourceRef, runwayApiRef } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import {
  conditionTimeline,
  endpointInfo,
  gatewayNotice,
} from '../../lib/endpoint';
import { formatAge } from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate } from '../common/PermissionGate';
import { PhaseChip } from '../common/PhaseChip';
import { useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { Yaml } from '../wizard/ReviewStep';
import { EndpointDetails } from './EndpointDetails';
import { Fact } from './parts';

/** The colour of a condition's status. */
const CONDITION_COLOR: Record<string, 'success' | 'warning'> = {
  True: 'success',
  False: 'warning',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card
      variant="outlined"
      sx={{ mb: 2 }}
      component="section"
      aria-label={title}
    >
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** One deployment: phase, selection, replicas, endpoint, conditions, events, upstream objects, YAML. */
export function DeploymentDetail({ target }: { target: ResourceRef }) {
  const api = useApi(runwayApiRef);
  const links = useRunwayLinks();
  const navigate = useNavigate();
  const now = useNow();
  const detail = useRunwayData(
    a => a.get('deployments', target),
    [target.cluster, target.namespace, target.name],
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<Error>();

  if (detail.loading) return <LinearProgress aria-label="loading deployment" />;
  if (!detail.value)
    return (
      <ErrorAlert
        error={detail.error ?? new Error('not found')}
        title={`Could not load deployment ${target.namespace}/${target.name} in ${target.cluster}`}
      />
    );

  const { object, conditions, events, owned, errors, clusters } = detail.value;
  const md = object as ModelDeployment & KubeObject;
  const status = md.status ?? {};

  return (
    <Box>
      {detail.error && (
        <ErrorAlert
          error={detail.error}
          title="Showing the last known state: reload failed"
        />
      )}
      <ClusterErrors errors={errors} clusters={clusters} />
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1">
          {md.metadata?.name}
        </Typography>
        <PhaseChip
          phase={
            md.metadata?.deletionTimestamp
              ? 'Terminating'
              : status.phase ?? 'Pending'
          }
        />
        <Box sx={{ flexGrow: 1 }} />
        <PermissionGate
          permission={runwayPermissions.deployments.update}
          resource={target}
        >
          {allowed =>
            allowed ? (
              <Button
                component={RouterLink}
                to={links.edit(target.cluster, target.namespace, target.name)}
              >
                Edit
              </Button>
            ) : (
              <Button disabled>Edit</Button>
            )
          }
        </PermissionGate>
        <PermissionGate
          permission={runwayPermissions.deployments.delete}
          resource={target}
        >
          {allowed => (
            <Button
              color="error"
              disabled={!allowed}
              onClick={() => setConfirmDelete(true)}
            >
              Delete
            </Button>
          )}
        </PermissionGate>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {target.cluster} / {target.namespace} · {md.spec?.model?.id} · created{' '}
        {formatAge(Date.parse(md.metadata?.creationTimestamp ?? ''), now)} ago
      </Typography>
      {status.message && (
        <Alert
          severity={status.phase === 'Failed' ? 'error' : 'info'}
          sx={{ mb: 2 }}
        >
          {status.message}
        </Alert>
      )}
      {deleteError && <ErrorAlert error={deleteError} title="Delete failed" />}

      <Grid container spacing={2}>
        <Grid item xs={12} md={6}>
          <Section title="Selection and replicas">
            <Box component="dl" sx={{ m: 0 }}>
              <Fact name="Engine">
                {status.engine?.type ??
                  md.spec?.engine?.type ??
                  'not selected yet'}
                {status.engine?.selectedReason
                  ? ` — ${status.engine.selectedReason}`
                  : ''}
              </Fact>
              <Fact name="Provider">
                {status.provider?.name ??
                  md.spec?.provider?.name ??
                  'not selected yet'}
                {status.provider?.selectedReason
                  ? ` — ${status.provider.selectedReason}`
                  : ''}
              </Fact>
              <Fact name="Replicas">
                {status.replicas?.ready ?? 0} ready /{' '}
                {status.replicas?.desired ?? md.spec?.scaling?.replicas ?? 0}{' '}
                desired
                {status.replicas?.available !== undefined
                  ? ` (${status.replicas.available} available)`
                  : ''}
              </Fact>
              <Fact name="Serving mode">
                {md.spec?.serving?.mode ?? 'aggregated'}
              </Fact>
            </Box>
          </Section>
        </Grid>
        <Grid item xs={12} md={6}>
          <Section title="Endpoint">
            <EndpointDetails
              info={endpointInfo(md)}
              notice={gatewayNotice(conditions)}
            />
          </Section>
        </Grid>
      </Grid>

      <Section title="Conditions">
        {conditions.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No conditions yet: the controllers have not processed this
            deployment.
          </Typography>
        ) : (
          <Box
            component="ol"
            aria-label="conditions timeline"
            sx={{
              listStyle: 'none',
              p: 0,
              m: 0,
              borderLeft: 2,
              borderColor: 'divider',
              pl: 2,
            }}
          >
            {conditionTimeline(conditions).map(c => (
              <Box component="li" key={c.type} sx={{ mb: 1.5 }}>
                <Stack direction="row" spacing={1} alignItems="center">
                  <Chip
                    size="small"
                    variant="outlined"
                    label={c.status}
                    color={CONDITION_COLOR[c.status] ?? 'default'}
                  />
                  <Typography variant="subtitle2">
                    {c.type}: {c.status}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {c.reason}{' '}
                    {c.lastTransitionTime
                      ? `· ${formatAge(
                          Date.parse(c.lastTransitionTime),
                          now,
                        )} ago`
                      : ''}
                  </Typography>
                </Stack>
                {c.message && (
                  <Typography variant="body2">{c.message}</Typography>
                )}
              </Box>
            ))}
          </Box>
        )}
      </Section>

      <Section title="Events">
        {events.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No events.
          </Typography>
        ) : (
          <Table size="small" aria-label="events">
            <TableHead>
              <TableRow>
                <TableCell>Type</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Object</TableCell>
                <TableCell>Message</TableCell>
                <TableCell>Count</TableCell>
                <TableCell>Last seen</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {events.map(e => {
                const ev = e as any;
                const last =
                  ev.lastTimestamp ??
                  ev.eventTime ??
                  ev.metadata?.creationTimestamp;
                return (
                  <TableRow key={ev.metadata?.uid ?? ev.metadata?.name}>
                    <TableCell>{ev.type}</TableCell>
                    <TableCell>{ev.reason}</TableCell>
                    <TableCell>
                      {ev.involvedObject?.kind ?? ev.regarding?.kind}{' '}
                      {ev.involvedObject?.name ?? ev.regarding?.name}
                    </TableCell>
                    <TableCell>{ev.message ?? ev.note}</TableCell>
                    <TableCell>{ev.count ?? ev.series?.count ?? 1}</TableCell>
                    <TableCell>
                      {last ? `${formatAge(Date.parse(last), now)} ago` : ''}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </Section>

      <Section title="Upstream resource">
        {owned.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {status.provider?.resourceKind
              ? `${status.provider.resourceKind} ${
                  status.provider.resourceName ?? ''
                } is not visible to the portal yet.`
              : 'The provider has not created its resource yet.'}
          </Typography>
        ) : (
          owned.map(o => (
            <Box key={`${o.kind}/${o.metadata?.name}`}>
              <Typography variant="subtitle2">
                {o.apiVersion} {o.kind} {o.metadata?.name}
              </Typography>
              <Yaml value={o} label={`${o.kind} ${o.metadata?.name} YAML`} />
            </Box>
          ))
        )}
      </Section>

      <Section title="YAML">
        <Yaml value={md} label="deployment YAML" />
      </Section>

      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        aria-labelledby="runway-delete-title"
      >
        <DialogTitle id="runway-delete-title">
          Delete {md.metadata?.name}?
        </DialogTitle>
        <DialogContent>
          The model server and everything its provider created in cluster{' '}
          {target.cluster} are removed.
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
          <Button
            color="error"
            onClick={async () => {
              setConfirmDelete(false);
              try {
                await api.delete('deployments', target);
                navigate(links.root);
              } catch (err) {
                setDeleteError(err as Error);
              }
            }}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

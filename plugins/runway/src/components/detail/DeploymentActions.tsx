/**
 * The deployment's actions in the detail header: edit, scale, pause or
 * resume, copy as new, delete (Edit and Delete are every kind's, in
 * resourceDetail.tsx). Each is behind its permission (disabled with the reason
 * otherwise) and a confirmation; the backend checks again.
 */
import { useApi } from '@backstage/core-plugin-api';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  type ModelDeployment,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { type ResourceRef, runwayApiRef } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import {
  currentScale,
  isDisaggregated,
  isPaused,
  pausedDeployment,
  replicaIssue,
  scaledDeployment,
} from '../../lib/actions';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate } from '../common/PermissionGate';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { DeleteAction, EditAction } from './resourceDetail';

type Md = ModelDeployment & KubeObject;
type Open = 'scale' | 'pause' | undefined;

function ScaleDialog({
  md,
  busy,
  onCancel,
  onScale,
}: {
  md: Md;
  busy: boolean;
  onCancel: () => void;
  onScale: (body: KubeObject) => void;
}) {
  const disaggregated = isDisaggregated(md);
  const now = currentScale(md);
  const fields = disaggregated
    ? (['prefill', 'decode'] as const)
    : (['replicas'] as const);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map(f => [f, String(now[f] ?? 1)])),
  );
  const path = (f: string) =>
    f === 'replicas' ? 'spec.scaling.replicas' : `spec.scaling.${f}.replicas`;
  const issues = Object.fromEntries(
    fields.map(f => [f, replicaIssue(path(f), values[f] ?? '')]),
  );
  const valid = fields.every(f => !issues[f]);
  return (
    <Dialog open onClose={onCancel} aria-labelledby="runway-scale-title">
      <DialogTitle id="runway-scale-title">
        Scale {md.metadata?.name}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The provider adds or removes model server replicas; each replica needs
          its GPUs.
        </DialogContentText>
        <Stack direction="row" spacing={2}>
          {fields.map(f => (
            <TextField
              key={f}
              label={
                f === 'replicas'
                  ? 'Replicas'
                  : `${f[0].toUpperCase()}${f.slice(1)} replicas`
              }
              type="number"
              value={values[f]}
              onChange={e => setValues(v => ({ ...v, [f]: e.target.value }))}
              error={Boolean(issues[f])}
              helperText={issues[f] ?? `now ${now[f] ?? 1}`}
              inputProps={{ min: 0, step: 1 }}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!valid || busy}
          onClick={() =>
            onScale(
              scaledDeployment(
                md,
                Object.fromEntries(fields.map(f => [f, Number(values[f])])),
              ),
            )
          }
        >
          Scale
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function DeploymentActions({
  target,
  deployment: md,
  onChanged,
}: {
  target: ResourceRef;
  deployment: Md;
  /** Called after a change was accepted (the page reloads). */
  onChanged: () => void;
}) {
  const api = useApi(runwayApiRef);
  const links = useRunwayLinks();
  const [open, setOpen] = useState<Open>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ what: string; error: Error }>();
  const paused = isPaused(md);
  const terminating = Boolean(md.metadata?.deletionTimestamp);

  async function run(what: string, work: () => Promise<unknown>) {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
      setOpen(undefined);
      onChanged();
    } catch (error) {
      setOpen(undefined);
      setFailure({ what, error: error as Error });
    } finally {
      setBusy(false);
    }
  }

  const update = runwayPermissions.deployments.update;
  return (
    <>
      <EditAction
        kind="deployments"
        target={target}
        terminating={terminating}
        to={links.edit(target.cluster, target.namespace, target.name)}
      />
      <PermissionGate permission={update} resource={target}>
        {allowed => (
          <Button
            disabled={!allowed || terminating}
            onClick={() => setOpen('scale')}
          >
            Scale
          </Button>
        )}
      </PermissionGate>
      <PermissionGate permission={update} resource={target}>
        {allowed => (
          <Button
            disabled={!allowed || terminating}
            onClick={() => setOpen('pause')}
          >
            {paused ? 'Resume' : 'Pause'}
          </Button>
        )}
      </PermissionGate>
      {/* A new deployment starting as a copy; the wizard checks where the user may create. */}
      <Button
        component={RouterLink}
        to={`${links.deploy}?copyFrom=${[
          target.cluster,
          target.namespace,
          target.name,
        ]
          .map(encodeURIComponent)
          .join('/')}`}
      >
        Copy as new
      </Button>
      <DeleteAction
        kind="deployments"
        target={target}
        terminating={terminating}
        title={`Delete ${md.metadata?.name}?`}
        onDeleted={onChanged}
      >
        The model server and everything its provider created in cluster{' '}
        {target.cluster} are removed. The page shows the finalizers' progress
        until it is gone.
      </DeleteAction>

      {failure && (
        <Dialog
          open
          onClose={() => setFailure(undefined)}
          aria-labelledby="runway-action-failed"
        >
          <DialogTitle id="runway-action-failed">
            {failure.what} failed
          </DialogTitle>
          <DialogContent>
            <ErrorAlert
              error={failure.error}
              title={`${failure.what} failed`}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setFailure(undefined)}>Close</Button>
          </DialogActions>
        </Dialog>
      )}

      {open === 'scale' && (
        <ScaleDialog
          md={md}
          busy={busy}
          onCancel={() => setOpen(undefined)}
          onScale={body =>
            run('Scale', () => api.update('deployments', target, body))
          }
        />
      )}

      <Dialog
        open={open === 'pause'}
        onClose={() => setOpen(undefined)}
        aria-labelledby="runway-pause-title"
      >
        <DialogTitle id="runway-pause-title">
          {paused ? 'Resume' : 'Pause'} {md.metadata?.name}?
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {paused
              ? 'The controllers reconcile it again: changes made while it was paused are applied now.'
              : 'The controllers stop reconciling it (annotation airunway.ai/reconcile-paused): the model server keeps running as it is, and spec changes wait until you resume.'}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(undefined)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={busy}
            onClick={() =>
              run(paused ? 'Resume' : 'Pause', () =>
                api.update(
                  'deployments',
                  target,
                  pausedDeployment(md, !paused),
                ),
              )
            }
          >
            {paused ? 'Resume' : 'Pause'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * What every kind's detail page does the same way around `DetailLayout`:
 * load the resource (reloaded on changes, faster while it settles), what to
 * show until it is there (loading, deleted, failed), and the Edit and Delete
 * actions, each behind its permission; the backend checks again.
 */
import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import {
  type RunwayKind,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  type ResourceRef,
  RunwayApiError,
  runwayApiRef,
} from '../../api/RunwayApi';
import type { DetailResponse } from '../../api/types';
import { useDetailPolling } from '../../hooks/useHealthPolling';
import { type AsyncData, useRunwayData } from '../../hooks/useRunwayData';
import { KIND_WORD } from '../../lib/detail';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate } from '../common/PermissionGate';
import { useRunwayLinks } from '../common/useRunwayLinks';
import type { DetailLayoutProps } from './DetailLayout';

/** The answer to show and the layout's props it makes, or what stands in its place (loading, deleted meanwhile, failed to load). */
export type LoadedDetail =
  | {
      answer: DetailResponse;
      layout: Pick<
        DetailLayoutProps,
        'kind' | 'target' | 'answer' | 'reloadError'
      >;
    }
  | { placeholder: JSX.Element };

/**
 * One resource for its detail page, reloaded on its kind's changes and
 * polled until it settles; `loaded` is what the page shows.
 */
export function useResourceDetail(
  kind: RunwayKind,
  target: ResourceRef,
): { detail: AsyncData<DetailResponse>; loaded: LoadedDetail } {
  const links = useRunwayLinks();
  const detail = useRunwayData(
    a => a.get(kind, target),
    [kind, target.cluster, target.namespace, target.name],
    [kind],
  );
  useDetailPolling(detail.refresh, detail.value?.object?.status?.phase);
  const back = { to: links.dashboard(kind), label: `Back to ${kind}` };
  return { detail, loaded: loadedDetail(detail, kind, target, back) };
}

function loadedDetail(
  detail: AsyncData<DetailResponse>,
  kind: RunwayKind,
  target: ResourceRef,
  back: { to: string; label: string },
): LoadedDetail {
  const word = KIND_WORD[kind];
  const ref = `${target.namespace}/${target.name}`;
  if (detail.loading)
    return { placeholder: <LinearProgress aria-label={`loading ${word}`} /> };
  // Gone after a deletion (or deleted elsewhere) while the page was open.
  if (
    detail.value &&
    detail.error instanceof RunwayApiError &&
    detail.error.status === 404
  )
    return {
      placeholder: (
        <Alert
          severity="success"
          action={
            <Button component={RouterLink} to={back.to}>
              {back.label}
            </Button>
          }
        >
          {word[0].toUpperCase()}
          {word.slice(1)} {ref} is deleted from cluster {target.cluster}.
        </Alert>
      ),
    };
  if (!detail.value)
    return {
      placeholder: (
        <ErrorAlert
          error={detail.error ?? new Error('not found')}
          title={`Could not load ${word} ${ref} in ${target.cluster}`}
        />
      ),
    };
  const answer = detail.value;
  return {
    answer,
    layout: { kind, target, answer, reloadError: detail.error },
  };
}

/** Edit, a link to the kind's form; disabled without the permission or while being deleted. */
export function EditAction(props: {
  kind: RunwayKind;
  target: ResourceRef;
  terminating: boolean;
  to: string;
}) {
  return (
    <PermissionGate
      permission={runwayPermissions[props.kind].update}
      resource={props.target}
    >
      {allowed =>
        allowed && !props.terminating ? (
          <Button component={RouterLink} to={props.to}>
            Edit
          </Button>
        ) : (
          <Button disabled>Edit</Button>
        )
      }
    </PermissionGate>
  );
}

/** Delete after a confirmation saying what goes (`children`); a failure is shown in the dialog. */
export function DeleteAction(props: {
  kind: RunwayKind;
  target: ResourceRef;
  terminating: boolean;
  /** The dialog's title, the question ("Delete stack chat?"). */
  title: string;
  children: ReactNode;
  /** Called once the backend accepted the deletion (the page reloads). */
  onDeleted: () => void;
}) {
  const { kind, target, terminating } = props;
  const api = useApi(runwayApiRef);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.delete(kind, target);
      setConfirm(false);
      props.onDeleted();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PermissionGate
        permission={runwayPermissions[kind].delete}
        resource={target}
      >
        {allowed => (
          <Button
            color="error"
            disabled={!allowed || terminating}
            onClick={() => setConfirm(true)}
          >
            {terminating ? 'Deleting…' : 'Delete'}
          </Button>
        )}
      </PermissionGate>
      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        aria-labelledby="runway-delete-title"
      >
        <DialogTitle id="runway-delete-title">{props.title}</DialogTitle>
        <DialogContent>
          <DialogContentText>{props.children}</DialogContentText>
          {error && <ErrorAlert error={error} title="Delete failed" />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            onClick={remove}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Edit and Delete side by side, as most kinds' header has them. */
export function EditAndDelete(props: {
  kind: RunwayKind;
  target: ResourceRef;
  terminating: boolean;
  editTo: string;
  deleteTitle: string;
  /** What the deletion removes, said in its confirmation. */
  children: ReactNode;
  onDeleted: () => void;
}) {
  const { editTo, deleteTitle, children, onDeleted, ...resource } = props;
  return (
    <>
      <EditAction {...resource} to={editTo} />
      <DeleteAction {...resource} title={deleteTitle} onDeleted={onDeleted}>
        {children}
      </DeleteAction>
    </>
  );
}

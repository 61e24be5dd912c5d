import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import {
  type Model,
  MODEL_ANNOTATIONS,
  modelDownloadJobName,
  modelPvcName,
  modelSourceText,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  type ResourceRef,
  RunwayApiError,
  runwayApiRef,
} from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { useDetailPolling } from '../../hooks/useHealthPolling';
import { useRunwayData } from '../../hooks/useRunwayData';
import { downloadView } from '../../lib/modelDetail';
import { formatAge } from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate } from '../common/PermissionGate';
import { DETAIL_TICK_MS, useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { DetailLayout } from '../detail/DetailLayout';
import { PodLogs, useLogsPermissionAhead } from '../detail/PodLogs';
import { CopyButton, OverviewFact, OverviewFacts } from '../detail/parts';
import {
  ConditionsTimeline,
  EventsList,
  UpstreamObjects,
  YamlSection,
} from '../detail/sections';

/** The download's progress: a bar with its percent, bytes, speed and time left. */
function Progress({ model }: { model: Model & KubeObject }) {
  const view = downloadView(model.status ?? {});
  if (view.percent === undefined) return <>not started yet</>;
  return (
    <Stack spacing={0.5} aria-label="download progress">
      <Stack direction="row" spacing={1} alignItems="center">
        <LinearProgress
          variant="determinate"
          value={view.percent}
          aria-label={`${view.percent}% downloaded`}
          sx={{ flex: 1, minWidth: 120 }}
        />
        <span>{view.percent}%</span>
      </Stack>
      <Box component="span" sx={{ color: 'text.secondary', fontSize: 13 }}>
        {[view.bytes, view.speed, view.eta].filter(Boolean).join(' · ')}
      </Box>
    </Stack>
  );
}

/** One Model: its download and where it is kept, then conditions, events, PVC and Job, pods and YAML. */
export function ModelDetail({ target }: { target: ResourceRef }) {
  const api = useApi(runwayApiRef);
  const links = useRunwayLinks();
  // Ages here are shown in seconds at first: tick often enough for them to move.
  const now = useNow(DETAIL_TICK_MS);
  const detail = useRunwayData(
    a => a.get('models', target),
    [target.cluster, target.namespace, target.name],
    ['models'],
  );
  useDetailPolling(detail.refresh, detail.value?.object?.status?.phase);
  useLogsPermissionAhead(target);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<Error>();

  if (detail.loading) return <LinearProgress aria-label="loading model" />;
  if (
    detail.value &&
    detail.error instanceof RunwayApiError &&
    detail.error.status === 404
  )
    return (
      <Alert
        severity="success"
        action={
          <Button component={RouterLink} to={links.dashboard('models')}>
            Back to models
          </Button>
        }
      >
        Model {target.namespace}/{target.name} is deleted from cluster{' '}
        {target.cluster}.
      </Alert>
    );
  if (!detail.value)
    return (
      <ErrorAlert
        error={detail.error ?? new Error('not found')}
        title={`Could not load model ${target.namespace}/${target.name} in ${target.cluster}`}
      />
    );

  const { object, conditions, events, owned, errors, clusters } = detail.value;
  const model = object as Model & KubeObject;
  const spec = model.spec ?? ({} as Partial<Model['spec']>);
  const status = model.status ?? {};
  const terminating = Boolean(model.metadata?.deletionTimestamp);
  const phase = terminating ? 'Terminating' : status.phase ?? 'Pending';
  const name = model.metadata?.name ?? target.name;
  const injectSnippet = `metadata:\n  annotations:\n    ${MODEL_ANNOTATIONS.inject}: ${name}`;

  return (
    <>
      <DetailLayout
        title={name}
        kind="models"
        target={target}
        phase={phase}
        message={status.message}
        notices={
          <>
            {detail.error && (
              <ErrorAlert
                error={detail.error}
                title="Showing the last known state: reload failed"
              />
            )}
            {deleteError && (
              <ErrorAlert error={deleteError} title="Delete failed" />
            )}
            <ClusterErrors errors={errors} clusters={clusters} />
          </>
        }
        actions={
          <>
            <PermissionGate
              permission={runwayPermissions.models.update}
              resource={target}
            >
              {allowed =>
                allowed && !terminating ? (
                  <Button
                    component={RouterLink}
                    to={`${links.of(
                      'models',
                      target.cluster,
                      target.namespace,
                      target.name,
                    )}/edit`}
                  >
                    Edit
                  </Button>
                ) : (
                  <Button disabled>Edit</Button>
                )
              }
            </PermissionGate>
            <PermissionGate
              permission={runwayPermissions.models.delete}
              resource={target}
            >
              {allowed => (
                <Button
                  color="error"
                  disabled={!allowed || terminating}
                  onClick={() => setConfirmDelete(true)}
                >
                  Delete
                </Button>
              )}
            </PermissionGate>
          </>
        }
        overview={
          <OverviewFacts>
            <OverviewFact name="Source" wide>
              {modelSourceText(spec.source) ?? 'none'}
            </OverviewFact>
            <OverviewFact name="Progress" wide>
              <Progress model={model} />
            </OverviewFact>
            <OverviewFact name="Storage">
              {spec.storage?.size} · {spec.storage?.storageClass}
              {spec.storage?.accessModes?.length
                ? ` · ${spec.storage.accessModes.join(', ')}`
                : ''}
            </OverviewFact>
            <OverviewFact name="PVC and Job">
              {status.pvcName ?? modelPvcName(name)} ·{' '}
              {modelDownloadJobName(name)}
            </OverviewFact>
            <OverviewFact name="Age">
              {formatAge(
                Date.parse(model.metadata?.creationTimestamp ?? ''),
                now,
              )}
            </OverviewFact>
            {spec.credentialsSecret && (
              <OverviewFact name="Credentials Secret">
                {spec.credentialsSecret}
              </OverviewFact>
            )}
            <OverviewFact name="Use it in a pod" wide>
              <Stack direction="row" spacing={0.5} alignItems="center">
                <Box component="code" sx={{ fontSize: 12 }}>
                  {MODEL_ANNOTATIONS.inject}: {name}
                </Box>
                <CopyButton
                  text={injectSnippet}
                  label="Copy the injection annotation"
                />
              </Stack>
            </OverviewFact>
          </OverviewFacts>
        }
        sections={[
          {
            id: 'conditions',
            label: 'Conditions',
            count: conditions.length,
            content: <ConditionsTimeline conditions={conditions} />,
          },
          {
            id: 'events',
            label: 'Events',
            count: events.length,
            content: <EventsList events={events} />,
          },
          {
            id: 'objects',
            label: 'PVC and Job',
            count: owned.length,
            content: (
              <UpstreamObjects
                objects={owned}
                empty={`The model operator has not created PVC ${modelPvcName(
                  name,
                )} or Job ${modelDownloadJobName(name)} yet.`}
              />
            ),
          },
          {
            id: 'pods',
            label: 'Pods',
            content: <PodLogs kind="models" target={target} />,
          },
          {
            id: 'yaml',
            label: 'YAML',
            content: <YamlSection object={model} />,
          },
        ]}
      />
      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        aria-labelledby="runway-delete-model-title"
      >
        <DialogTitle id="runway-delete-model-title">
          Delete model {name}?
        </DialogTitle>
        <DialogContent>
          Its PVC {modelPvcName(name)} and the downloaded files in cluster{' '}
          {target.cluster} are removed; pods that mount it keep running but new
          ones cannot start with it.
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
          <Button
            color="error"
            onClick={async () => {
              setConfirmDelete(false);
              setDeleteError(undefined);
              try {
                await api.delete('models', target);
                detail.refresh();
              } catch (err) {
                setDeleteError(err as Error);
              }
            }}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

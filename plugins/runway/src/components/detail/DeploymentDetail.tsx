import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Box from '@mui/material/Box';
import {
  type ModelDeployment,
  resolveServedName,
  runwayChatSendPermission,
} from '@runway-portal/plugin-runway-common';
import { Link as RouterLink } from 'react-router-dom';
import { type ResourceRef, RunwayApiError } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { useDetailPolling } from '../../hooks/useHealthPolling';
import { useRunwayData } from '../../hooks/useRunwayData';
import {
  type EndpointInfo,
  endpointInfo,
  gatewayNotice,
} from '../../lib/endpoint';
import { errorsBeyondState, freshnessOf } from '../../lib/clusters';
import { formatAge } from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import { useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { DeploymentActions } from './DeploymentActions';
import { DetailLayout } from './DetailLayout';
import { EndpointDetails } from './EndpointDetails';
import { PodLogs, useLogsPermissionAhead } from './PodLogs';
import { TryIt } from './TryIt';
import { useRunwayPermission } from '../common/PermissionGate';
import { CopyButton, OverviewFact, OverviewFacts } from './parts';
import {
  ConditionsTimeline,
  EventsList,
  UpstreamObjects,
  YamlSection,
} from './sections';

function withReason(value: string | undefined, reason: string | undefined) {
  if (!value) return 'not selected yet';
  return reason ? `${value} — ${reason}` : value;
}

/** The endpoint in one line: the Gateway's URL when there is one, else the Service's, with its example request. */
function EndpointFact({ info }: { info: EndpointInfo }) {
  const primary = info.gateway ?? info.service;
  if (!primary) return <>none yet (see the Endpoint tab)</>;
  return (
    <Stack direction="row" alignItems="center" spacing={0.5} flexWrap="wrap">
      <Box component="code" sx={{ wordBreak: 'break-all' }}>
        {primary.url}
      </Box>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {info.gateway ? '(Gateway)' : '(Service, in-cluster)'}
      </Box>
      <CopyButton text={primary.curl} label="Copy how to call it" />
    </Stack>
  );
}

/** One deployment: overview first, then endpoint, conditions, events, upstream objects, logs and YAML as tabs. */
export function DeploymentDetail({ target }: { target: ResourceRef }) {
  const now = useNow();
  const links = useRunwayLinks();
  const detail = useRunwayData(
    a => a.get('deployments', target),
    [target.cluster, target.namespace, target.name],
  );
  useDetailPolling(detail.refresh, detail.value?.object?.status?.phase);
  // Try it is shown only to who may send chat requests there.
  const chat = useRunwayPermission(runwayChatSendPermission, target);
  useLogsPermissionAhead(target);

  if (detail.loading) return <LinearProgress aria-label="loading deployment" />;
  // Gone after a deletion (or deleted elsewhere) while the page was open.
  if (
    detail.value &&
    detail.error instanceof RunwayApiError &&
    detail.error.status === 404
  )
    return (
      <Alert
        severity="success"
        action={
          <Button component={RouterLink} to={links.root}>
            Back to deployments
          </Button>
        }
      >
        Deployment {target.namespace}/{target.name} is deleted from cluster{' '}
        {target.cluster}.
      </Alert>
    );
  if (!detail.value)
    return (
      <ErrorAlert
        error={detail.error ?? new Error('not found')}
        title={`Could not load deployment ${target.namespace}/${target.name} in ${target.cluster}`}
      />
    );

  const { object, conditions, events, owned, errors, clusters } = detail.value;
  const cluster = freshnessOf(detail.value, target.cluster);
  const md = object as ModelDeployment & KubeObject;
  const status = md.status ?? {};
  const terminating = Boolean(md.metadata?.deletionTimestamp);
  const phase = terminating ? 'Terminating' : status.phase ?? 'Pending';
  const info = endpointInfo(md);
  const finalizers = md.metadata?.finalizers ?? [];

  return (
    <DetailLayout
      title={md.metadata?.name ?? target.name}
      kind="deployments"
      target={target}
      phase={phase}
      message={status.message}
      cluster={cluster}
      notices={
        <>
          {detail.error && (
            <ErrorAlert
              error={detail.error}
              title="Showing the last known state: reload failed"
            />
          )}
          <ClusterErrors
            errors={errorsBeyondState(errors, cluster)}
            clusters={clusters}
          />
        </>
      }
      actions={
        <DeploymentActions
          target={target}
          deployment={md}
          onChanged={detail.refresh}
        />
      }
      overview={
        <OverviewFacts>
          <OverviewFact name="Model">{md.spec?.model?.id}</OverviewFact>
          <OverviewFact name="Replicas">
            {status.replicas?.ready ?? 0} ready /{' '}
            {status.replicas?.desired ?? md.spec?.scaling?.replicas ?? 0}{' '}
            desired
          </OverviewFact>
          <OverviewFact name="Age">
            {formatAge(Date.parse(md.metadata?.creationTimestamp ?? ''), now)}
          </OverviewFact>
          <OverviewFact name="Engine">
            {withReason(
              status.engine?.type ?? md.spec?.engine?.type,
              status.engine?.selectedReason,
            )}
          </OverviewFact>
          <OverviewFact name="Provider" wide>
            {withReason(
              status.provider?.name ?? md.spec?.provider?.name,
              status.provider?.selectedReason,
            )}
          </OverviewFact>
          <OverviewFact name="Endpoint" wide>
            <EndpointFact info={info} />
          </OverviewFact>
          {terminating && (
            <OverviewFact name="Deletion" wide>
              {finalizers.length > 0
                ? `waiting for ${finalizers.length} finalizer${
                    finalizers.length === 1 ? '' : 's'
                  }: ${finalizers.join(', ')}`
                : 'finalizers done; the API server removes it now'}
            </OverviewFact>
          )}
        </OverviewFacts>
      }
      sections={[
        {
          id: 'endpoint',
          label: 'Endpoint',
          content: (
            <EndpointDetails info={info} notice={gatewayNotice(conditions)} />
          ),
        },
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
          label: 'Upstream objects',
          count: owned.length,
          content: (
            <UpstreamObjects
              objects={owned}
              empty={
                status.provider?.resourceKind
                  ? `${status.provider.resourceKind} ${
                      status.provider.resourceName ?? ''
                    } is not visible to the portal yet.`
                  : 'The provider has not created its resource yet.'
              }
            />
          ),
        },
        {
          id: 'logs',
          label: 'Logs',
          content: <PodLogs kind="deployments" target={target} />,
        },
        ...(chat.allowed
          ? [
              {
                id: 'try',
                label: 'Try it',
                content: (
                  <TryIt
                    target={target}
                    phase={phase}
                    model={
                      status.gateway?.modelName ??
                      (md.spec ? resolveServedName(md.spec) : undefined)
                    }
                  />
                ),
              },
            ]
          : []),
        { id: 'yaml', label: 'YAML', content: <YamlSection object={md} /> },
      ]}
    />
  );
}

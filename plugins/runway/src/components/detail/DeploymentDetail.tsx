import Stack from '@mui/material/Stack';
import Box from '@mui/material/Box';
import {
  type ModelDeployment,
  resolveServedName,
  runwayChatSendPermission,
} from '@runway-portal/plugin-runway-common';
import type { ResourceRef } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { resourcePhase } from '../../lib/detail';
import {
  type EndpointInfo,
  endpointInfo,
  gatewayNotice,
} from '../../lib/endpoint';
import { useRunwayPermission } from '../common/PermissionGate';
import { DeploymentActions } from './DeploymentActions';
import { DetailLayout } from './DetailLayout';
import { EndpointDetails } from './EndpointDetails';
import { PodLogs, useLogsPermissionAhead } from './PodLogs';
import { useResourceDetail } from './resourceDetail';
import { TryIt } from './TryIt';
import { AgeFact, CopyButton, OverviewFact, OverviewFacts } from './parts';

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
  const { detail, loaded } = useResourceDetail('deployments', target);
  // Try it is shown only to who may send chat requests there.
  const chat = useRunwayPermission(runwayChatSendPermission, target);
  useLogsPermissionAhead(target);

  if ('placeholder' in loaded) return loaded.placeholder;
  const { answer } = loaded;
  const md = answer.object as ModelDeployment & KubeObject;
  const status = md.status ?? {};
  const { phase, terminating } = resourcePhase(md);
  const info = endpointInfo(md);
  const finalizers = md.metadata?.finalizers ?? [];

  return (
    <DetailLayout
      {...loaded.layout}
      message={status.message}
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
          <AgeFact object={md} />
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
      leading={[
        {
          id: 'endpoint',
          label: 'Endpoint',
          content: (
            <EndpointDetails
              info={info}
              notice={gatewayNotice(answer.conditions)}
            />
          ),
        },
      ]}
      objects={{
        label: 'Upstream objects',
        empty: status.provider?.resourceKind
          ? `${status.provider.resourceKind} ${
              status.provider.resourceName ?? ''
            } is not visible to the portal yet.`
          : 'The provider has not created its resource yet.',
      }}
      trailing={[
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
      ]}
    />
  );
}

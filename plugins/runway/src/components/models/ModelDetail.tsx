import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import {
  type Model,
  MODEL_ANNOTATIONS,
  modelDownloadJobName,
  modelPvcName,
  modelSourceText,
} from '@runway-portal/plugin-runway-common';
import type { ResourceRef } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { resourcePhase } from '../../lib/detail';
import { downloadView } from '../../lib/modelDetail';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { DetailLayout } from '../detail/DetailLayout';
import { PodLogs, useLogsPermissionAhead } from '../detail/PodLogs';
import {
  AgeFact,
  CopyButton,
  OverviewFact,
  OverviewFacts,
} from '../detail/parts';
import { EditAndDelete, useResourceDetail } from '../detail/resourceDetail';

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
  const links = useRunwayLinks();
  const { detail, loaded } = useResourceDetail('models', target);
  useLogsPermissionAhead(target);

  if ('placeholder' in loaded) return loaded.placeholder;
  const { answer } = loaded;
  const model = answer.object as Model & KubeObject;
  const spec = model.spec ?? ({} as Partial<Model['spec']>);
  const status = model.status ?? {};
  const { terminating } = resourcePhase(model);
  const name = model.metadata?.name ?? target.name;
  const injectSnippet = `metadata:\n  annotations:\n    ${MODEL_ANNOTATIONS.inject}: ${name}`;

  return (
    <DetailLayout
      {...loaded.layout}
      message={status.message}
      actions={
        <EditAndDelete
          kind="models"
          target={target}
          terminating={terminating}
          editTo={`${links.of(
            'models',
            target.cluster,
            target.namespace,
            target.name,
          )}/edit`}
          deleteTitle={`Delete model ${name}?`}
          onDeleted={detail.refresh}
        >
          Its PVC {modelPvcName(name)} and the downloaded files in cluster{' '}
          {target.cluster} are removed; pods that mount it keep running but new
          ones cannot start with it.
        </EditAndDelete>
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
          <AgeFact object={model} />
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
      objects={{
        label: 'PVC and Job',
        empty: `The model operator has not created PVC ${modelPvcName(
          name,
        )} or Job ${modelDownloadJobName(name)} yet.`,
      }}
      trailing={[
        {
          id: 'pods',
          label: 'Pods',
          content: <PodLogs kind="models" target={target} />,
        },
      ]}
    />
  );
}

/**
 * The logs of a resource's pods through the runway backend (permission
 * runway.logs.read): pod and container pickers, a bounded tail, follow
 * (server-sent events, closed when the section closes) and the previous
 * container's log after a restart.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useApi } from '@backstage/core-plugin-api';
import {
  LOG_TAIL_DEFAULT,
  type RunwayKind,
  runwayLogsReadPermission,
} from '@runway-portal/plugin-runway-common';
import { useEffect, useRef, useState } from 'react';
import { type ResourceRef, runwayApiRef } from '../../api/RunwayApi';
import { useRunwayData } from '../../hooks/useRunwayData';
import { ErrorAlert } from '../common/ErrorAlert';
import { useRunwayPermission } from '../common/PermissionGate';

/** The most lines the page keeps while following (older ones scroll away): a huge log never fills the browser. */
export const MAX_LINES_ON_PAGE = 5000;
const TAIL_CHOICES = [100, LOG_TAIL_DEFAULT, 1000, 5000];

interface LogState {
  lines: string[];
  loading: boolean;
  error?: Error;
  ended?: boolean;
  truncated?: boolean;
}

export function PodLogs({
  kind,
  target,
}: {
  kind: RunwayKind;
  target: ResourceRef;
}) {
  const access = useRunwayPermission(runwayLogsReadPermission, target);
  if (access.loading) return <LinearProgress aria-label="checking access" />;
  if (!access.allowed)
    return (
      <Alert severity="info">
        {access.reason ?? 'You may not read the logs of this resource.'}
      </Alert>
    );
  return <PodLogsView kind={kind} target={target} />;
}

function PodLogsView({
  kind,
  target,
}: {
  kind: RunwayKind;
  target: ResourceRef;
}) {
  const api = useApi(runwayApiRef);
  const pods = useRunwayData(
    a => a.pods(kind, target),
    [kind, target.cluster, target.namespace, target.name],
    [kind],
  );
  const [podName, setPodName] = useState<string>();
  const [containerName, setContainerName] = useState<string>();
  const [tailLines, setTailLines] = useState(LOG_TAIL_DEFAULT);
  const [follow, setFollow] = useState(true);
  const [previous, setPrevious] = useState(false);
  const [log, setLog] = useState<LogState>({ lines: [], loading: false });
  const [generation, setGeneration] = useState(0);
  const end = useRef<HTMLDivElement>(null);

  const list = pods.value?.pods ?? [];
  const pod = list.find(p => p.name === podName) ?? list[0];
  const container =
    pod?.containers.find(c => c.name === containerName) ?? pod?.containers[0];
  const canPrevious = Boolean(container?.hasPrevious);
  const asPrevious = previous && canPrevious;
  const following = follow && !asPrevious;

  useEffect(() => {
    if (!pod || !container) return undefined;
    const controller = new AbortController();
    const options = {
      container: container.name,
      tailLines,
      previous: asPrevious,
    };
    setLog({ lines: [], loading: true });
    if (following) {
      api
        .followLog(
          kind,
          target,
          pod.name,
          { ...options, signal: controller.signal },
          lines =>
            setLog(s => ({
              lines: [...s.lines, ...lines].slice(-MAX_LINES_ON_PAGE),
              loading: false,
            })),
        )
        .then(
          () =>
            !controller.signal.aborted &&
            setLog(s => ({ ...s, loading: false, ended: true })),
          error =>
            !controller.signal.aborted &&
            setLog(s => ({ ...s, loading: false, error })),
        );
    } else {
      api.log(kind, target, pod.name, options).then(
        answer =>
          !controller.signal.aborted &&
          setLog({
            lines: answer.lines,
            loading: false,
            truncated: answer.truncated,
          }),
        error =>
          !controller.signal.aborted &&
          setLog({ lines: [], loading: false, error }),
      );
    }
    return () => controller.abort();
    // The pod's object changes with every status update; its name and container are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    api,
    kind,
    target.cluster,
    target.namespace,
    target.name,
    pod?.name,
    container?.name,
    tailLines,
    asPrevious,
    following,
    generation,
  ]);

  useEffect(() => {
    if (following) end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [log.lines, following]);

  if (pods.loading) return <LinearProgress aria-label="loading pods" />;
  if (!pods.value)
    return (
      <ErrorAlert
        error={pods.error ?? new Error('no answer')}
        title="Could not list the pods"
      />
    );
  if (list.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        No pods yet: the provider has not started any pod for this resource
        {pods.value.selectors.length > 0
          ? ` (looked for pods matching ${pods.value.selectors.join('; ')})`
          : ''}
        .
      </Typography>
    );

  return (
    <Box>
      <Stack
        direction="row"
        spacing={2}
        alignItems="center"
        flexWrap="wrap"
        useFlexGap
        sx={{ mb: 1 }}
      >
        <TextField
          select
          size="small"
          label="Pod"
          value={pod?.name ?? ''}
          onChange={e => {
            setPodName(e.target.value);
            setContainerName(undefined);
            setPrevious(false);
          }}
          sx={{ minWidth: 240 }}
        >
          {list.map(p => (
            <MenuItem key={p.name} value={p.name}>
              {p.name} ({p.phase})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Container"
          value={container?.name ?? ''}
          onChange={e => {
            setContainerName(e.target.value);
            setPrevious(false);
          }}
          sx={{ minWidth: 180 }}
        >
          {(pod?.containers ?? []).map(c => (
            <MenuItem key={c.name} value={c.name}>
              {c.name} ({c.state}
              {c.restartCount > 0 ? `, ${c.restartCount} restarts` : ''})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Last lines"
          value={tailLines}
          onChange={e => setTailLines(Number(e.target.value))}
          sx={{ minWidth: 120 }}
        >
          {TAIL_CHOICES.map(n => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={following}
              disabled={asPrevious}
              onChange={e => setFollow(e.target.checked)}
            />
          }
          label="Follow"
        />
        <FormControlLabel
          control={
            <Switch
              checked={asPrevious}
              disabled={!canPrevious}
              onChange={e => setPrevious(e.target.checked)}
            />
          }
          label="Previous container"
        />
        <Button size="small" onClick={() => setGeneration(g => g + 1)}>
          Reload
        </Button>
      </Stack>
      {log.loading && <LinearProgress aria-label="loading log" />}
      {log.error && (
        <ErrorAlert error={log.error} title="Could not read the log" />
      )}
      {log.truncated && (
        <Alert severity="info" sx={{ mb: 1 }}>
          The log was cut at the size limit: ask for fewer lines to see whole
          lines.
        </Alert>
      )}
      {!log.loading && !log.error && log.lines.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {following
            ? 'No log lines yet: waiting for the container to write some.'
            : 'No log lines: the container has not written anything.'}
        </Typography>
      )}
      {log.lines.length > 0 && (
        <Box
          component="pre"
          aria-label="log lines"
          tabIndex={0}
          sx={{
            bgcolor: 'grey.900',
            color: 'grey.100',
            p: 1.5,
            m: 0,
            borderRadius: 1,
            fontSize: 12,
            lineHeight: 1.5,
            maxHeight: 480,
            overflow: 'auto',
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
          }}
        >
          {log.lines.join('\n')}
          <div ref={end} />
        </Box>
      )}
      {log.ended && (
        <Typography variant="caption" color="text.secondary">
          The log ended (the container stopped). Reload to read it again.
        </Typography>
      )}
    </Box>
  );
}

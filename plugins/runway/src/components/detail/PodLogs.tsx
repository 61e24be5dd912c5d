/**
 * The logs of a resource's pods through the runway backend (permission
 * runway.logs.read): pod and container pickers, a bounded tail, follow
 * (server-sent events, closed when the section closes) and the previous
 * container's log after a restart. Opening it is one request: the
 * resource's log brings its pods along (the backend shows the first pod's
 * first container); choosing another pod or container asks for that one.
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
  type PodsAnswer,
  type RunwayKind,
  runwayLogsReadPermission,
} from '@runway-portal/plugin-runway-common';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ResourceRef, runwayApiRef } from '../../api/RunwayApi';
import { useRunwayChanges } from '../../hooks/useRunwayData';
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

/**
 * Asks for runway.logs.read as the detail page opens: the answer is cached
 * (by `usePermission`), so the Logs tab shows its first lines without
 * waiting for a permission round trip first.
 */
export function useLogsPermissionAhead(target: ResourceRef): void {
  useRunwayPermission(runwayLogsReadPermission, target);
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

/** A pod and container whose log is shown. */
interface Shown {
  pod: string;
  container?: string;
}

function PodLogsView({
  kind,
  target,
}: {
  kind: RunwayKind;
  target: ResourceRef;
}) {
  const api = useApi(runwayApiRef);
  // The pods come with the first answer of the log (one request), then again when the resource changes.
  const [pods, setPods] = useState<PodsAnswer>();
  const [podsError, setPodsError] = useState<Error>();
  /** The pod and container the user chose; unset, the backend's choice (the first pod's first container). */
  const [chosen, setChosen] = useState<Shown>();
  /** The backend's choice, once its first answer came: later requests stay on that pod. */
  const [picked, setPicked] = useState<Shown>();
  const pickedRef = useRef<Shown>();
  const [tailLines, setTailLines] = useState(LOG_TAIL_DEFAULT);
  const [follow, setFollow] = useState(true);
  const [previous, setPrevious] = useState(false);
  const [log, setLog] = useState<LogState>({ lines: [], loading: true });
  const [generation, setGeneration] = useState(0);
  const end = useRef<HTMLDivElement>(null);

  const list = pods?.pods ?? [];
  const shown = chosen ?? picked;
  const pod = list.find(p => p.name === shown?.pod) ?? list[0];
  const container =
    pod?.containers.find(c => c.name === shown?.container) ??
    pod?.containers[0];
  const canPrevious = Boolean(container?.hasPrevious);
  const asPrevious = previous && canPrevious;
  const following = follow && !asPrevious;
  const shownPod = useRef<string>();
  shownPod.current = shown?.pod;
  /** A request for the resource's log has not answered yet (its pods are on their way). */
  const opening = useRef(false);

  const pick = (next: Shown | undefined) => {
    pickedRef.current = next;
    setPicked(next);
  };
  const started = (answer: {
    pods: PodsAnswer;
    pod?: string;
    container?: string;
  }) => {
    opening.current = false;
    setPods(answer.pods);
    setPodsError(undefined);
    pick(
      answer.pod ? { pod: answer.pod, container: answer.container } : undefined,
    );
  };

  const refreshPods = useCallback(() => {
    api.pods(kind, target).then(
      answer => {
        setPods(answer);
        setPodsError(undefined);
        const name = shownPod.current;
        if (
          name === undefined
            ? answer.pods.length > 0 && !opening.current
            : !answer.pods.some(p => p.name === name)
        ) {
          // A first pod came, or the one shown went: show the backend's choice again.
          setChosen(undefined);
          pick(undefined);
          setGeneration(g => g + 1);
        }
      },
      error => setPodsError(error),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, kind, target.cluster, target.namespace, target.name]);
  useRunwayChanges([kind], refreshPods);

  useEffect(() => {
    const controller = new AbortController();
    // The first request asks for the resource's log (its pods come along); later ones for the pod shown.
    const at = chosen ?? pickedRef.current;
    const options = {
      container: at?.container,
      tailLines,
      previous: asPrevious,
    };
    const live = () => !controller.signal.aborted;
    opening.current = !at;
    const failed = (error: Error) => {
      if (!live()) return;
      opening.current = false;
      setLog(s => ({ ...s, loading: false, error }));
    };
    setLog({ lines: [], loading: true });
    if (following) {
      api
        .followLog(
          kind,
          target,
          at?.pod,
          {
            ...options,
            signal: controller.signal,
            onStart: start => live() && started(start),
          },
          lines =>
            setLog(s => ({
              lines: [...s.lines, ...lines].slice(-MAX_LINES_ON_PAGE),
              loading: false,
            })),
        )
        .then(
          () => live() && setLog(s => ({ ...s, loading: false, ended: true })),
          failed,
        );
    } else {
      const read = at
        ? api.log(kind, target, at.pod, options)
        : api.resourceLog(kind, target, options).then(answer => {
            if (live())
              started({
                pods: answer.pods,
                pod: answer.log?.pod,
                container: answer.log?.container,
              });
            return answer.log;
          });
      read.then(
        answer =>
          live() &&
          setLog({
            lines: answer?.lines ?? [],
            loading: false,
            truncated: answer?.truncated,
          }),
        failed,
      );
    }
    return () => controller.abort();
    // The pod shown after the first answer is read from a ref: that answer must not start a second request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    api,
    kind,
    target.cluster,
    target.namespace,
    target.name,
    chosen?.pod,
    chosen?.container,
    tailLines,
    asPrevious,
    following,
    generation,
  ]);

  useEffect(() => {
    if (following) end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [log.lines, following]);

  if (!pods) {
    if (log.error || podsError)
      return (
        <ErrorAlert
          error={(log.error ?? podsError)!}
          title="Could not read the log"
        />
      );
    return <LinearProgress aria-label="loading log" />;
  }
  if (list.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        No pods yet: the provider has not started any pod for this resource
        {pods.selectors.length > 0
          ? ` (looked for pods matching ${pods.selectors.join('; ')})`
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
            setChosen({ pod: e.target.value });
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
            setChosen({ pod: pod!.name, container: e.target.value });
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

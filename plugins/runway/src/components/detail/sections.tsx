/** The sections every detail page shares (see DetailLayout). */
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { KubeCondition, KubeObject } from '../../api/types';
import { aggregateEvents } from '../../lib/detail';
import { conditionTimeline } from '../../lib/endpoint';
import { formatAge } from '../../lib/rows';
import { DETAIL_TICK_MS, useNow } from '../common/useNow';
import { Yaml } from '../wizard/ReviewStep';

/** The colour of a condition's status. */
const CONDITION_COLOR: Record<string, 'success' | 'warning'> = {
  True: 'success',
  False: 'warning',
};

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}

function ago(time: number, now: number): string {
  return Number.isFinite(time) ? `${formatAge(time, now)} ago` : '';
}

/** Conditions as a timeline, the latest transition first. */
export function ConditionsTimeline({
  conditions,
}: {
  conditions: KubeCondition[];
}) {
  const now = useNow(DETAIL_TICK_MS);
  if (conditions.length === 0)
    return (
      <Empty>
        No conditions yet: the controllers have not processed this resource.
      </Empty>
    );
  return (
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
                ? `· ${ago(Date.parse(c.lastTransitionTime), now)}`
                : ''}
            </Typography>
          </Stack>
          {c.message && <Typography variant="body2">{c.message}</Typography>}
        </Box>
      ))}
    </Box>
  );
}

/** Events newest first, identical ones merged with their counts added, warnings highlighted. */
export function EventsList({ events }: { events: KubeObject[] }) {
  const now = useNow(DETAIL_TICK_MS);
  const rows = aggregateEvents(events);
  if (rows.length === 0) return <Empty>No events.</Empty>;
  return (
    <Table size="small" aria-label="events">
      <TableHead>
        <TableRow>
          <TableCell>Type</TableCell>
          <TableCell>Reason</TableCell>
          <TableCell>Object</TableCell>
          <TableCell>Message</TableCell>
          <TableCell align="right">Count</TableCell>
          <TableCell>Last seen</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(r => (
          <TableRow
            key={r.key}
            data-warning={r.warning || undefined}
            sx={r.warning ? { bgcolor: 'rgba(237, 108, 2, 0.08)' } : undefined}
          >
            <TableCell>
              {r.warning ? (
                <Chip size="small" color="warning" label="Warning" />
              ) : (
                r.type
              )}
            </TableCell>
            <TableCell>{r.reason}</TableCell>
            <TableCell>{r.object}</TableCell>
            <TableCell>{r.message}</TableCell>
            <TableCell align="right">{r.count}</TableCell>
            <TableCell>{ago(r.lastSeen, now)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The objects the resource's controllers created, one line each; a line's
 * YAML is rendered only when it is opened.
 */
export function UpstreamObjects({
  objects,
  empty = 'The controllers have not created any object yet.',
}: {
  objects: KubeObject[];
  /** What to say when there are none (for example which object is expected). */
  empty?: string;
}) {
  const now = useNow(DETAIL_TICK_MS);
  if (objects.length === 0) return <Empty>{empty}</Empty>;
  return (
    <Box aria-label="upstream objects">
      {objects.map(o => {
        const id = `${o.kind} ${o.metadata?.name}`;
        return (
          <Accordion
            key={`${o.apiVersion}/${o.kind}/${o.metadata?.name}`}
            disableGutters
            variant="outlined"
            TransitionProps={{ unmountOnExit: true }}
          >
            <AccordionSummary
              expandIcon={<span aria-hidden>▾</span>}
              aria-label={`${id} (show YAML)`}
            >
              <Stack direction="row" spacing={1} alignItems="baseline">
                <Typography variant="subtitle2">{o.kind}</Typography>
                <Typography variant="body2">{o.metadata?.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {o.apiVersion}
                  {o.metadata?.creationTimestamp
                    ? ` · created ${ago(
                        Date.parse(o.metadata.creationTimestamp),
                        now,
                      )}`
                    : ''}
                </Typography>
              </Stack>
            </AccordionSummary>
            <AccordionDetails>
              <Yaml value={o} label={`${id} YAML`} />
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}

/** The resource's own YAML (managedFields left out). */
export function YamlSection({ object }: { object: KubeObject }) {
  return <Yaml value={object} label={`${object.kind ?? 'resource'} YAML`} />;
}

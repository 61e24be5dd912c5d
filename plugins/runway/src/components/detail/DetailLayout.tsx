/**
 * The one detail layout every Runway kind uses: a compact header and
 * overview first (what an operator needs at a glance, within 1280×800),
 * then the rest as tabs, rendered only when opened, so a page never stacks
 * every object's YAML. The selected tab is kept in `?tab=` (links and
 * reloads land on it).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { RunwayKind } from '@runway-portal/plugin-runway-common';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ResourceRef } from '../../api/RunwayApi';
import type { DetailResponse } from '../../api/types';
import { errorsBeyondState, freshnessOf } from '../../lib/clusters';
import { isSettled, phaseMeaning, resourcePhase } from '../../lib/detail';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import { StaleNotice } from '../common/StaleNotice';

import {
  ConditionsTimeline,
  EventsList,
  UpstreamObjects,
  YamlSection,
} from './sections';

export {
  ConditionsTimeline,
  EventsList,
  UpstreamObjects,
  YamlSection,
} from './sections';
export { PodLogs } from './PodLogs';

/** One tab of a detail page; `count` shows next to its label (events, objects, pods). */
export interface DetailSection {
  id: string;
  label: string;
  count?: number;
  content: ReactNode;
}

export interface DetailLayoutProps {
  kind: RunwayKind;
  target: ResourceRef;
  /**
   * The resource's detail answer: its name is the heading, its phase the
   * chip (`Terminating` while being deleted); its conditions, events, owned
   * objects and YAML are the shared tabs; its clusters' errors and
   * freshness the notices.
   */
  answer: DetailResponse;
  /** A failed reload: the page shows the last known state and says so. */
  reloadError?: Error;
  /** The controller's message; shown while the phase is not Running or Ready. */
  message?: string;
  /** The kind's facts (see `OverviewFacts`). */
  overview: ReactNode;
  /** Buttons in the header (each behind its permission). */
  actions?: ReactNode;
  /** More notices under the header (a failed action). */
  notices?: ReactNode;
  /** The kind's own tabs, before Conditions. */
  leading?: DetailSection[];
  /** What the kind calls the objects its controllers created, and what to say while there are none. */
  objects: { label: string; empty: string };
  /** The kind's own tabs after the objects, before YAML. */
  trailing?: DetailSection[];
}

/** The tabs: the kind's own first, then Conditions, Events, the objects, more of the kind's, YAML. */
function sectionsOf(props: DetailLayoutProps): DetailSection[] {
  const { answer, objects } = props;
  const { conditions, events, owned } = answer;
  return [
    ...(props.leading ?? []),
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
      label: objects.label,
      count: owned.length,
      content: <UpstreamObjects objects={owned} empty={objects.empty} />,
    },
    ...(props.trailing ?? []),
    {
      id: 'yaml',
      label: 'YAML',
      content: <YamlSection object={answer.object} />,
    },
  ];
}

const SEVERITY = {
  error: 'error',
  warning: 'warning',
  info: 'info',
  success: 'info',
  default: 'info',
} as const;

export function DetailLayout(props: DetailLayoutProps) {
  const { kind, target, answer, message, overview, actions } = props;
  const title = answer.object.metadata?.name ?? target.name;
  const { phase } = resourcePhase(answer.object);
  const cluster = freshnessOf(answer, target.cluster);
  const sections = sectionsOf(props);
  const [params, setParams] = useSearchParams();
  const meaning = phaseMeaning(kind, phase);
  const requested = params.get('tab');
  const selected =
    sections.find(s => s.id === requested)?.id ?? sections[0]?.id ?? false;
  const current = sections.find(s => s.id === selected);

  return (
    <Box component="article" aria-label={`${title} detail`}>
      <Stack
        direction="row"
        spacing={1.5}
        alignItems="center"
        flexWrap="wrap"
        useFlexGap
        sx={{ mb: 1 }}
      >
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Chip
          size="small"
          label={phase || 'Unknown'}
          color={meaning.color}
          aria-label={`phase ${phase || 'Unknown'}`}
        />
        <Typography
          variant="body2"
          color={meaning.color === 'default' ? 'text.secondary' : undefined}
          sx={
            meaning.color === 'default'
              ? undefined
              : { color: `${meaning.color}.main` }
          }
          aria-label="phase meaning"
        >
          {meaning.meaning}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        {actions && (
          <Stack direction="row" spacing={1} aria-label="actions">
            {actions}
          </Stack>
        )}
      </Stack>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mb: 1 }}
        aria-label="location"
      >
        cluster <strong>{target.cluster}</strong> · namespace{' '}
        <strong>{target.namespace}</strong>
      </Typography>
      <StaleNotice freshness={cluster} />
      {props.reloadError && (
        <ErrorAlert
          error={props.reloadError}
          title="Showing the last known state: reload failed"
        />
      )}
      {props.notices}
      {/* The cluster's own no-answer errors are said once, by StaleNotice. */}
      <ClusterErrors
        errors={errorsBeyondState(answer.errors, cluster)}
        clusters={answer.clusters}
      />
      {message && !isSettled(phase) && (
        <Alert
          severity={SEVERITY[meaning.color]}
          sx={{ mb: 1 }}
          aria-label="status message"
        >
          {message}
        </Alert>
      )}
      <Card
        variant="outlined"
        component="section"
        aria-label="Overview"
        sx={{ mb: 2 }}
      >
        <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
          {overview}
        </CardContent>
      </Card>
      {sections.length > 0 && (
        <>
          <Tabs
            value={selected}
            onChange={(_e, id: string) => {
              const next = new URLSearchParams(params);
              next.set('tab', id);
              setParams(next, { replace: true });
            }}
            variant="scrollable"
            scrollButtons="auto"
            aria-label="sections"
            sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
          >
            {sections.map(s => (
              <Tab
                key={s.id}
                value={s.id}
                id={`runway-tab-${s.id}`}
                aria-controls={`runway-tabpanel-${s.id}`}
                label={
                  s.count === undefined ? s.label : `${s.label} (${s.count})`
                }
              />
            ))}
          </Tabs>
          {current && (
            <Box
              role="tabpanel"
              id={`runway-tabpanel-${current.id}`}
              aria-labelledby={`runway-tab-${current.id}`}
            >
              {current.content}
            </Box>
          )}
        </>
      )}
    </Box>
  );
}

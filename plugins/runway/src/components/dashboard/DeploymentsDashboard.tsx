import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import {
  RUNWAY_KINDS,
  type RunwayKind,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ListResponse } from '../../api/types';
import { useHealthPolling } from '../../hooks/useHealthPolling';
import { type AsyncData, useRunwayData } from '../../hooks/useRunwayData';
import {
  DASHBOARD_TABS,
  type DashboardTab,
  kindsOf,
  oldestFreshness,
  tabOf,
  uniqueErrors,
} from '../../lib/dashboard';
import {
  countByPhase,
  EMPTY_FILTER,
  filterOptions,
  filterRows,
  type RowFilter,
} from '../../lib/filters';
import {
  type DashboardRow,
  type DeploymentRow,
  type ModelRow,
  type StackRow,
  toRow,
  withStaleness,
} from '../../lib/rows';
import { ClusterErrors } from '../common/ClusterErrors';
import { ErrorAlert } from '../common/ErrorAlert';
import {
  DeployButton,
  type RunwayPermissionState,
  useRunwayPermissionAnywhere,
} from '../common/PermissionGate';
import { useNow } from '../common/useNow';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { ClusterSummary } from './ClusterSummary';
import {
  type Column,
  deploymentColumns,
  VirtualTable,
} from './DeploymentsTable';
import { Filters } from './Filters';
import { mixedColumns, modelColumns, stackColumns } from './kindColumns';

/** What each tab calls its rows, in the count line and the empty states. */
const WORDS: Record<DashboardTab, string> = {
  deployments: 'deployments',
  models: 'models',
  stacks: 'stacks',
  all: 'resources',
};

const PLACEHOLDERS: Record<DashboardTab, string> = {
  deployments: 'name, model, engine…',
  models: 'name, repository, bucket…',
  stacks: 'name, distribution, image…',
  all: 'name, model, image…',
};

const EMPTY_HINT: Record<DashboardTab, string> = {
  deployments: 'Deploy a model to see it here.',
  models: 'Add a model to download its files into the cluster once.',
  stacks: 'Create a stack to run a Llama Stack server.',
  all: 'Deploy a model to see it here.',
};

/** One list per kind, each reloaded on its own kind's signals. */
function useKindLists(): Record<RunwayKind, AsyncData<ListResponse>> {
  return {
    deployments: useRunwayData(
      api => api.list('deployments'),
      [],
      ['deployments'],
    ),
    models: useRunwayData(api => api.list('models'), [], ['models']),
    stacks: useRunwayData(api => api.list('stacks'), [], ['stacks']),
  };
}

/**
 * The multi-cluster dashboard: cluster summary, per-cluster errors, and the
 * deployments, models and stacks of every cluster in tabs (`?kind=`), with
 * the same filters and search on each.
 */
export function DeploymentsDashboard() {
  const links = useRunwayLinks();
  const [search, setSearch] = useSearchParams();
  const tab = tabOf(search.get('kind'));
  const lists = useKindLists();
  const clusters = useRunwayData(api => api.listClusters(), []);
  const somethingStale = [
    ...RUNWAY_KINDS.flatMap(k => lists[k].value?.clusters ?? []),
    ...(clusters.value?.clusters ?? []),
  ].some(c => c.stale || c.state === 'unreachable');
  // Stale rows show their age: tick every second while there are any.
  const now = useNow(somethingStale ? 1_000 : 30_000);
  useHealthPolling(
    [...RUNWAY_KINDS.map(k => lists[k].refresh), clusters.refresh],
    somethingStale,
  );
  const [filter, setFilter] = useState<RowFilter>(EMPTY_FILTER);

  const deploymentsValue = lists.deployments.value;
  const modelsValue = lists.models.value;
  const stacksValue = lists.stacks.value;
  const rowsByKind = useMemo(
    () => ({
      deployments: withStaleness(
        (deploymentsValue?.items ?? []).map(i =>
          toRow('deployments', i),
        ) as DeploymentRow[],
        deploymentsValue?.clusters,
      ),
      models: withStaleness(
        (modelsValue?.items ?? []).map(i => toRow('models', i)) as ModelRow[],
        modelsValue?.clusters,
      ),
      stacks: withStaleness(
        (stacksValue?.items ?? []).map(i => toRow('stacks', i)) as StackRow[],
        stacksValue?.clusters,
      ),
    }),
    [deploymentsValue, modelsValue, stacksValue],
  );
  const kinds = kindsOf(tab);
  const rows: DashboardRow[] = useMemo(
    () =>
      tab === 'all'
        ? [
            ...rowsByKind.deployments,
            ...rowsByKind.models,
            ...rowsByKind.stacks,
          ]
        : rowsByKind[tab],
    [tab, rowsByKind],
  );
  const knownClusters = useMemo(
    () => (clusters.value?.items ?? []).map(c => c.name),
    [clusters.value],
  );
  const options = useMemo(
    () => filterOptions(rows, knownClusters),
    [rows, knownClusters],
  );
  // The inputs update at once; the table follows as soon as React has time (typing stays smooth).
  const deferredFilter = useDeferredValue(filter);
  const visible = useMemo(
    () => filterRows(rows, deferredFilter),
    [rows, deferredFilter],
  );
  const phases = useMemo(() => countByPhase(visible), [visible]);
  const columns = useMemo((): Column<any>[] => {
    const link = (row: DashboardRow) =>
      links.of(row.kind, row.cluster, row.namespace, row.name);
    switch (tab) {
      case 'models':
        return modelColumns(link);
      case 'stacks':
        return stackColumns(link);
      case 'all':
        return mixedColumns(link);
      default:
        return deploymentColumns(link);
    }
  }, [links, tab]);

  // The errors of the lists shown and of the overview; each cluster's once.
  const shown = kinds.map(k => lists[k]);
  const errors = uniqueErrors(
    ...shown.map(l => l.value?.errors),
    clusters.value?.errors,
  );
  const freshness = oldestFreshness(...shown.map(l => l.value?.clusters));
  const loading = shown.some(l => l.loading);
  const answered = shown.every(l => l.value);

  const createPermission =
    runwayPermissions[tab === 'all' ? 'deployments' : tab].create;
  const createAccess = useRunwayPermissionAnywhere(
    createPermission,
    clusters.value?.items,
  );
  const create = createButton(tab, links, createAccess);
  const word = WORDS[tab];

  return (
    <Box>
      <Stack
        direction="row"
        justifyContent="space-between"
        alignItems="center"
        sx={{ mb: 2 }}
      >
        <Typography variant="h5" component="h1">
          {tab === 'all'
            ? 'Deployments, models and stacks'
            : DASHBOARD_TABS.find(t => t.tab === tab)?.title}
        </Typography>
        {create('contained')}
      </Stack>

      {clusters.value && (
        <ClusterSummary
          clusters={clusters.value.items}
          states={clusters.value.clusters}
        />
      )}
      {clusters.error && (
        <ErrorAlert
          error={clusters.error}
          title="Could not load the cluster summary"
        />
      )}

      <Tabs
        value={tab}
        onChange={(_e, next: DashboardTab) => {
          const params = new URLSearchParams(search);
          if (next === 'deployments') params.delete('kind');
          else params.set('kind', next);
          setSearch(params, { replace: true });
        }}
        aria-label="kinds"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {DASHBOARD_TABS.map(t => {
          const count = kindsOf(t.tab).reduce(
            (n, k) => n + (lists[k].value?.items.length ?? 0),
            0,
          );
          return (
            <Tab
              key={t.tab}
              value={t.tab}
              label={`${t.title} (${count})`}
              id={`runway-tab-${t.tab}`}
            />
          );
        })}
      </Tabs>

      <ClusterErrors errors={errors} clusters={freshness} />
      {kinds.map(k =>
        lists[k].error ? (
          <ErrorAlert
            key={k}
            error={lists[k].error!}
            title={`Could not load ${k}`}
          />
        ) : null,
      )}

      {loading && (
        <LinearProgress aria-label={`loading ${word}`} sx={{ mb: 2 }} />
      )}

      {answered && rows.length === 0 && (
        <Alert severity="info" action={create()}>
          No {word} yet
          {errors.length ? ' in the clusters that answered' : ''}.{' '}
          {EMPTY_HINT[tab]}
        </Alert>
      )}

      {rows.length > 0 && (
        <>
          <Filters
            filter={filter}
            options={options}
            onChange={setFilter}
            lists={
              tab === 'models' || tab === 'stacks'
                ? ['clusters', 'namespaces', 'phases']
                : undefined
            }
            what={word}
            placeholder={PLACEHOLDERS[tab]}
          />
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mb: 1 }}
            aria-live="polite"
          >
            {visible.length} of {rows.length} {word}
            {Object.keys(phases).length > 0 &&
              ` · ${Object.entries(phases)
                .map(([phase, n]) => `${n} ${phase}`)
                .join(', ')}`}
          </Typography>
          {visible.length === 0 ? (
            <Alert severity="info">No {word} match the filters.</Alert>
          ) : (
            <VirtualTable
              rows={visible}
              columns={columns}
              now={now}
              label={word}
            />
          )}
        </>
      )}
    </Box>
  );
}

/** The tab's create action: the deployment wizard, the model form or the stack form. */
function createButton(
  tab: DashboardTab,
  links: ReturnType<typeof useRunwayLinks>,
  access: RunwayPermissionState,
) {
  return (variant?: 'contained') => {
    if (tab === 'models')
      return (
        <DeployButton
          access={access}
          to={links.newModel}
          variant={variant}
          label="Add a model"
        />
      );
    if (tab === 'stacks')
      return (
        <DeployButton
          access={access}
          to={`${links.root.replace(/\/$/, '')}/stacks/new`}
          variant={variant}
          label="Create a stack"
        />
      );
    return <DeployButton access={access} to={links.deploy} variant={variant} />;
  };
}

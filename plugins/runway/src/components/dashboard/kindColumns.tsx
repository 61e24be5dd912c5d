/**
 * The dashboard's columns of models, stacks and of the mixed view (every
 * kind in one table). Each cell reads a precomputed row field: rows stay
 * cheap to render when thousands scroll by.
 */
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import {
  type DashboardRow,
  formatAge,
  type ModelRow,
  type ResourceRow,
  type StackRow,
} from '../../lib/rows';
import { KIND_WORD } from '../../lib/detail';
import { PhaseChip } from '../common/PhaseChip';
import { ClusterCell, type Column } from './DeploymentsTable';

const MONO = {
  fontFamily: 'monospace',
  fontSize: 12,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};

function common<R extends ResourceRow>(
  detailLink: (row: R) => string,
): Column<R>[] {
  return [
    {
      id: 'name',
      title: 'Name',
      width: 'minmax(140px, 2fr)',
      render: row => (
        <Link
          component={RouterLink}
          to={detailLink(row)}
          title={row.message || undefined}
        >
          {row.name}
        </Link>
      ),
    },
    {
      id: 'cluster',
      title: 'Cluster',
      width: '1fr',
      render: (r, now) => <ClusterCell row={r} now={now} />,
    },
    {
      id: 'namespace',
      title: 'Namespace',
      width: '1fr',
      render: r => r.namespace,
    },
    {
      id: 'phase',
      title: 'Phase',
      width: '120px',
      render: r => <PhaseChip phase={r.phase} />,
    },
  ];
}

/** A long text in monospace, cut with an ellipsis (the full text as its title), or a dash when empty. */
const mono = <R extends ResourceRow>(
  id: string,
  title: string,
  width: string,
  text: (row: R) => string | undefined,
): Column<R> => ({
  id,
  title,
  width,
  render: r => (
    <Box component="span" sx={MONO} title={text(r)}>
      {text(r) || '—'}
    </Box>
  ),
});

const age = <R extends ResourceRow>(): Column<R> => ({
  id: 'age',
  title: 'Age',
  width: '60px',
  render: (row, now) => formatAge(row.createdMs, now),
});

/** Download progress: a bar with the percentage, and the bytes as its title. */
export function ProgressCell({ row }: { row: ModelRow }) {
  if (row.progress === undefined) return <>—</>;
  return (
    <Box
      sx={{ width: '100%', display: 'flex', alignItems: 'center', gap: 1 }}
      title={row.bytes || undefined}
    >
      <LinearProgress
        variant="determinate"
        value={row.progress}
        aria-label={`${row.name} download progress`}
        sx={{ flex: 1, minWidth: 40 }}
      />
      <Box component="span" sx={{ fontSize: 12, minWidth: 34 }}>
        {row.progress}%
      </Box>
    </Box>
  );
}

export function modelColumns(
  detailLink: (row: ModelRow) => string,
): Column<ModelRow>[] {
  return [
    ...common(detailLink),
    mono('source', 'Source', 'minmax(160px, 2fr)', r => r.source),
    { id: 'size', title: 'Size', width: '70px', render: r => r.size || '—' },
    {
      id: 'progress',
      title: 'Progress',
      width: '140px',
      render: r => <ProgressCell row={r} />,
    },
    age(),
  ];
}

export function stackColumns(
  detailLink: (row: StackRow) => string,
): Column<StackRow>[] {
  return [
    ...common(detailLink),
    {
      id: 'distribution',
      title: 'Distribution',
      width: '110px',
      render: r => r.distribution || '—',
    },
    mono('image', 'Image', 'minmax(140px, 2fr)', r => r.image),
    mono('endpoint', 'Endpoint', 'minmax(140px, 2fr)', r => r.endpoint),
    age(),
  ];
}

/** Every kind in one table: the kind, the common columns and a one-line summary. */
export function mixedColumns(
  detailLink: (row: DashboardRow) => string,
): Column<DashboardRow>[] {
  const [name, ...rest] = common(detailLink);
  return [
    {
      id: 'kind',
      title: 'Kind',
      width: '100px',
      render: r => KIND_WORD[r.kind],
    },
    name,
    ...rest,
    mono('summary', 'Summary', 'minmax(160px, 3fr)', r => r.summary),
    age(),
  ];
}

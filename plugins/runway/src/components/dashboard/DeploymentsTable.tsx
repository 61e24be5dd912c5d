import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  type DeploymentRow,
  formatAge,
  type ResourceRow,
} from '../../lib/rows';
import { visibleRange } from '../../lib/windowing';
import { PhaseChip } from '../common/PhaseChip';

export const ROW_HEIGHT = 44;
/** Marks an endpoint that is the Gateway's (one constant style: rows stay cheap to render). */
const GATEWAY_BADGE = {
  fontFamily: 'inherit',
  fontSize: 11,
  border: 1,
  borderColor: 'info.main',
  color: 'info.main',
  borderRadius: 1,
  px: 0.5,
  mr: 0.5,
};
const MAX_HEIGHT = 640;
/** A stale row (its cluster's last known data) is dimmed; its cluster cell says since when. */
const STALE_ROW = { opacity: 0.5, fontStyle: 'italic' };

/** The cluster's name and, for a stale row, how old the data is. */
export function ClusterCell({ row, now }: { row: ResourceRow; now: number }) {
  if (row.staleSinceMs === undefined) return <>{row.cluster}</>;
  const age = formatAge(row.staleSinceMs, now);
  return (
    <Box
      component="span"
      title={`Cluster ${
        row.cluster
      } is unreachable: this row is its last known state${
        age ? `, ${age} old` : ''
      }`}
    >
      {row.cluster}{' '}
      <Box
        component="span"
        sx={{ color: 'error.main', fontSize: 12 }}
        data-testid="stale-badge"
      >
        stale{age ? ` ${age}` : ''}
      </Box>
    </Box>
  );
}

export interface Column<R> {
  id: string;
  title: string;
  /** CSS grid track, e.g. `2fr` or `120px`. */
  width: string;
  render: (row: R, now: number) => ReactNode;
}

export function deploymentColumns(
  detailLink: (row: DeploymentRow) => string,
): Column<DeploymentRow>[] {
  return [
    {
      id: 'name',
      title: 'Name',
      width: 'minmax(140px, 2fr)',
      render: row => (
        <Link component={RouterLink} to={detailLink(row)} title={row.model}>
          {row.name}
        </Link>
      ),
    },
    {
      id: 'cluster',
      title: 'Cluster',
      width: '1fr',
      render: (row, now) => <ClusterCell row={row} now={now} />,
    },
    {
      id: 'namespace',
      title: 'Namespace',
      width: '1fr',
      render: row => row.namespace,
    },
    {
      id: 'phase',
      title: 'Phase',
      width: '110px',
      render: row => <PhaseChip phase={row.phase} />,
    },
    {
      id: 'provider',
      title: 'Provider',
      width: '90px',
      render: row => row.provider || '—',
    },
    {
      id: 'engine',
      title: 'Engine',
      width: '90px',
      render: row => row.engine || '—',
    },
    {
      id: 'replicas',
      title: 'Ready',
      width: '70px',
      render: row => `${row.replicasReady}/${row.replicasDesired}`,
    },
    {
      id: 'endpoint',
      title: 'Endpoint',
      width: 'minmax(120px, 2fr)',
      render: row => (
        <Box
          component="span"
          sx={{
            fontFamily: 'monospace',
            fontSize: 12,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
          title={
            row.viaGateway
              ? `Through the Gateway: requests carry "model": "${row.gatewayModel}"`
              : undefined
          }
        >
          {row.viaGateway && (
            <Box component="span" sx={GATEWAY_BADGE}>
              gateway
            </Box>
          )}
          {row.endpoint || '—'}
        </Box>
      ),
    },
    {
      id: 'age',
      title: 'Age',
      width: '60px',
      render: (row, now) => formatAge(row.createdMs, now),
    },
  ];
}

/**
 * A windowed table: only the rows on screen (plus a margin) are in the DOM,
 * so 5,000 rows render as fast as 30. ARIA table roles keep it readable by
 * screen readers (aria-rowcount tells the full size).
 */
export function VirtualTable<
  R extends { key: string; staleSinceMs?: number },
>(props: { rows: R[]; columns: Column<R>[]; now: number; label: string }) {
  const { rows, columns, now, label } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(MAX_HEIGHT);
  useLayoutEffect(() => {
    const height = scroller.current?.clientHeight;
    if (height) setViewport(height);
  }, [rows.length]);
  const range = visibleRange({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    scrollTop,
    viewportHeight: viewport,
  });
  const template = columns.map(c => c.width).join(' ');
  const cellSx = {
    px: 1,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    display: 'flex',
    alignItems: 'center',
  };

  return (
    <Box
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Box role="rowgroup">
        <Box
          role="row"
          aria-rowindex={1}
          sx={{
            display: 'grid',
            gridTemplateColumns: template,
            height: ROW_HEIGHT,
            borderBottom: 1,
            borderColor: 'divider',
            bgcolor: 'action.hover',
          }}
        >
          {columns.map(c => (
            <Box role="columnheader" key={c.id} sx={cellSx}>
              <Typography variant="subtitle2" component="span">
                {c.title}
              </Typography>
            </Box>
          ))}
        </Box>
      </Box>
      <Box
        ref={scroller}
        role="rowgroup"
        onScroll={e => setScrollTop((e.target as HTMLDivElement).scrollTop)}
        sx={{ maxHeight: MAX_HEIGHT, overflowY: 'auto', position: 'relative' }}
        data-testid="table-scroller"
      >
        <Box sx={{ height: range.totalHeight, position: 'relative' }}>
          <Box
            sx={{
              position: 'absolute',
              top: range.offsetTop,
              left: 0,
              right: 0,
            }}
          >
            {rows.slice(range.start, range.end).map((row, i) => (
              <Box
                role="row"
                aria-rowindex={range.start + i + 2}
                key={row.key}
                data-stale={row.staleSinceMs !== undefined ? 'true' : undefined}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: template,
                  height: ROW_HEIGHT,
                  borderBottom: 1,
                  borderColor: 'divider',
                  ...(row.staleSinceMs !== undefined ? STALE_ROW : {}),
                }}
              >
                {columns.map(c => (
                  <Box role="cell" key={c.id} sx={cellSx}>
                    {c.render(row, now)}
                  </Box>
                ))}
              </Box>
            ))}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}

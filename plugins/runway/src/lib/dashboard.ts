/**
 * The dashboard's tabs (one per kind, and every kind together) and how the
 * answers of several lists combine. Pure.
 */
import {
  isRunwayKind,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';
import type { ClusterError, ClusterFreshness } from '../api/types';

export type DashboardTab = RunwayKind | 'all';

export const DASHBOARD_TABS: ReadonlyArray<{
  tab: DashboardTab;
  title: string;
}> = [
  { tab: 'deployments', title: 'Deployments' },
  { tab: 'models', title: 'Models' },
  { tab: 'stacks', title: 'Stacks' },
  { tab: 'all', title: 'All' },
];

/** The tab a `?kind=` parameter names; deployments when absent or unknown. */
export function tabOf(param: string | null | undefined): DashboardTab {
  if (param === 'all') return 'all';
  return param && isRunwayKind(param) ? param : 'deployments';
}

/** The kinds a tab shows. */
export function kindsOf(tab: DashboardTab): RunwayKind[] {
  return tab === 'all' ? ['deployments', 'models', 'stacks'] : [tab];
}

/** Each cluster's error once per reason (several lists name the same unreachable cluster). */
export function uniqueErrors(
  ...lists: Array<ClusterError[] | undefined>
): ClusterError[] {
  const seen = new Set<string>();
  const out: ClusterError[] = [];
  for (const e of lists.flatMap(l => l ?? [])) {
    const key = `${e.cluster}\u0000${e.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

/** Per cluster, the oldest data of any of the lists (what the page shows is that old). */
export function oldestFreshness(
  ...lists: Array<ClusterFreshness[] | undefined>
): ClusterFreshness[] {
  const byCluster = new Map<string, ClusterFreshness>();
  for (const f of lists.flatMap(l => l ?? [])) {
    const known = byCluster.get(f.cluster);
    if (
      !known ||
      (f.dataAgeMs ?? 0) > (known.dataAgeMs ?? 0) ||
      (known.synced && !f.synced)
    )
      byCluster.set(f.cluster, f);
  }
  return [...byCluster.values()];
}

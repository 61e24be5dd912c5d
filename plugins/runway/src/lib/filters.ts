/**
 * Dashboard filters: pure functions over rows, memoised by the page.
 * An empty selection means "all".
 */
import type { ResourceRow } from './rows';

export interface RowFilter {
  clusters: string[];
  namespaces: string[];
  phases: string[];
  providers: string[];
  /** Free text; every word must occur somewhere in the row. */
  text: string;
}

export const EMPTY_FILTER: RowFilter = {
  clusters: [],
  namespaces: [],
  phases: [],
  providers: [],
  text: '',
};

function words(text: string): string[] {
  return text.toLocaleLowerCase('en-US').split(/\s+/).filter(Boolean);
}

export function filterRows<R extends ResourceRow & { provider?: string }>(
  rows: R[],
  filter: RowFilter,
): R[] {
  const clusters = new Set(filter.clusters);
  const namespaces = new Set(filter.namespaces);
  const phases = new Set(filter.phases);
  const providers = new Set(filter.providers);
  const needles = words(filter.text);
  if (
    !clusters.size &&
    !namespaces.size &&
    !phases.size &&
    !providers.size &&
    !needles.length
  )
    return rows;
  return rows.filter(
    row =>
      (!clusters.size || clusters.has(row.cluster)) &&
      (!namespaces.size || namespaces.has(row.namespace)) &&
      (!phases.size || phases.has(row.phase)) &&
      (!providers.size || providers.has(row.provider ?? '')) &&
      needles.every(n => row.search.includes(n)),
  );
}

export interface FilterOptions {
  clusters: string[];
  namespaces: string[];
  phases: string[];
  providers: string[];
}

/** The distinct values offered by each filter, sorted. */
export function filterOptions(
  rows: Array<ResourceRow & { provider?: string }>,
  knownClusters: string[] = [],
): FilterOptions {
  const clusters = new Set(knownClusters);
  const namespaces = new Set<string>();
  const phases = new Set<string>();
  const providers = new Set<string>();
  for (const row of rows) {
    clusters.add(row.cluster);
    namespaces.add(row.namespace);
    phases.add(row.phase);
    if (row.provider) providers.add(row.provider);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    clusters: sorted(clusters),
    namespaces: sorted(namespaces),
    phases: sorted(phases),
    providers: sorted(providers),
  };
}

/** How many rows per phase (for the summary line above the table). */
export function countByPhase(rows: ResourceRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.phase] = (counts[row.phase] ?? 0) + 1;
  return counts;
}

/**
 * Browser side of the dashboard benchmark: renders the real dashboard in a
 * Backstage app (test wrapper) against a mocked RunwayApi answering N mixed
 * resources (60% deployments, 20% models, 20% stacks) across 3 clusters, on
 * its "All" tab (every kind in one table), and reports how long until the
 * table is on screen and how long a filter takes to apply. Bundled by
 * bench/run.ts.
 */
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  mockApis,
  TestApiProvider,
  wrapInTestApp,
} from '@backstage/test-utils';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { RunwayApi } from '../src/api/RunwayApi';
import { runwayApiRef } from '../src/api/RunwayApi';
import { DeploymentsDashboard } from '../src/components/dashboard/DeploymentsDashboard';
import {
  cluster,
  clustersResponse,
  manyResources,
} from '../src/__testUtils__/fixtures';
import { rootRouteRef } from '../src/routes';

const CLUSTERS = ['east', 'west', 'north'];

function mockedApi(count: number): RunwayApi {
  const lists = manyResources(count, CLUSTERS);
  const overview = clustersResponse(CLUSTERS.map(name => cluster(name)));
  const never = () => Promise.reject(new Error('not used by the benchmark'));
  return {
    list: async kind => lists[kind],
    listClusters: async () => overview,
    get: never,
    preview: never,
    create: never,
    update: never,
    delete: never,
    storageClasses: never,
    doctor: never,
    secretNames: never,
    searchHub: never,
    pods: never,
    log: never,
    resourceLog: never,
    followLog: never,
    chat: never,
  };
}

function nextFrame(): Promise<void> {
  return new Promise(resolve =>
    requestAnimationFrame(() => setTimeout(resolve, 0)),
  );
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await nextFrame();
}

export interface RenderMeasurement {
  /** Rows of the table: deployments, models and stacks. */
  deployments: number;
  /** From render() until the rows are in the DOM and painted. */
  renderMs: number;
  /** From typing a filter until the filtered table is painted. */
  filterMs: number;
  /** Table rows in the DOM (the window), of `deployments`. */
  domRows: number;
}

async function measure(count: number): Promise<RenderMeasurement> {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const start = performance.now();
  root.render(
    wrapInTestApp(
      <TestApiProvider
        apis={[
          [runwayApiRef, mockedApi(count)],
          [permissionApiRef, mockApis.permission()],
        ]}
      >
        <DeploymentsDashboard />
      </TestApiProvider>,
      {
        mountedRoutes: { '/runway': rootRouteRef },
        routeEntries: ['/?kind=all'],
      },
    ),
  );
  await waitFor(
    () => host.querySelectorAll('[role="table"] [role="row"]').length > 1,
  );
  await nextFrame();
  const renderMs = performance.now() - start;
  const domRows =
    host.querySelectorAll('[role="table"] [role="row"]').length - 1;

  const search = host.querySelector<HTMLInputElement>('#runway-filter-text')!;
  const filterStart = performance.now();
  const setter = Object.getOwnPropertyDescriptor(
    HTMLInputElement.prototype,
    'value',
  )!.set!;
  flushSync(() => {
    setter.call(search, 'team-3 running');
    search.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await waitFor(
    () =>
      /of \d+ resources/.test(host.textContent ?? '') &&
      !(host.textContent ?? '').includes(`${count} of ${count}`),
  );
  await nextFrame();
  const filterMs = performance.now() - filterStart;

  root.unmount();
  host.remove();
  return { deployments: count, renderMs, filterMs, domRows };
}

async function main() {
  const results: RenderMeasurement[] = [];
  // Warm-up (JIT, styles), then alternate baseline and target a few times.
  await measure(50);
  for (let i = 0; i < 5; i++) {
    results.push(await measure(50));
    results.push(await measure(5000));
  }
  (window as any).__benchResults = results;
}

main().catch(err => {
  (window as any).__benchError = String(err?.stack ?? err);
});

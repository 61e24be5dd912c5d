import { MockFetchApi, mockApis, renderInTestApp, TestApiProvider, type TestApiProviderProps } from '@backstage/test-utils';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { runwayApiRef, RunwayClient } from '../api/RunwayApi';
import { rootRouteRef } from '../routes';

/** Where the test discovery API places the runway backend. */
export const API = 'http://localhost:7007/api/runway';

/**
 * Renders in a Backstage test app (runway mounted at /runway) with the real
 * RunwayClient over fetch, so msw answers the HTTP contract (paths, query,
 * bodies) exactly as the backend would.
 */
export function renderWithApi(
  element: ReactElement,
  options: { path?: string; route?: string; apis?: TestApiProviderProps<any>['apis'] } = {},
) {
  const api = new RunwayClient({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://localhost:7007' }),
    fetchApi: new MockFetchApi(),
  });
  return renderInTestApp(
    <TestApiProvider apis={[[runwayApiRef, api], ...(options.apis ?? [])]}>
      <Routes>
        <Route path={options.path ?? '/*'} element={element} />
        <Route path="*" element={<div>elsewhere</div>} />
      </Routes>
    </TestApiProvider>,
    { routeEntries: [options.route ?? '/'], mountedRoutes: { '/runway': rootRouteRef } },
  );
}

/** A signal API the test drives: `emit(channel, message)` delivers like the backend's push would. */
export function testSignals() {
  const subscribers = new Map<string, Set<(message: any) => void>>();
  return {
    api: {
      subscribe(channel: string, onMessage: (message: any) => void) {
        const set = subscribers.get(channel) ?? new Set();
        set.add(onMessage);
        subscribers.set(channel, set);
        return { unsubscribe: () => set.delete(onMessage) };
      },
    },
    emit(channel: string, message: object) {
      subscribers.get(channel)?.forEach(s => s(message));
    },
    channels: () => [...subscribers.entries()].filter(([, s]) => s.size > 0).map(([c]) => c),
  };
}

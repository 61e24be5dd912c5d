import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  IdentityPermissionApi,
  permissionApiRef,
} from '@backstage/plugin-permission-react';
import {
  MockFetchApi,
  mockApis,
  renderInTestApp,
  TestApiProvider,
  type TestApiProviderProps,
} from '@backstage/test-utils';
import { rest } from 'msw';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { runwayApiRef, RunwayClient } from '../api/RunwayApi';
import { rootRouteRef } from '../routes';

/** Where the test discovery API places the runway backend. */
export const API = 'http://localhost:7007/api/runway';
/** Where the test discovery API places the permission backend. */
export const PERMISSION_API = 'http://localhost:7007/api/permission';

/**
 * Renders in a Backstage test app (runway mounted at /runway) with the real
 * RunwayClient over fetch, so msw answers the HTTP contract (paths, query,
 * bodies) exactly as the backend would. Permissions allow everything unless
 * `apis` brings another permission API (see `permissionsOverHttp`).
 */
export function renderWithApi(
  element: ReactElement,
  options: {
    path?: string;
    route?: string;
    apis?: TestApiProviderProps<any>['apis'];
  } = {},
) {
  const api = new RunwayClient({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://localhost:7007' }),
    fetchApi: new MockFetchApi(),
  });
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [runwayApiRef, api],
        [permissionApiRef, mockApis.permission()],
        ...(options.apis ?? []),
      ]}
    >
      {/* usePermission caches answers (swr) per permission and resource ref: each render starts afresh, like a page load. */}
      <SWRConfig value={{ provider: () => new Map() }}>
        <Routes>
          <Route path={options.path ?? '/*'} element={element} />
          <Route path="*" element={<div>elsewhere</div>} />
        </Routes>
      </SWRConfig>
    </TestApiProvider>,
    {
      routeEntries: [options.route ?? '/'],
      mountedRoutes: { '/runway': rootRouteRef },
    },
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
    channels: () =>
      [...subscribers.entries()].filter(([, s]) => s.size > 0).map(([c]) => c),
  };
}

/** One permission request as the permission backend receives it. */
export interface PermissionAsked {
  permission: string;
  resourceRef?: string;
}

/**
 * The app's own permission client (IdentityPermissionApi, permissions
 * enabled) and an msw handler answering `POST /api/permission/authorize` as
 * the permission backend would, with `decide` as the policy. `asked` records
 * every request, resource refs included.
 */
export function permissionsOverHttp(
  decide: (asked: PermissionAsked) => boolean,
) {
  const asked: PermissionAsked[] = [];
  const api = IdentityPermissionApi.create({
    config: mockApis.config({ data: { permission: { enabled: true } } }),
    discovery: mockApis.discovery({ baseUrl: 'http://localhost:7007' }),
    identity: mockApis.identity(),
  });
  const handler = rest.post(
    `${PERMISSION_API}/authorize`,
    async (req, res, ctx) => {
      const { items } = (await req.json()) as {
        items: Array<{
          id: string;
          permission: { name: string };
          resourceRef?: string;
        }>;
      };
      const answers = items.map(item => {
        const request = {
          permission: item.permission.name,
          resourceRef: item.resourceRef,
        };
        asked.push(request);
        return {
          id: item.id,
          result: decide(request)
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
        };
      });
      return res(ctx.json({ items: answers }));
    },
  );
  return {
    apis: [[permissionApiRef, api]] as TestApiProviderProps<any>['apis'],
    handler,
    asked,
  };
}

import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { PodLogs } from './PodLogs';

jest.setTimeout(30_000);

const server = setupServer();
registerMswTestHooks(server);
const target = { cluster: 'east', namespace: 'ml', name: 'llama' };
const BASE = `${API}/deployments/east/ml/llama`;

const pods = {
  cluster: 'east',
  selectors: ['kaito.sh/workspace=llama'],
  pods: [
    {
      name: 'llama-0',
      phase: 'Running',
      containers: [
        {
          name: 'model',
          ready: true,
          restartCount: 2,
          state: 'running',
          hasPrevious: true,
        },
        {
          name: 'sidecar',
          ready: true,
          restartCount: 0,
          state: 'running',
          hasPrevious: false,
        },
      ],
    },
  ],
};

function sse(lines: string[], end = true): string {
  return (
    lines.map(l => `data: ${l}\n\n`).join('') +
    (end ? 'event: end\ndata:\n\n' : '')
  );
}

/** The resource's followed log as the backend sends it: its pods and its choice first, then the lines. */
function resourceSse(answer: typeof pods, lines: string[], end = true): string {
  const first = answer.pods[0];
  const start = {
    pods: answer,
    ...(first ? { pod: first.name, container: first.containers[0].name } : {}),
  };
  return `event: pods\ndata: ${JSON.stringify(start)}\n\n${sse(lines, end)}`;
}

describe('PodLogs', () => {
  it("opens with one request: the resource's followed log brings its pods, the first pod's first container shown", async () => {
    const asked: string[] = [];
    server.use(
      rest.get(`${BASE}/pods`, (req, res, ctx) => {
        asked.push(req.url.pathname);
        return res(ctx.json(pods));
      }),
      rest.get(`${BASE}/log`, (req, res, ctx) => {
        asked.push(`${req.url.pathname}${req.url.search}`);
        return res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(
            resourceSse(pods, ['INFO starting vLLM', 'INFO serving on :8000']),
          ),
        );
      }),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    const log = await screen.findByLabelText('log lines');
    await waitFor(() =>
      expect(log).toHaveTextContent('INFO starting vLLM INFO serving on :8000'),
    );
    expect(screen.getByRole('combobox', { name: 'Pod' })).toHaveTextContent(
      'llama-0 (Running)',
    );
    expect(
      screen.getByRole('combobox', { name: 'Container' }),
    ).toHaveTextContent('model');
    // No pod list first: one request, not two in turn.
    expect(asked).toEqual([
      '/api/runway/deployments/east/ml/llama/log?tailLines=200&follow=true',
    ]);
    expect(
      await screen.findByText(/The log ended \(the container stopped\)/),
    ).toBeInTheDocument();
  });

  it('reads a tail without following, the previous container after a restart, and another container', async () => {
    const asked: string[] = [];
    server.use(
      rest.get(`${BASE}/log`, (_req, res, ctx) =>
        res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(resourceSse(pods, [])),
        ),
      ),
      rest.get(`${BASE}/pods/llama-0/log`, (req, res, ctx) => {
        asked.push(req.url.search);
        const previous = req.url.searchParams.get('previous') === 'true';
        return req.url.searchParams.get('follow') === 'true'
          ? res(ctx.set('Content-Type', 'text/event-stream'), ctx.body(sse([])))
          : res(
              ctx.json({
                pod: 'llama-0',
                container: req.url.searchParams.get('container'),
                previous,
                lines: [previous ? 'CUDA out of memory' : 'now serving'],
                truncated: false,
              }),
            );
      }),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Follow' }),
    );
    expect(await screen.findByLabelText('log lines')).toHaveTextContent(
      'now serving',
    );
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Previous container' }),
    );
    await waitFor(() =>
      expect(screen.getByLabelText('log lines')).toHaveTextContent(
        'CUDA out of memory',
      ),
    );
    expect(asked).toContain('?container=model&tailLines=200&previous=true');

    await userEvent.click(screen.getByRole('combobox', { name: 'Container' }));
    await userEvent.click(
      await screen.findByRole('option', { name: /sidecar/ }),
    );
    await waitFor(() =>
      expect(asked[asked.length - 1]).toBe('?container=sidecar&tailLines=200'),
    );
    // The sidecar never restarted: there is no previous log to ask for.
    expect(
      screen.getByRole('checkbox', { name: 'Previous container' }),
    ).toBeDisabled();
  });

  it('says when there are no pods yet, and which labels it looked for', async () => {
    server.use(
      rest.get(`${BASE}/log`, (_req, res, ctx) =>
        res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(resourceSse({ ...pods, pods: [] }, [])),
        ),
      ),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    expect(
      await screen.findByText(
        'No pods yet: the provider has not started any pod for this resource (looked for pods matching kaito.sh/workspace=llama).',
      ),
    ).toBeInTheDocument();
  });

  it("shows the backend's reason when the log cannot be read (cluster down, no log yet)", async () => {
    server.use(
      rest.get(`${BASE}/log`, (_req, res, ctx) =>
        res(
          ctx.status(503),
          ctx.json({
            error: {
              name: 'ClusterUnavailableError',
              message: 'cluster "east" did not answer within 5000 ms',
            },
          }),
        ),
      ),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    expect(
      await screen.findByText('cluster "east" did not answer within 5000 ms'),
    ).toBeInTheDocument();
    expect(screen.getByText('Could not read the log')).toBeInTheDocument();
  });

  it('keeps the pods on screen when their log cannot be read, with the reason', async () => {
    server.use(
      rest.get(`${BASE}/log`, (_req, res, ctx) =>
        res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(
            `${resourceSse(
              pods,
              [],
              false,
            )}event: runway-error\ndata: could not read the log of pod llama-0: no log yet\n\n`,
          ),
        ),
      ),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    expect(
      await screen.findByText(
        'could not read the log of pod llama-0: no log yet',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Could not read the log')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Pod' })).toHaveTextContent(
      'llama-0 (Running)',
    );
  });

  it('says which permission is missing, and asks for nothing, without runway.logs.read', async () => {
    let read = false;
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.logs.read',
    );
    server.use(
      permissions.handler,
      rest.get(`${BASE}/pods`, (_req, res, ctx) => {
        read = true;
        return res(ctx.json(pods));
      }),
      rest.get(`${BASE}/log`, (_req, res, ctx) => {
        read = true;
        return res(ctx.status(500));
      }),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />, {
      apis: permissions.apis,
    });
    expect(
      await screen.findByText(
        'You do not have permission runway.logs.read in namespace "ml" of cluster "east"',
      ),
    ).toBeInTheDocument();
    expect(read).toBe(false);
    expect(permissions.asked).toContainEqual({
      permission: 'runway.logs.read',
      resourceRef: 'east/ml',
    });
  });
});

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

describe('PodLogs', () => {
  it("follows the first pod's first container: the tail, then new lines, through one event stream", async () => {
    const asked: string[] = [];
    server.use(
      rest.get(`${BASE}/pods`, (_req, res, ctx) => res(ctx.json(pods))),
      rest.get(`${BASE}/pods/llama-0/log`, (req, res, ctx) => {
        asked.push(req.url.search);
        return res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(sse(['INFO starting vLLM', 'INFO serving on :8000'])),
        );
      }),
    );
    await renderWithApi(<PodLogs kind="deployments" target={target} />);
    const log = await screen.findByLabelText('log lines');
    await waitFor(() =>
      expect(log).toHaveTextContent('INFO starting vLLM INFO serving on :8000'),
    );
    expect(asked[0]).toBe('?container=model&tailLines=200&follow=true');
    expect(
      await screen.findByText(/The log ended \(the container stopped\)/),
    ).toBeInTheDocument();
  });

  it('reads a tail without following, the previous container after a restart, and another container', async () => {
    const asked: string[] = [];
    server.use(
      rest.get(`${BASE}/pods`, (_req, res, ctx) => res(ctx.json(pods))),
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
      rest.get(`${BASE}/pods`, (_req, res, ctx) =>
        res(ctx.json({ ...pods, pods: [] })),
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
      rest.get(`${BASE}/pods`, (_req, res, ctx) => res(ctx.json(pods))),
      rest.get(`${BASE}/pods/llama-0/log`, (_req, res, ctx) =>
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

import { registerMswTestHooks } from '@backstage/test-utils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  cluster,
  clustersResponse,
  deployment,
  manyDeployments,
  registered,
} from '../../__testUtils__/fixtures';
import { signalApiRef } from '@backstage/plugin-signals-react';
import { act } from '@testing-library/react';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
  testSignals,
} from '../../__testUtils__/render';
import { DeploymentsDashboard } from './DeploymentsDashboard';

const server = setupServer();
registerMswTestHooks(server);

// Generous: the machine is shared with cluster tests; nothing here measures time.
jest.setTimeout(60_000);

function serve(
  list: object,
  clusters: object = clustersResponse([cluster('east'), cluster('west')]),
  gate?: Promise<void>,
) {
  server.use(
    rest.get(`${API}/deployments`, async (_req, res, ctx) => {
      await gate;
      return res(ctx.json(list));
    }),
    rest.get(`${API}/clusters`, (_req, res, ctx) => res(ctx.json(clusters))),
  );
}

describe('DeploymentsDashboard', () => {
  it('shows a loading state, then the deployments of every cluster', async () => {
    let answer = () => {};
    const gate = new Promise<void>(resolve => {
      answer = resolve;
    });
    serve(
      {
        items: [
          deployment('east', 'ml', 'llama'),
          deployment('west', 'ml', 'qwen', {
            phase: 'Failed',
            provider: { name: 'kaito' },
          }),
        ],
        clusters: [],
        errors: [],
      },
      undefined,
      gate,
    );
    await renderWithApi(<DeploymentsDashboard />);
    expect(screen.getByLabelText('loading deployments')).toBeInTheDocument();
    answer();
    const table = await screen.findByRole('table', { name: 'deployments' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[1]).getByRole('link', { name: 'llama' }),
    ).toHaveAttribute('href', '/runway/deployments/east/ml/llama');
    expect(
      within(rows[1]).getByText('http://llama.ml.svc:8000'),
    ).toBeInTheDocument();
    expect(within(rows[1]).getByText('1/1')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[2]).getByText('kaito')).toBeInTheDocument();
    expect(
      screen.queryByLabelText('loading deployments'),
    ).not.toBeInTheDocument();
  });

  it('names a failing cluster and still shows the others', async () => {
    serve(
      {
        items: [deployment('east', 'ml', 'llama')],
        clusters: [
          { cluster: 'east', synced: true, dataAgeMs: 0 },
          { cluster: 'west', synced: false, dataAgeMs: null },
        ],
        errors: [
          {
            cluster: 'west',
            reason: 'Unreachable',
            message: 'connect ECONNREFUSED 10.0.0.2:6443.',
          },
        ],
      },
      clustersResponse(
        [
          cluster('east'),
          cluster('west', { reachable: false, providers: [], gpus: [] }),
        ],
        [
          {
            cluster: 'west',
            reason: 'Unreachable',
            message: 'connect ECONNREFUSED 10.0.0.2:6443.',
          },
        ],
      ),
    );
    await renderWithApi(<DeploymentsDashboard />);
    expect(
      await screen.findByText('Cluster west: Unreachable'),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Cluster west: Unreachable')).toHaveLength(1);
    expect(
      screen.getByText(
        /ECONNREFUSED 10\.0\.0\.2:6443\. Showing what the other clusters answered/,
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('link', { name: 'llama' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('cluster-card-west')).toHaveTextContent(
      'unreachable',
    );
  });

  it('shows the cluster summary with providers ready and GPU capacity', async () => {
    serve(
      { items: [], clusters: [], errors: [] },
      clustersResponse([
        cluster('east', {
          providers: [
            registered({
              name: 'kaito',
              displayName: 'KAITO',
              ready: true,
              message: '',
              engines: [],
            }),
            registered({
              name: 'dynamo',
              displayName: 'Dynamo',
              ready: false,
              message: 'no heartbeat',
              engines: [],
            }),
          ],
          gpus: [
            {
              resource: 'nvidia.com/gpu',
              allocatable: 8,
              requested: 3,
              pending: 1,
              nodes: 2,
            },
          ],
        }),
      ]),
    );
    await renderWithApi(<DeploymentsDashboard />);
    const card = await screen.findByTestId('cluster-card-east');
    expect(card).toHaveTextContent('Providers ready: 1/2');
    expect(card).toHaveTextContent(
      'nvidia.com/gpu: 4 free of 8 (3 in use, 1 pending, 2 nodes)',
    );
  });

  it('has an empty state that leads to the wizard', async () => {
    serve({ items: [], clusters: [], errors: [] });
    await renderWithApi(<DeploymentsDashboard />);
    expect(await screen.findByText(/No deployments yet/)).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', { name: 'Deploy a model' })[0],
    ).toHaveAttribute('href', '/runway/deploy');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('reports a backend failure', async () => {
    server.use(
      rest.get(`${API}/deployments`, (_req, res, ctx) =>
        res(
          ctx.status(403),
          ctx.json({
            error: {
              name: 'NotAllowedError',
              message: 'you do not have permission runway.deployments.read',
            },
          }),
        ),
      ),
      rest.get(`${API}/clusters`, (_req, res, ctx) =>
        res(ctx.json(clustersResponse([]))),
      ),
    );
    await renderWithApi(<DeploymentsDashboard />);
    expect(
      await screen.findByText(
        'you do not have permission runway.deployments.read',
      ),
    ).toBeInTheDocument();
  });

  it('filters by text and cluster, and renders only a window of thousands of rows', async () => {
    serve(manyDeployments(3000, ['east', 'west', 'north']));
    await renderWithApi(<DeploymentsDashboard />);
    const table = await screen.findByRole('table', { name: 'deployments' });
    expect(table).toHaveAttribute('aria-rowcount', '3001');
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    expect(screen.getByText(/3000 of 3000 deployments/)).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Search'), {
      target: { value: 'model-00042' },
    });
    await waitFor(() =>
      expect(screen.getByText(/1 of 3000 deployments/)).toBeInTheDocument(),
    );
    expect(
      screen.getByRole('link', { name: 'model-00042' }),
    ).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Search'), {
      target: { value: '' },
    });
    await userEvent.click(screen.getByLabelText('Cluster'));
    await userEvent.click(await screen.findByRole('option', { name: 'north' }));
    await waitFor(() =>
      expect(screen.getByText(/1000 of 3000 deployments/)).toBeInTheDocument(),
    );
  });

  it('marks the deployments reachable through the gateway, and finds them by "gateway"', async () => {
    serve({
      items: [
        deployment('east', 'ml', 'llama', {
          gateway: {
            endpoint: 'http://203.0.113.7',
            modelName: 'llama-chat',
            gatewayNamespace: 'gateways',
          },
        }),
        deployment('west', 'ml', 'qwen'),
      ],
      clusters: [],
      errors: [],
    });
    await renderWithApi(<DeploymentsDashboard />);
    const table = await screen.findByRole('table', { name: 'deployments' });
    const [, llama, qwen] = within(table).getAllByRole('row');
    expect(
      within(llama).getByTitle(
        'Through the Gateway: requests carry "model": "llama-chat"',
      ),
    ).toHaveTextContent('gatewayhttp://203.0.113.7');
    expect(within(qwen).queryByText('gateway')).not.toBeInTheDocument();
    expect(
      within(qwen).getByText('http://qwen.ml.svc:8000'),
    ).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Search'), {
      target: { value: 'gateway' },
    });
    await waitFor(() =>
      expect(screen.getByText(/1 of 2 deployments/)).toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: 'llama' })).toBeInTheDocument();
    expect(
      screen.queryByRole('link', { name: 'qwen' }),
    ).not.toBeInTheDocument();
  });

  it('shows a message when the filters match nothing', async () => {
    serve({
      items: [deployment('east', 'ml', 'llama')],
      clusters: [],
      errors: [],
    });
    await renderWithApi(<DeploymentsDashboard />);
    fireEvent.change(await screen.findByLabelText('Search'), {
      target: { value: 'nothing-like-this' },
    });
    expect(
      await screen.findByText('No deployments match the filters.'),
    ).toBeInTheDocument();
  });

  it('reloads when the backend signals a change on runway:deployments', async () => {
    serve({
      items: [deployment('east', 'ml', 'llama')],
      clusters: [],
      errors: [],
    });
    const signals = testSignals();
    await renderWithApi(<DeploymentsDashboard />, {
      apis: [[signalApiRef, signals.api]],
    });
    expect(
      await screen.findByRole('link', { name: 'llama' }),
    ).toBeInTheDocument();
    expect(signals.channels()).toContain('runway:deployments');
    serve({
      items: [
        deployment('east', 'ml', 'llama'),
        deployment('west', 'ml', 'mistral', { phase: 'Deploying' }),
      ],
      clusters: [],
      errors: [],
    });
    act(() =>
      signals.emit('runway:deployments', {
        kind: 'deployments',
        cluster: 'west',
        namespace: 'ml',
        changes: 1,
        eventsOnly: false,
      }),
    );
    expect(
      await screen.findByRole('link', { name: 'mistral' }),
    ).toBeInTheDocument();
  });
  it('disables "Deploy a model", with the reason, when the user may create deployments in no namespace the portal serves', async () => {
    serve({
      items: [deployment('east', 'ml', 'llama')],
      clusters: [],
      errors: [],
    });
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.deployments.create',
    );
    server.use(permissions.handler);
    await renderWithApi(<DeploymentsDashboard />, { apis: permissions.apis });
    const wrapper = await screen.findByLabelText(
      'You do not have permission runway.deployments.create in any namespace the portal serves (east/default, east/ml, west/default, west/ml)',
    );
    expect(
      within(wrapper).getByRole('button', { name: 'Deploy a model' }),
    ).toBeDisabled();
    expect(
      screen.queryByRole('link', { name: 'Deploy a model' }),
    ).not.toBeInTheDocument();
  });

  it('keeps "Deploy a model" a link when the user may create deployments in one of the namespaces', async () => {
    serve({
      items: [deployment('east', 'ml', 'llama')],
      clusters: [],
      errors: [],
    });
    const permissions = permissionsOverHttp(
      ({ permission, resourceRef }) =>
        permission !== 'runway.deployments.create' || resourceRef === 'west/ml',
    );
    server.use(permissions.handler);
    await renderWithApi(<DeploymentsDashboard />, { apis: permissions.apis });
    // Once the clusters (and so their namespaces) are known: disabled while the answer is pending, a link once one namespace allows it.
    await screen.findByRole('region', { name: 'cluster summary' });
    expect(
      await screen.findByRole('link', { name: 'Deploy a model' }),
    ).toHaveAttribute('href', '/runway/deploy');
    expect(permissions.asked).toContainEqual({
      permission: 'runway.deployments.create',
      resourceRef: 'west/ml',
    });
    expect(
      screen.queryByLabelText(/runway.deployments.create/),
    ).not.toBeInTheDocument();
  });
});

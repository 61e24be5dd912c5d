import { registerMswTestHooks } from '@backstage/test-utils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  cluster,
  clustersResponse,
  deployment,
  freshness,
  manyDeployments,
  manyResources,
  model,
  registered,
  stack,
  unreachable,
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

const EMPTY = { items: [], clusters: [], errors: [] };

/** Models and stacks answer empty unless a test says otherwise. */
beforeEach(() => serveKind('models', EMPTY));
beforeEach(() => serveKind('stacks', EMPTY));

function serveKind(kind: 'deployments' | 'models' | 'stacks', list: object) {
  server.use(
    rest.get(`${API}/${kind}`, (_req, res, ctx) => res(ctx.json(list))),
  );
}

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
          freshness('east'),
          freshness('west', {
            synced: false,
            dataAgeMs: null,
            state: 'unreachable',
            lastSeen: null,
          }),
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
        [
          freshness('west', {
            synced: false,
            dataAgeMs: null,
            state: 'unreachable',
            message: 'cannot reach cluster "west"',
            lastSeen: null,
          }),
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

  describe('cluster states', () => {
    // Ages grow while a busy machine runs the test: match any, not 42 s exactly.
    const westDown = unreachable('west', 42_000);
    const states = {
      ok: freshness('east'),
      degraded: freshness('east', {
        state: 'degraded',
        message:
          "1 of 2 providers not ready (dynamo): deployments that need them wait; each provider's message says why.",
      }),
      'not-installed': freshness('east', {
        state: 'not-installed',
        message:
          'Runway is not installed in cluster "east" (it does not serve the airunway.ai API group): install the controllers: `runway controller install` (then a provider: `runway provider install <name>`, or `runway install --all`).',
      }),
    } as const;

    it.each([
      ['ok', 'ok', 'MuiChip-colorSuccess'],
      ['degraded', 'degraded', 'MuiChip-colorWarning'],
      ['not-installed', 'Runway not installed', 'MuiChip-colorInfo'],
    ] as const)(
      'colours a cluster that is %s by its meaning and says why',
      async (state, label, chipClass) => {
        serve(
          { items: [], clusters: [states[state]], errors: [] },
          clustersResponse([cluster('east')], [], [states[state]]),
        );
        await renderWithApi(<DeploymentsDashboard />);
        const card = await screen.findByTestId('cluster-card-east');
        expect(card).toHaveAttribute('data-state', state);
        expect(card).toHaveAttribute('data-stale', 'false');
        const chip = within(card).getByTestId('cluster-state-east');
        expect(chip).toHaveTextContent(label);
        expect(chip.className).toContain(chipClass);
        const alert = within(card).queryByRole('alert');
        expect(alert !== null).toBe(state !== 'ok');
        expect(alert?.textContent ?? '').toContain(states[state].message);
        // Not installed is not an empty "0/0": the card names the state and the fix instead.
        expect(card.textContent?.includes('Providers ready: 2/2')).toBe(
          state !== 'not-installed',
        );
        expect(card.textContent?.includes('`runway controller install`')).toBe(
          state === 'not-installed',
        );
      },
    );

    it("shows an unreachable cluster's card and rows as stale, with their age, never as current", async () => {
      serve(
        {
          items: [
            deployment('east', 'ml', 'llama'),
            deployment('west', 'ml', 'qwen'),
          ],
          clusters: [freshness('east'), westDown],
          errors: [
            {
              cluster: 'west',
              reason: 'Unreachable',
              message: 'cannot reach cluster "west" (connect ECONNREFUSED).',
            },
          ],
        },
        clustersResponse(
          [cluster('east'), cluster('west', { reachable: false })],
          [],
          [freshness('east'), westDown],
        ),
      );
      await renderWithApi(<DeploymentsDashboard />);
      const card = await screen.findByTestId('cluster-card-west');
      expect(card).toHaveAttribute('data-state', 'unreachable');
      expect(card).toHaveAttribute('data-stale', 'true');
      const chip = within(card).getByTestId('cluster-state-west');
      expect(chip).toHaveTextContent('unreachable');
      expect(chip.className).toContain('MuiChip-colorError');
      expect(
        within(card).getByTestId('cluster-last-seen-west'),
      ).toHaveTextContent(/^Last seen \d+ s ago\.$/);
      // Its numbers are its last known, dimmed and aged.
      const numbers = within(card).getByLabelText(
        'last known numbers of cluster west',
      );
      expect(numbers).toHaveStyle({ opacity: '0.5' });
      expect(numbers).toHaveTextContent(/Stale: as of \d+ s ago/);
      expect(numbers).toHaveTextContent('Providers ready: 2/2');
      expect(numbers).toHaveTextContent('nvidia.com/gpu: 6 free of 8');
      // The healthy cluster's card stays as it was.
      expect(screen.getByTestId('cluster-card-east')).toHaveAttribute(
        'data-stale',
        'false',
      );

      const table = await screen.findByRole('table', { name: 'deployments' });
      const [, first, second] = within(table).getAllByRole('row');
      const westRow = [first, second].find(r =>
        within(r).queryByRole('link', { name: 'qwen' }),
      )!;
      const eastRow = [first, second].find(r =>
        within(r).queryByRole('link', { name: 'llama' }),
      )!;
      expect(westRow).toHaveAttribute('data-stale', 'true');
      expect(westRow).toHaveStyle({ opacity: '0.5' });
      expect(within(westRow).getByTestId('stale-badge')).toHaveTextContent(
        /^stale \d+s$/,
      );
      expect(eastRow).not.toHaveAttribute('data-stale');
      expect(
        within(eastRow).queryByTestId('stale-badge'),
      ).not.toBeInTheDocument();
    });

    it('says so when an unreachable cluster never answered, instead of empty numbers', async () => {
      const never = freshness('west', {
        synced: false,
        dataAgeMs: null,
        state: 'unreachable',
        message: 'cluster "west" has not answered the portal yet.',
        lastSeen: null,
      });
      serve(
        { items: [], clusters: [never], errors: [] },
        clustersResponse(
          [cluster('west', { reachable: false, providers: [], gpus: [] })],
          [],
          [never],
        ),
      );
      await renderWithApi(<DeploymentsDashboard />);
      const card = await screen.findByTestId('cluster-card-west');
      expect(card).toHaveTextContent('Never answered the portal.');
      expect(card).toHaveTextContent('No data: the portal has not reached');
      expect(card).not.toHaveTextContent('Providers ready');
      expect(card).not.toHaveTextContent('No GPUs');
    });

    it('turns stale when the backend signals, and clears by itself when the cluster is back', async () => {
      const list = (west: object) => ({
        items: [deployment('west', 'ml', 'qwen')],
        clusters: [west],
        errors: [],
      });
      const overview = (west: any) =>
        clustersResponse([cluster('west')], [], [west]);
      serve(list(freshness('west')), overview(freshness('west')));
      const signals = testSignals();
      await renderWithApi(<DeploymentsDashboard />, {
        apis: [[signalApiRef, signals.api]],
      });
      const card = await screen.findByTestId('cluster-card-west');
      expect(card).toHaveAttribute('data-state', 'ok');
      const health = () =>
        act(() =>
          signals.emit('runway:deployments', {
            kind: 'deployments',
            cluster: 'west',
            namespace: '',
            changes: 1,
            eventsOnly: false,
          }),
        );

      serve(list(westDown), overview(westDown));
      health();
      await waitFor(() =>
        expect(screen.getByTestId('cluster-card-west')).toHaveAttribute(
          'data-state',
          'unreachable',
        ),
      );
      expect(await screen.findByTestId('stale-badge')).toBeInTheDocument();

      serve(list(freshness('west')), overview(freshness('west')));
      health();
      await waitFor(() =>
        expect(screen.getByTestId('cluster-card-west')).toHaveAttribute(
          'data-state',
          'ok',
        ),
      );
      await waitFor(() =>
        expect(screen.queryByTestId('stale-badge')).not.toBeInTheDocument(),
      );
      expect(screen.getByTestId('cluster-card-west')).toHaveAttribute(
        'data-stale',
        'false',
      );
    });
  });

  describe('models and stacks', () => {
    it('shows each kind in its tab, the tab in the URL, with its own columns', async () => {
      serve({
        items: [deployment('east', 'ml', 'llama')],
        clusters: [],
        errors: [],
      });
      serveKind('models', {
        items: [
          model('east', 'ml', 'qwen-weights', {
            phase: 'Downloading',
            progress: 42,
            download: { bytesDownloaded: 1610612736, totalBytes: 3221225472 },
          }),
        ],
        clusters: [],
        errors: [],
      });
      serveKind('stacks', {
        items: [stack('west', 'ml', 'assistant')],
        clusters: [],
        errors: [],
      });
      await renderWithApi(<DeploymentsDashboard />, { route: '/?kind=models' });
      const table = await screen.findByRole('table', { name: 'models' });
      const [, row] = within(table).getAllByRole('row');
      expect(
        within(row).getByRole('link', { name: 'qwen-weights' }),
      ).toHaveAttribute('href', '/runway/models/east/ml/qwen-weights');
      expect(
        within(row).getByText('HuggingFace org/qwen-weights@main'),
      ).toBeInTheDocument();
      expect(within(row).getByText('20Gi')).toBeInTheDocument();
      expect(within(row).getByText('42%')).toBeInTheDocument();
      expect(within(row).getByTitle('1.5 GiB of 3.0 GiB')).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Models (1)' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      expect(screen.getByRole('link', { name: 'Add a model' })).toHaveAttribute(
        'href',
        '/runway/models/new',
      );
      // No provider filter for models.
      expect(screen.queryByLabelText('Provider')).not.toBeInTheDocument();

      await userEvent.click(screen.getByRole('tab', { name: 'Stacks (1)' }));
      const stacks = await screen.findByRole('table', { name: 'stacks' });
      const [, stackRow] = within(stacks).getAllByRole('row');
      expect(within(stackRow).getByText('starter')).toBeInTheDocument();
      expect(
        within(stackRow).getByText('docker.io/llamastack/starter:0.2'),
      ).toBeInTheDocument();
      expect(
        within(stackRow).getByText('http://assistant-service.ml.svc:8321'),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('link', { name: 'Create a stack' }),
      ).toHaveAttribute('href', '/runway/stacks/new');

      await userEvent.click(screen.getByRole('tab', { name: 'All (3)' }));
      const all = await screen.findByRole('table', { name: 'resources' });
      expect(within(all).getAllByRole('row')).toHaveLength(4);
      fireEvent.change(screen.getByLabelText('Search'), {
        target: { value: 'starter' },
      });
      await waitFor(() =>
        expect(screen.getByText(/1 of 3 resources/)).toBeInTheDocument(),
      );
      expect(screen.getByRole('link', { name: 'assistant' })).toHaveAttribute(
        'href',
        '/runway/stacks/west/ml/assistant',
      );
    });

    it('names a cluster where the models CRD is missing, on the models tab only', async () => {
      serve({
        items: [deployment('east', 'ml', 'llama')],
        clusters: [],
        errors: [],
      });
      serveKind('models', {
        items: [model('east', 'ml', 'tiny')],
        clusters: [],
        errors: [
          {
            cluster: 'west',
            reason: 'NotInstalled',
            message:
              'the Model CRD is not installed: run "runway controller install models"',
          },
        ],
      });
      await renderWithApi(<DeploymentsDashboard />);
      await screen.findByRole('table', { name: 'deployments' });
      expect(
        screen.queryByText('Cluster west: NotInstalled'),
      ).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('tab', { name: 'Models (1)' }));
      expect(
        await screen.findByText('Cluster west: NotInstalled'),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'tiny' })).toBeInTheDocument();
    });

    it('reloads the models tab on runway:models signals', async () => {
      serve(EMPTY);
      serveKind('models', {
        items: [
          model('east', 'ml', 'tiny', { phase: 'Downloading', progress: 10 }),
        ],
        clusters: [],
        errors: [],
      });
      const signals = testSignals();
      await renderWithApi(<DeploymentsDashboard />, {
        route: '/?kind=models',
        apis: [[signalApiRef, signals.api]],
      });
      expect(await screen.findByText('10%')).toBeInTheDocument();
      expect(signals.channels()).toEqual(
        expect.arrayContaining([
          'runway:deployments',
          'runway:models',
          'runway:stacks',
        ]),
      );
      serveKind('models', {
        items: [
          model('east', 'ml', 'tiny', { phase: 'Downloading', progress: 80 }),
        ],
        clusters: [],
        errors: [],
      });
      act(() =>
        signals.emit('runway:models', {
          kind: 'models',
          cluster: 'east',
          namespace: 'ml',
          changes: 1,
          eventsOnly: false,
        }),
      );
      expect(await screen.findByText('80%')).toBeInTheDocument();
    });

    it('windows thousands of mixed rows in the All tab', async () => {
      const lists = manyResources(3000, ['east', 'west', 'north']);
      serve(lists.deployments);
      serveKind('models', lists.models);
      serveKind('stacks', lists.stacks);
      await renderWithApi(<DeploymentsDashboard />, { route: '/?kind=all' });
      const table = await screen.findByRole('table', { name: 'resources' });
      await waitFor(() =>
        expect(table).toHaveAttribute('aria-rowcount', '3001'),
      );
      expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    });
  });
});

import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  deployment,
  freshness,
  unreachable,
} from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { DeploymentDetail } from './DeploymentDetail';

// Role queries over a whole detail page are slow on a shared 2-core machine.
jest.setTimeout(30_000);

const server = setupServer();
registerMswTestHooks(server);
const target = { cluster: 'east', namespace: 'ml', name: 'llama' };

function detail(overrides: object = {}) {
  const listed = deployment('east', 'ml', 'llama', {
    message: 'Model server is running',
  });
  return {
    ...listed,
    conditions: [
      {
        type: 'Validated',
        status: 'True',
        reason: 'Valid',
        message: 'spec is valid',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'Ready',
        status: 'True',
        reason: 'ReplicasReady',
        message: '1/1 replicas ready',
        lastTransitionTime: '2026-01-01T00:05:00Z',
      },
    ],
    events: [
      {
        metadata: { name: 'ev1', uid: 'ev1' },
        type: 'Normal',
        reason: 'ProviderSelected',
        message: 'selected dynamo',
        involvedObject: { kind: 'ModelDeployment', name: 'llama' },
        count: 2,
        lastTimestamp: new Date().toISOString(),
      },
    ],
    owned: [
      {
        apiVersion: 'nvidia.com/v1alpha1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'llama', namespace: 'ml' },
        status: { state: 'successful' },
      },
    ],
    clusters: [freshness('east')],
    errors: [],
    ...overrides,
  };
}

describe('DeploymentDetail', () => {
  it('shows a compact overview first: phase with its meaning, model, replicas, engine and provider with their reasons, the endpoint with a copyable request', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(
      await screen.findByRole('heading', { name: 'llama' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('phase Running')).toHaveTextContent('Running');
    expect(screen.getByLabelText('phase meaning')).toHaveTextContent(
      'The model server is serving requests.',
    );
    // A Running deployment's message is no news.
    expect(screen.queryByLabelText('status message')).not.toBeInTheDocument();
    const overview = screen.getByRole('region', { name: 'Overview' });
    expect(overview).toHaveTextContent('Modelorg/llama');
    expect(overview).toHaveTextContent('Replicas1 ready / 1 desired');
    expect(overview).toHaveTextContent(
      'Enginevllm — vllm for GPU, aggregated serving',
    );
    expect(overview).toHaveTextContent('Providerdynamo — default GPU provider');
    expect(overview).toHaveTextContent(/Age(59|60)m/);
    expect(overview).toHaveTextContent('http://llama.ml.svc:8000');
    expect(
      within(overview).getByRole('button', { name: 'Copy how to call it' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('location')).toHaveTextContent(
      'cluster east · namespace ml',
    );
    // The endpoint tab is open first, with the full example.
    expect(screen.getByLabelText('example request')).toHaveTextContent(
      'curl http://llama.ml.svc:8000/v1/chat/completions',
    );
    expect(screen.getByRole('link', { name: 'Copy as new' })).toHaveAttribute(
      'href',
      '/runway/deploy?copyFrom=east/ml/llama',
    );
    expect(screen.getByRole('tab', { name: 'Conditions (2)' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Events (1)' })).toBeVisible();
    expect(
      screen.getByRole('tab', { name: 'Upstream objects (1)' }),
    ).toBeVisible();
  });

  it('shows conditions as a timeline, events, the upstream objects collapsed until opened, and the YAML, each in its tab', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    await userEvent.click(
      await screen.findByRole('tab', { name: 'Conditions (2)' }),
    );
    const timeline = within(
      screen.getByRole('list', { name: 'conditions timeline' }),
    ).getAllByRole('listitem');
    expect(timeline[0]).toHaveTextContent('Ready: True');
    expect(timeline[1]).toHaveTextContent('Validated: True');
    // Only the open tab is on the page.
    expect(screen.queryByLabelText('example request')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Events (1)' }));
    expect(
      within(screen.getByRole('table', { name: 'events' })).getByText(
        'selected dynamo',
      ),
    ).toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('tab', { name: 'Upstream objects (1)' }),
    );
    const summary = screen.getByRole('button', {
      name: 'DynamoGraphDeployment llama (show YAML)',
    });
    expect(
      screen.queryByLabelText('DynamoGraphDeployment llama YAML'),
    ).not.toBeInTheDocument();
    await userEvent.click(summary);
    expect(
      await screen.findByLabelText('DynamoGraphDeployment llama YAML'),
    ).toHaveTextContent('state: successful');

    await userEvent.click(screen.getByRole('tab', { name: 'YAML' }));
    expect(screen.getByLabelText('ModelDeployment YAML')).toHaveTextContent(
      'kind: ModelDeployment',
    );
  });

  it('lists events newest first, merges repeated ones with their counts, and highlights warnings', async () => {
    const at = (s: number) => new Date(Date.now() - s * 1000).toISOString();
    const event = (name: string, extra: object) => ({
      metadata: { name, uid: name },
      involvedObject: { kind: 'ModelDeployment', name: 'llama' },
      ...extra,
    });
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json(
            detail({
              events: [
                event('a', {
                  type: 'Normal',
                  reason: 'ProviderSelected',
                  message: 'selected dynamo',
                  count: 1,
                  lastTimestamp: at(600),
                }),
                event('b', {
                  type: 'Warning',
                  reason: 'ApplyFailed',
                  message: 'the API server refused the Workspace',
                  count: 3,
                  lastTimestamp: at(30),
                }),
                event('c', {
                  type: 'Warning',
                  reason: 'ApplyFailed',
                  message: 'the API server refused the Workspace',
                  count: 2,
                  lastTimestamp: at(90),
                }),
              ],
            }),
          ),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />, {
      route: '/?tab=events',
    });
    const table = await screen.findByRole('table', { name: 'events' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('WarningApplyFailed');
    expect(rows[0]).toHaveTextContent('5');
    expect(rows[0]).toHaveAttribute('data-warning', 'true');
    expect(rows[1]).toHaveTextContent('ProviderSelected');
    expect(rows[1]).not.toHaveAttribute('data-warning');
  });

  it("shows the controller's message, coloured by the phase, while a deployment is not running", async () => {
    const listed = deployment('east', 'ml', 'llama', {
      phase: 'Failed',
      message: 'Provider dynamo failed: out of GPUs',
    });
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail({ object: listed.object }))),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(await screen.findByLabelText('status message')).toHaveTextContent(
      'Provider dynamo failed: out of GPUs',
    );
    expect(screen.getByLabelText('phase meaning')).toHaveTextContent(
      'The model server failed',
    );
  });

  it('shows the empty states of a deployment the controllers have not processed', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json(
            detail({
              object: {
                ...deployment('east', 'ml', 'llama').object,
                status: undefined,
              },
              conditions: [],
              events: [],
              owned: [],
            }),
          ),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(await screen.findByText(/No endpoint yet/)).toBeInTheDocument();
    expect(screen.getByLabelText('phase Pending')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Overview' })).toHaveTextContent(
      'Enginenot selected yet',
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Conditions (0)' }));
    expect(screen.getByText(/No conditions yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Events (0)' }));
    expect(screen.getByText('No events.')).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('tab', { name: 'Upstream objects (0)' }),
    );
    expect(
      screen.getByText('The provider has not created its resource yet.'),
    ).toBeInTheDocument();
  });

  it('shows the gateway as the way to call the model, with its model name, and the Service as the in-cluster alternative', async () => {
    const listed = deployment('east', 'ml', 'llama', {
      gateway: {
        endpoint: 'http://203.0.113.7',
        modelName: 'llama-chat',
        gatewayNamespace: 'gateways',
        apiFormats: ['openai-chat'],
      },
    });
    const message =
      "Model 'llama-chat' is routed through Gateway gateways/inference at http://203.0.113.7 by HTTPRoute 'llama' to InferencePool 'llama'";
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json(
            detail({
              object: listed.object,
              conditions: [
                {
                  type: 'GatewayReady',
                  status: 'True',
                  reason: 'GatewayConfigured',
                  message,
                  lastTransitionTime: '2026-01-01T00:06:00Z',
                },
              ],
            }),
          ),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    const viaGateway = await screen.findByRole('region', {
      name: 'Through the Gateway',
    });
    expect(viaGateway).toHaveTextContent('http://203.0.113.7');
    expect(viaGateway).toHaveTextContent(
      "Model name (the request's model field)llama-chat",
    );
    expect(viaGateway).toHaveTextContent('Gateway namespacegateways');
    expect(viaGateway).toHaveTextContent('API formatsOpenAI chat completions');
    expect(viaGateway).toHaveTextContent(message);
    const gatewayExample = screen.getByLabelText(
      'example request through the gateway',
    );
    expect(gatewayExample).toHaveTextContent(
      'curl http://203.0.113.7/v1/chat/completions',
    );
    expect(gatewayExample).toHaveTextContent('"model":"llama-chat"');
    expect(
      screen.getByRole('button', { name: 'Copy gateway example request' }),
    ).toBeInTheDocument();
    const viaService = screen.getByRole('region', {
      name: 'Through the Service',
    });
    expect(viaService).toHaveTextContent('In-cluster alternative: the Service');
    expect(screen.getByLabelText('example request')).toHaveTextContent(
      'curl http://llama.ml.svc:8000/v1/chat/completions',
    );
    expect(viaService).toHaveTextContent(
      'kubectl -n ml port-forward svc/llama 8000:8000',
    );
    // The gateway came first.
    expect(
      viaGateway.compareDocumentPosition(viaService) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.queryByLabelText('gateway status')).not.toBeInTheDocument();
  });

  it("shows GatewayReady=False in the controller's words, with the Service still usable", async () => {
    const message =
      '2 Gateways found (a/one, b/two) but none labelled airunway.ai/inference-gateway=true: label the one to use, or start the core with --gateway-name and --gateway-namespace';
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json(
            detail({
              conditions: [
                {
                  type: 'GatewayReady',
                  status: 'False',
                  reason: 'NoGateway',
                  message,
                  lastTransitionTime: '2026-01-01T00:06:00Z',
                },
              ],
            }),
          ),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    const notice = await screen.findByLabelText('gateway status');
    expect(notice).toHaveTextContent('No Gateway');
    expect(notice).toHaveTextContent(message);
    expect(notice).toHaveTextContent('GatewayReady: False (NoGateway)');
    expect(
      screen.queryByRole('region', { name: 'Through the Gateway' }),
    ).not.toBeInTheDocument();
    expect(screen.getByLabelText('example request')).toHaveTextContent(
      'curl http://llama.ml.svc:8000/v1/chat/completions',
    );
    expect(
      screen.queryByText('In-cluster alternative: the Service'),
    ).not.toBeInTheDocument();
  });

  it('deletes after confirmation, shows the finalizers while Terminating, then that it is gone', async () => {
    let deleted = false;
    let reads = 0;
    const terminating = deployment('east', 'ml', 'llama').object;
    terminating.metadata = {
      ...terminating.metadata,
      deletionTimestamp: new Date().toISOString(),
      finalizers: ['airunway.ai/provider-dynamo'],
    };
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) => {
        reads++;
        if (!deleted) return res(ctx.json(detail()));
        if (reads <= 3) return res(ctx.json(detail({ object: terminating })));
        return res(
          ctx.status(404),
          ctx.json({
            error: { name: 'NotFoundError', message: 'not found' },
          }),
        );
      }),
      rest.delete(`${API}/deployments/east/ml/llama`, (_req, res, ctx) => {
        deleted = true;
        return res(ctx.status(204));
      }),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete llama?' });
    expect(deleted).toBe(false);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByLabelText('phase Terminating')).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('region', { name: 'Overview' })).toHaveTextContent(
      'Deletionwaiting for 1 finalizer: airunway.ai/provider-dynamo',
    );
    expect(screen.getByRole('button', { name: 'Deleting…' })).toBeDisabled();
    expect(deleted).toBe(true);
  });

  it('scales after confirmation, naming the field of a bad count, and pauses with the seed annotation', async () => {
    const sent: any[] = [];
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
      rest.put(`${API}/deployments/east/ml/llama`, async (req, res, ctx) => {
        const body = await req.json();
        sent.push(body);
        return res(
          ctx.json({
            cluster: 'east',
            object: body,
            warnings: [],
            dryRun: false,
          }),
        );
      }),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Scale' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scale llama' });
    const field = within(dialog).getByLabelText('Replicas');
    await userEvent.clear(field);
    await userEvent.type(field, '-2');
    expect(dialog).toHaveTextContent(
      'spec.scaling.replicas must be a whole number from 0 to 100',
    );
    expect(
      within(dialog).getByRole('button', { name: 'Scale' }),
    ).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, '3');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Scale' }),
    );
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].spec.scaling).toEqual({ replicas: 3 });
    expect(sent[0].status).toBeUndefined();

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    const pause = await screen.findByRole('dialog', { name: 'Pause llama?' });
    await userEvent.click(within(pause).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].metadata.annotations).toEqual({
      'airunway.ai/reconcile-paused': 'true',
    });
  });

  it('disables Delete, saying which permission is missing and where, for a user without runway.deployments.delete', async () => {
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.deployments.delete',
    );
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
      permissions.handler,
    );
    await renderWithApi(<DeploymentDetail target={target} />, {
      apis: permissions.apis,
    });
    const reason =
      'You do not have permission runway.deployments.delete in namespace "ml" of cluster "east"';
    // The reason labels the focusable wrapper of the disabled button, and shows as its tooltip.
    const wrapper = await screen.findByLabelText(reason);
    expect(
      within(wrapper).getByRole('button', { name: 'Delete' }),
    ).toBeDisabled();
    await userEvent.hover(wrapper);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(reason);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
        'href',
        '/runway/deployments/east/ml/llama/edit',
      ),
    );
    // The permission backend was asked about this deployment's cluster and namespace, as the runway backend checks.
    expect(permissions.asked).toEqual(
      expect.arrayContaining([
        { permission: 'runway.deployments.delete', resourceRef: 'east/ml' },
        { permission: 'runway.deployments.update', resourceRef: 'east/ml' },
      ]),
    );
  });

  it('enables Delete for a user with the permission, and disables Edit without runway.deployments.update', async () => {
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.deployments.update',
    );
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
      permissions.handler,
    );
    await renderWithApi(<DeploymentDetail target={target} />, {
      apis: permissions.apis,
    });
    const wrappers = await screen.findAllByLabelText(
      'You do not have permission runway.deployments.update in namespace "ml" of cluster "east"',
    );
    // Edit, Scale and Pause all need it.
    expect(
      wrappers.map(w => within(w).getByRole('button').textContent),
    ).toEqual(['Edit', 'Scale', 'Pause']);
    wrappers.forEach(w => expect(within(w).getByRole('button')).toBeDisabled());
    expect(
      screen.queryByRole('link', { name: 'Edit' }),
    ).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled(),
    );
    expect(
      screen.queryByLabelText(/runway.deployments.delete/),
    ).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByRole('dialog', { name: 'Delete llama?' }),
    ).toBeInTheDocument();
  });

  it("says in the header that an unreachable cluster's deployment is its last known state, with its age, once", async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json(
            detail({
              clusters: [unreachable('east', 42_000)],
              errors: [
                {
                  cluster: 'east',
                  reason: 'Unreachable',
                  message: 'cannot reach cluster "east" (ECONNREFUSED)',
                },
              ],
            }),
          ),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    const notice = await screen.findByTestId('stale-notice');
    expect(notice).toHaveTextContent(
      /Stale: cluster east is unreachable \(last seen \d+ s ago\); this is its state as of \d+ s ago/,
    );
    // The cluster's own no-answer errors are that notice: not repeated as banners.
    expect(
      screen.queryByText('Cluster east: Unreachable'),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByText(/its watch is reconnecting/),
    ).not.toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'llama' }),
    ).toBeInTheDocument();
  });

  it('shows no stale notice for a healthy cluster', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail({ clusters: [freshness('east')] }))),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(
      await screen.findByRole('heading', { name: 'llama' }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('stale-notice')).not.toBeInTheDocument();
  });

  it('reports a missing deployment', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.status(404),
          ctx.json({
            error: {
              name: 'NotFoundError',
              message: 'deployments ml/llama not found in cluster east',
            },
          }),
        ),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(
      await screen.findByText('deployments ml/llama not found in cluster east'),
    ).toBeInTheDocument();
  });
});

import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { deployment } from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { DeploymentDetail } from './DeploymentDetail';

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
    clusters: [{ cluster: 'east', synced: true, dataAgeMs: 0 }],
    errors: [],
    ...overrides,
  };
}

describe('DeploymentDetail', () => {
  it('shows phase, selection, endpoint with an example, conditions, events, the upstream resource and YAML', async () => {
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
    );
    await renderWithApi(<DeploymentDetail target={target} />);
    expect(
      await screen.findByRole('heading', { name: 'llama' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Model server is running')).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(
      screen.getByRole('region', { name: 'Selection and replicas' }),
    ).toHaveTextContent('dynamo — default GPU provider');
    expect(
      screen.getByRole('region', { name: 'Selection and replicas' }),
    ).toHaveTextContent('1 ready / 1 desired');
    expect(screen.getByLabelText('example request')).toHaveTextContent(
      'curl http://llama.ml.svc:8000/v1/chat/completions',
    );
    expect(
      screen.getByRole('button', { name: 'Copy example request' }),
    ).toBeInTheDocument();
    const timeline = within(
      screen.getByRole('list', { name: 'conditions timeline' }),
    ).getAllByRole('listitem');
    expect(timeline[0]).toHaveTextContent('Ready: True');
    expect(timeline[1]).toHaveTextContent('Validated: True');
    expect(
      within(screen.getByRole('table', { name: 'events' })).getByText(
        'selected dynamo',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByLabelText('DynamoGraphDeployment llama YAML'),
    ).toHaveTextContent('state: successful');
    expect(screen.getByLabelText('deployment YAML')).toHaveTextContent(
      'kind: ModelDeployment',
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
    expect(await screen.findByText(/No conditions yet/)).toBeInTheDocument();
    expect(screen.getByText('No events.')).toBeInTheDocument();
    expect(screen.getByText(/No endpoint yet/)).toBeInTheDocument();
    expect(
      screen.getByText('The provider has not created its resource yet.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
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

  it('deletes after confirmation', async () => {
    let deleted = false;
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail())),
      ),
      rest.delete(`${API}/deployments/east/ml/llama`, (_req, res, ctx) => {
        deleted = true;
        return res(ctx.status(204));
      }),
    );
    await renderWithApi(<DeploymentDetail target={target} />, {
      route: '/runway/deployments/east/ml/llama',
      path: '/runway/deployments/:c/:n/:m',
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete llama?' });
    expect(deleted).toBe(false);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(deleted).toBe(true);
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
    const wrapper = await screen.findByLabelText(
      'You do not have permission runway.deployments.update in namespace "ml" of cluster "east"',
    );
    expect(
      within(wrapper).getByRole('button', { name: 'Edit' }),
    ).toBeDisabled();
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

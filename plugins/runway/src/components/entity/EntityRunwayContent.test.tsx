import { EntityProvider } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  cluster,
  clustersResponse,
  deployment,
} from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { EntityRunwayCard, EntityRunwayContent } from './EntityRunwayContent';

const server = setupServer();
registerMswTestHooks(server);

const entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'chatbot',
    annotations: { 'backstage.io/kubernetes-id': 'chatbot-svc' },
  },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
};

function serveKinds(selectors: string[]) {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(ctx.json(clustersResponse([cluster('east'), cluster('west')]))),
    ),
  );
  const model = {
    cluster: 'west',
    object: {
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      metadata: { name: 'llama-weights', namespace: 'ml' },
      status: { phase: 'Ready' },
    },
  };
  for (const kind of ['deployments', 'models', 'stacks']) {
    server.use(
      rest.get(`${API}/${kind}`, (req, res, ctx) => {
        selectors.push(`${kind}?${req.url.searchParams.get('labelSelector')}`);
        const viaGateway = deployment('west', 'ml', 'chat-qwen', {
          gateway: { endpoint: 'http://203.0.113.7', modelName: 'qwen' },
        });
        const items = {
          deployments: [deployment('east', 'ml', 'chat-llama'), viaGateway],
          models: [model],
          stacks: [],
        }[kind];
        const errors =
          kind === 'stacks'
            ? [
                {
                  cluster: 'north',
                  reason: 'Forbidden',
                  message: 'the portal may not list stacks in north.',
                },
              ]
            : [];
        return res(ctx.json({ items, clusters: [], errors }));
      }),
    );
  }
}

describe('entity content', () => {
  it("lists the entity's deployments, models and stacks by the kubernetes-id label", async () => {
    const selectors: string[] = [];
    serveKinds(selectors);
    await renderWithApi(
      <EntityProvider entity={entity}>
        <EntityRunwayContent />
      </EntityProvider>,
    );
    const deployments = await screen.findByRole('region', {
      name: 'Deployments',
    });
    expect(
      within(deployments).getByRole('link', { name: 'chat-llama' }),
    ).toHaveAttribute('href', '/runway/deployments/east/ml/chat-llama');
    const qwenRow = within(deployments)
      .getByRole('link', { name: 'chat-qwen' })
      .closest('[role="row"]') as HTMLElement;
    expect(
      within(qwenRow).getByTitle(
        'Through the Gateway: requests carry "model": "qwen"',
      ),
    ).toHaveTextContent('gatewayhttp://203.0.113.7');
    expect(
      within(screen.getByRole('region', { name: 'Models' })).getByText(
        'llama-weights',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Stacks' })).getByText(
        'No stacks labelled for this entity.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Cluster north: Forbidden')).toBeInTheDocument();
    expect(selectors.sort()).toEqual([
      'deployments?backstage.io/kubernetes-id=chatbot-svc',
      'models?backstage.io/kubernetes-id=chatbot-svc',
      'stacks?backstage.io/kubernetes-id=chatbot-svc',
    ]);
  });

  it('summarises them on a card', async () => {
    serveKinds([]);
    await renderWithApi(
      <EntityProvider entity={entity}>
        <EntityRunwayCard />
      </EntityProvider>,
    );
    expect(
      await screen.findByLabelText('Deployments summary'),
    ).toHaveTextContent('Deployments: 22 Running1 through the gateway');
    expect(screen.getByLabelText('Models summary')).toHaveTextContent(
      'Models: 11 Ready',
    );
    expect(screen.getByLabelText('Stacks summary')).toHaveTextContent(
      'Stacks: 0',
    );
    expect(screen.getByText('Cluster north: Forbidden')).toBeInTheDocument();
  });

  it('disables "Deploy a model", with the reason, when the user may create deployments in no namespace the portal serves', async () => {
    serveKinds([]);
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.deployments.create',
    );
    server.use(permissions.handler);
    await renderWithApi(
      <EntityProvider entity={entity}>
        <EntityRunwayContent />
      </EntityProvider>,
      { apis: permissions.apis },
    );
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

  it('keeps "Deploy a model" a link, with the entity preselected, when the user may create deployments in one of the namespaces', async () => {
    serveKinds([]);
    const permissions = permissionsOverHttp(
      ({ permission, resourceRef }) =>
        permission !== 'runway.deployments.create' || resourceRef === 'west/ml',
    );
    server.use(permissions.handler);
    await renderWithApi(
      <EntityProvider entity={entity}>
        <EntityRunwayContent />
      </EntityProvider>,
      { apis: permissions.apis },
    );
    // Once the clusters are known the namespaces are asked for; the link stays (or becomes again) a link once one allows it.
    await waitFor(() =>
      expect(permissions.asked).toContainEqual({
        permission: 'runway.deployments.create',
        resourceRef: 'west/ml',
      }),
    );
    expect(
      await screen.findByRole('link', { name: 'Deploy a model' }),
    ).toHaveAttribute('href', '/runway/deploy?kubernetesId=chatbot-svc');
    expect(
      screen.queryByLabelText(/runway.deployments.create/),
    ).not.toBeInTheDocument();
  });
});

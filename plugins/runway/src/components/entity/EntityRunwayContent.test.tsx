import { EntityProvider } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { deployment } from '../../__testUtils__/fixtures';
import { API, renderWithApi } from '../../__testUtils__/render';
import { EntityRunwayCard, EntityRunwayContent } from './EntityRunwayContent';

const server = setupServer();
registerMswTestHooks(server);

const entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'chatbot', annotations: { 'backstage.io/kubernetes-id': 'chatbot-svc' } },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
};

function serveKinds(selectors: string[]) {
  const model = { cluster: 'west', object: { apiVersion: 'models.airunway.ai/v1alpha1', kind: 'Model', metadata: { name: 'llama-weights', namespace: 'ml' }, status: { phase: 'Ready' } } };
  for (const kind of ['deployments', 'models', 'stacks']) {
    server.use(
      rest.get(`${API}/${kind}`, (req, res, ctx) => {
        selectors.push(`${kind}?${req.url.searchParams.get('labelSelector')}`);
        const viaGateway = deployment('west', 'ml', 'chat-qwen', { gateway: { endpoint: 'http://203.0.113.7', modelName: 'qwen' } });
        const items = { deployments: [deployment('east', 'ml', 'chat-llama'), viaGateway], models: [model], stacks: [] }[kind];
        const errors = kind === 'stacks' ? [{ cluster: 'north', reason: 'Forbidden', message: 'the portal may not list stacks in north.' }] : [];
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
    const deployments = await screen.findByRole('region', { name: 'Deployments' });
    expect(within(deployments).getByRole('link', { name: 'chat-llama' })).toHaveAttribute('href', '/runway/deployments/east/ml/chat-llama');
    const qwenRow = within(deployments).getByRole('link', { name: 'chat-qwen' }).closest('[role="row"]') as HTMLElement;
    expect(within(qwenRow).getByTitle('Through the Gateway: requests carry "model": "qwen"')).toHaveTextContent('gatewayhttp://203.0.113.7');
    expect(within(screen.getByRole('region', { name: 'Models' })).getByText('llama-weights')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Stacks' })).getByText('No stacks labelled for this entity.')).toBeInTheDocument();
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
    expect(await screen.findByLabelText('Deployments summary')).toHaveTextContent('Deployments: 22 Running1 through the gateway');
    expect(screen.getByLabelText('Models summary')).toHaveTextContent('Models: 11 Ready');
    expect(screen.getByLabelText('Stacks summary')).toHaveTextContent('Stacks: 0');
    expect(screen.getByText('Cluster north: Forbidden')).toBeInTheDocument();
  });
});

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
import { StackDetail } from './StackDetail';

// Role queries over a whole detail page are slow on a shared 2-core machine.
jest.setTimeout(60_000);

const server = setupServer();
registerMswTestHooks(server);
const target = { cluster: 'east', namespace: 'ml', name: 'chat' };

const CONFIG = `version: 2
providers:
  inference:
  - provider_id: qwen
    provider_type: remote::vllm
    config:
      base_url: http://qwen.ml.svc:8000/v1
      api_token: \${env.LLSD_QWEN_API_KEY}
`;

function detail(overrides: object = {}) {
  return {
    cluster: 'east',
    object: {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: {
        name: 'chat',
        namespace: 'ml',
        uid: 'stack-uid',
        creationTimestamp: new Date(Date.now() - 600_000).toISOString(),
      },
      spec: {
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              id: 'qwen',
              provider: 'vllm',
              endpoint: 'http://qwen.ml.svc:8000/v1',
              apiKey: { secretKeyRef: { name: 'qwen-key', key: 'token' } },
            },
          ],
        },
        resources: { models: [{ name: 'qwen', provider: 'qwen' }] },
      },
      status: {
        phase: 'Ready',
        availableReplicas: 1,
        serviceURL: 'http://chat-service.ml.svc.cluster.local:8321',
        resolvedDistribution: {
          image: 'docker.io/llamastack/distribution-starter:latest',
          configSource: 'embedded',
          configHash: 'sha256:0123abcd',
        },
        configGeneration: {
          configMapName: 'chat-config-0123abcd',
          providerCount: 1,
          resourceCount: 1,
        },
      },
    },
    conditions: [
      {
        type: 'ConfigGenerated',
        status: 'True',
        reason: 'ConfigGenerationSucceeded',
        message: 'Generated config.yaml with 1 providers and 1 models',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'DeploymentUpdated',
        status: 'True',
        reason: 'DeploymentUpdateSucceeded',
        message: 'Deployment updated with config chat-config-0123abcd',
        lastTransitionTime: '2026-01-01T00:00:01Z',
      },
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: '1/1 replicas available',
        lastTransitionTime: '2026-01-01T00:01:00Z',
      },
    ],
    events: [],
    owned: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'chat-config-0123abcd',
          namespace: 'ml',
          labels: { 'llamastack.io/generated-config': 'true' },
        },
        data: { 'config.yaml': CONFIG },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'chat', namespace: 'ml' },
      },
    ],
    clusters: [{ cluster: 'east', synced: true, dataAgeMs: 0 }],
    errors: [],
    ...overrides,
  };
}

function serve(answer = detail()) {
  server.use(
    rest.get(`${API}/stacks/east/ml/chat`, (_req, res, ctx) =>
      res(ctx.json(answer)),
    ),
    rest.get(`${API}/deployments`, (_req, res, ctx) =>
      res(
        ctx.json({
          items: [
            deployment('east', 'ml', 'qwen'),
            deployment('east', 'ml', 'other'),
          ],
          clusters: [],
          errors: [],
        }),
      ),
    ),
  );
}

describe('StackDetail', () => {
  it('shows the phase, resolved image, endpoint and the deployments its providers use, then the generated config.yaml', async () => {
    serve();
    await renderWithApi(<StackDetail target={target} />);
    expect(
      await screen.findByRole('heading', { name: 'chat' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('phase Ready')).toBeInTheDocument();
    const overview = screen.getByRole('region', { name: 'Overview' });
    expect(overview).toHaveTextContent(
      'docker.io/llamastack/distribution-starter:latest',
    );
    expect(overview).toHaveTextContent(
      'http://chat-service.ml.svc.cluster.local:8321',
    );
    expect(overview).toHaveTextContent('1 provider, 1 resource (embedded)');
    await waitFor(() =>
      expect(overview).toHaveTextContent('ml/qwen (Running)'),
    );
    expect(
      within(overview).getByRole('link', { name: 'ml/qwen' }),
    ).toHaveAttribute('href', '/runway/deployments/east/ml/qwen');
    expect(overview).not.toHaveTextContent('ml/other');
    // The config tab first: the server's config, the secret only as its reference.
    const config = screen.getByRole('region', {
      name: 'Generated config.yaml',
    });
    expect(within(config).getByLabelText('config.yaml')).toHaveTextContent(
      'base_url: http://qwen.ml.svc:8000/v1',
    );
    expect(config).toHaveTextContent('${env.LLSD_QWEN_API_KEY}');
    expect(config).toHaveTextContent(
      'chat-config-0123abcd, the config the server runs',
    );
    expect(config).not.toHaveTextContent('qwen-key');

    await userEvent.click(screen.getByRole('tab', { name: 'Endpoint' }));
    expect(screen.getByLabelText('example request')).toHaveTextContent(
      'curl http://chat-service.ml.svc.cluster.local:8321/v1/chat/completions',
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Conditions (3)' }));
    for (const type of ['ConfigGenerated', 'DeploymentUpdated', 'Available'])
      expect(screen.getAllByText(new RegExp(type)).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('tab', { name: 'Deployments (1)' }));
    expect(
      screen.getByRole('table', { name: 'Deployments its providers use' }),
    ).toHaveTextContent(
      'ml/qwenRunningqwen (spec.providers.inference[0])Service',
    );
  });

  it("says why there is no config when generation failed, with the operator's message", async () => {
    const failed = detail();
    (failed.object as any).status = { phase: 'Failed' };
    failed.owned = [];
    failed.conditions = [
      {
        type: 'ConfigGenerated',
        status: 'False',
        reason: 'BaseConfigRequired',
        message:
          'spec.distribution.image has no base config: set spec.overrideConfig',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ];
    serve(failed);
    await renderWithApi(<StackDetail target={target} />);
    expect(await screen.findByLabelText('status message')).toHaveTextContent(
      'spec.distribution.image has no base config',
    );
    expect(
      screen.getByText(/has not generated a config.yaml yet/),
    ).toBeInTheDocument();
  });

  it('deletes after confirmation, behind runway.stacks.delete', async () => {
    serve();
    const deleted: string[] = [];
    server.use(
      rest.delete(`${API}/stacks/east/ml/chat`, (req, res, ctx) => {
        deleted.push(req.url.pathname);
        return res(ctx.status(204));
      }),
    );
    await renderWithApi(<StackDetail target={target} />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete stack chat?');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() =>
      expect(deleted).toEqual(['/api/runway/stacks/east/ml/chat']),
    );
  });

  it('disables Delete with the reason when the user may not delete stacks there', async () => {
    serve();
    const permissions = permissionsOverHttp(
      asked => asked.permission !== 'runway.stacks.delete',
    );
    server.use(permissions.handler);
    await renderWithApi(<StackDetail target={target} />, {
      apis: permissions.apis,
    });
    const button = await screen.findByRole('button', { name: /Delete/ });
    await waitFor(() => expect(button).toBeDisabled());
    expect(
      await screen.findByLabelText(
        /You do not have permission runway.stacks.delete in namespace "ml" of cluster "east"/,
      ),
    ).toBeInTheDocument();
  });
});

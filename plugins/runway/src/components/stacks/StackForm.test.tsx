import { registerMswTestHooks } from '@backstage/test-utils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import type { ClustersResponse, PreviewResponse } from '../../api/types';
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
import { StackForm } from './StackForm';

const server = setupServer();
registerMswTestHooks(server);

// Generous: the machine is shared with cluster tests; nothing here measures time.
jest.setTimeout(60_000);

const DISTRIBUTIONS = [
  {
    name: 'starter',
    image: 'docker.io/llamastack/distribution-starter:latest',
  },
  {
    name: 'starter-gpu',
    image: 'docker.io/llamastack/distribution-starter-gpu:latest',
  },
];

function serveClusters() {
  const answer: ClustersResponse = {
    ...clustersResponse([cluster('east'), cluster('west')]),
    stackDistributions: DISTRIBUTIONS,
  };
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) => res(ctx.json(answer))),
  );
}

function serveDeployments() {
  server.use(
    rest.get(`${API}/deployments`, (req, res, ctx) =>
      res(
        ctx.json({
          items: [
            deployment('east', 'ml', 'llama', {
              gateway: {
                endpoint: 'http://gateway.east:80',
                modelName: 'llama-3',
              },
            }),
            deployment('east', 'ml', 'loading', { phase: 'Deploying' }),
          ].filter(d =>
            req.url.searchParams.getAll('cluster').includes(d.cluster),
          ),
          clusters: [{ cluster: 'east', synced: true, dataAgeMs: 0 }],
          errors: [],
        }),
      ),
    ),
  );
}

async function choose(label: string | RegExp, option: string | RegExp) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function fillTarget(name = 'chat') {
  await screen.findByRole('combobox', { name: 'Cluster' });
  await choose('Cluster', 'east');
  await choose('Namespace', 'ml');
  type('Stack name', name);
}

/** Every input, select and button the user can reach has an accessible name. */
function expectAllControlsLabelled() {
  const controls = [
    ...screen.queryAllByRole('textbox'),
    ...screen.queryAllByRole('combobox'),
    ...screen.queryAllByRole('spinbutton'),
    ...screen.queryAllByRole('checkbox'),
    ...screen.queryAllByRole('button'),
  ];
  expect(controls.length).toBeGreaterThan(0);
  for (const control of controls) expect(control).toHaveAccessibleName();
}

const CONFIG_YAML = `version: 2
providers:
  inference:
  - provider_id: llama
    provider_type: remote::vllm
    config:
      base_url: http://gateway.east:80/v1
`;

describe('StackForm', () => {
  it("offers the operator's distributions and shows runway-common's messages on the fields as the user types", async () => {
    serveClusters();
    serveDeployments();
    await renderWithApi(<StackForm />);
    await fillTarget('Bad.Name');
    expect(
      await screen.findByText(/must be at most 63 lower-case letters/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Stack name')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    type('Stack name', 'chat');

    await choose(
      'Distribution',
      'starter-gpu (docker.io/llamastack/distribution-starter-gpu:latest)',
    );
    expect(
      screen.getByText(
        'Image docker.io/llamastack/distribution-starter-gpu:latest',
      ),
    ).toBeInTheDocument();

    type('Inference provider 1 id', 'bad id!');
    const id = screen.getByLabelText('Inference provider 1 id');
    await waitFor(() => expect(id).toHaveAttribute('aria-invalid', 'true'));
    expect(
      document.getElementById(
        'runway-spec-providers-inference-0-id-helper-text',
      ),
    ).toHaveTextContent(/must be letters, digits, "-" or "_"/);
    type('Inference provider 1 id', 'vllm');
    await waitFor(() => expect(id).toHaveAttribute('aria-invalid', 'false'));

    // A model on a provider the stack does not configure: the message lists the ids there are.
    await userEvent.click(screen.getByRole('button', { name: 'Add model' }));
    type('Model 1 name', 'llama');
    type('Model 1 provider id', 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findByText(
        'spec.resources.models[0].provider "nope" is not the id of an inference provider; available inference provider ids: "vllm"',
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByText('Stack written to cluster'),
    ).not.toBeInTheDocument();
    expectAllControlsLabelled();
  });

  it('fills an inference provider from a Ready deployment, previews the generated config.yaml, then creates', async () => {
    serveClusters();
    serveDeployments();
    const previews: any[] = [];
    const created: any[] = [];
    server.use(
      rest.post(`${API}/stacks/east/preview`, async (req, res, ctx) => {
        const body = await req.json();
        previews.push({ mode: req.url.searchParams.get('mode'), body });
        const answer: PreviewResponse = {
          cluster: 'east',
          mode: 'create',
          objects: [
            {
              action: 'create',
              object: {
                ...body,
                metadata: { ...body.metadata, uid: 'dry-run' },
              },
            },
          ],
          warnings: [],
          providerObjects: {
            status: 'available',
            message:
              'The stack operator would generate config.yaml (1 provider, 1 resource) into ConfigMap chat-config-0123abcd and run image docker.io/llamastack/distribution-starter:latest.',
            provider: 'runway-stacks',
            objects: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: 'chat-config-0123abcd', namespace: 'ml' },
                data: { 'config.yaml': CONFIG_YAML },
              } as any,
            ],
            warnings: [],
          },
        };
        return res(ctx.json(answer));
      }),
      rest.post(`${API}/stacks/east`, async (req, res, ctx) => {
        created.push(await req.json());
        return res(
          ctx.status(201),
          ctx.json({
            cluster: 'east',
            object: created[0],
            warnings: [],
            dryRun: false,
          }),
        );
      }),
    );
    await renderWithApi(<StackForm />, {
      route: '/runway/stacks/new',
      path: '/runway/stacks/new',
    });
    await fillTarget();
    const picker = await screen.findByRole('combobox', {
      name: 'Inference provider 1: use a running deployment',
    });
    await waitFor(() => expect(picker).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(picker);
    const options = await screen.findAllByRole('option');
    // Only Ready deployments are offered.
    expect(options.map(o => o.textContent)).toEqual([
      '(none: type the endpoint)',
      'ml/llama — llama-3 via gateway (http://gateway.east:80/v1)',
    ]);
    await userEvent.click(options[1]);
    await waitFor(() =>
      expect(
        screen.getByLabelText('Inference provider 1 endpoint'),
      ).toHaveValue('http://gateway.east:80/v1'),
    );
    expect(screen.getByLabelText('Inference provider 1 id')).toHaveValue(
      'llama',
    );
    expect(picker).toHaveTextContent('ml/llama');
    expect(screen.getByLabelText('Model 1 name')).toHaveValue('llama-3');
    expect(screen.getByLabelText('Model 1 provider id')).toHaveValue('llama');

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const config = await screen.findByLabelText('config.yaml');
    expect(config).toHaveTextContent('base_url: http://gateway.east:80/v1');
    expect(
      screen.getByLabelText('LlamaStackDistribution chat YAML'),
    ).toHaveTextContent('uid: dry-run');
    const operator = screen.getByRole('region', { name: 'Provider objects' });
    expect(
      within(operator).getByText(
        /The stack operator would generate config.yaml/,
      ),
    ).toBeInTheDocument();
    const expected = {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'chat', namespace: 'ml' },
      spec: {
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              id: 'llama',
              provider: 'vllm',
              endpoint: 'http://gateway.east:80/v1',
            },
          ],
        },
        resources: { models: [{ name: 'llama-3', provider: 'llama' }] },
      },
    };
    expect(previews).toEqual([{ mode: 'create', body: expected }]);

    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(created).toEqual([expected]);
  });

  it('opens a v1alpha1 stack in the v1alpha2 form and updates it as v1alpha2, keeping its annotations', async () => {
    serveClusters();
    serveDeployments();
    const v1 = {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: {
        name: 'old',
        namespace: 'ml',
        annotations: { 'llamastack.io/v1alpha1-fields': '{"x":1}' },
      },
      spec: {
        replicas: 1,
        server: {
          distribution: { name: 'starter' },
          containerSpec: { port: 8080 },
        },
      },
    };
    const updated: any[] = [];
    server.use(
      rest.get(`${API}/stacks/east/ml/old`, (_req, res, ctx) =>
        res(
          ctx.json({
            cluster: 'east',
            object: v1,
            conditions: [],
            events: [],
            owned: [],
            clusters: [],
            errors: [],
          }),
        ),
      ),
      rest.post(`${API}/stacks/east/preview`, async (req, res, ctx) => {
        const body = await req.json();
        return res(
          ctx.json({
            cluster: 'east',
            mode: 'update',
            objects: [{ action: 'update', object: body }],
            warnings: [],
            providerObjects: {
              status: 'not-applicable',
              message: 'no config',
              objects: [],
              warnings: [],
            },
          } satisfies PreviewResponse),
        );
      }),
      rest.put(`${API}/stacks/east/ml/old`, async (req, res, ctx) => {
        updated.push(await req.json());
        return res(
          ctx.json({
            cluster: 'east',
            object: updated[0],
            warnings: [],
            dryRun: false,
          }),
        );
      }),
    );
    await renderWithApi(
      <StackForm edit={{ cluster: 'east', namespace: 'ml', name: 'old' }} />,
      {
        route: '/runway/stacks/east/ml/old/edit',
        path: '/runway/stacks/:cluster/:namespace/:name/edit',
      },
    );
    expect(
      await screen.findByText(/written as llamastack.io\/v1alpha1/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Server port')).toHaveValue(8080);
    expect(screen.getByLabelText('Stack name')).toBeDisabled();
    type('Server port', '9000');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Update' }),
    );
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(updated).toHaveLength(1);
    expect(updated[0].apiVersion).toBe('llamastack.io/v1alpha2');
    expect(updated[0].metadata.annotations).toEqual(v1.metadata.annotations);
    expect(updated[0].spec.networking.port).toBe(9000);
    expect(updated[0].spec.distribution).toEqual({ name: 'starter' });
  });

  it('disables Create, with the reason, where the user may not create stacks', async () => {
    serveClusters();
    serveDeployments();
    const permissions = permissionsOverHttp(
      asked => asked.resourceRef !== 'east/ml',
    );
    server.use(permissions.handler);
    server.use(
      rest.post(`${API}/stacks/east/preview`, async (req, res, ctx) =>
        res(
          ctx.json({
            cluster: 'east',
            mode: 'create',
            objects: [{ action: 'create', object: await req.json() }],
            warnings: [],
            providerObjects: {
              status: 'not-applicable',
              message: 'no config',
              objects: [],
              warnings: [],
            },
          } satisfies PreviewResponse),
        ),
      ),
    );
    await renderWithApi(<StackForm />, { apis: permissions.apis });
    await fillTarget();
    type('Inference provider 1 endpoint', 'http://vllm.ml.svc:8000/v1');
    expect(
      await screen.findByText(
        /You do not have permission runway.stacks.create in namespace "ml" of cluster "east"/,
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const create = await screen.findByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    expect(
      permissions.asked.some(
        a =>
          a.permission === 'runway.stacks.create' &&
          a.resourceRef === 'east/ml',
      ),
    ).toBe(true);
  });
});

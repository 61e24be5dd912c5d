import { registerMswTestHooks } from '@backstage/test-utils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import type { PreviewResponse, ProviderObjects } from '../../api/types';
import {
  cluster,
  clustersResponse,
  deployment,
  model,
} from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { DeploymentWizard } from './DeploymentWizard';

const server = setupServer();
registerMswTestHooks(server);

// Generous: the machine is shared with cluster tests; nothing here measures time.
jest.setTimeout(60_000);

/** What the KAITO provider would write (its top-level fields are the Workspace's own). */
const WORKSPACE = {
  apiVersion: 'kaito.sh/v1beta1',
  kind: 'Workspace',
  metadata: {
    name: 'llama',
    namespace: 'ml',
    labels: { 'airunway.ai/managed-by': 'airunway' },
  },
  resource: { count: 1 },
  inference: { preset: { name: 'llama-3.1-8b-instruct' } },
};

/** A provider's TransformError, as the preview reports it. */
const REFUSED: ProviderObjects = {
  status: 'invalid',
  message:
    'spec.image: KAITO runs its own images for presets; remove spec.image or choose a model without a preset',
  provider: 'kaito',
  apiVersion: 'kaito.sh/v1beta1',
  field: 'spec.image',
  objects: [],
  warnings: [],
};

function serveClusters() {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(ctx.json(clustersResponse([cluster('east'), cluster('west')]))),
    ),
  );
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function fillTarget(name = 'llama') {
  await screen.findByRole('combobox', { name: 'Cluster' });
  await choose('Cluster', 'east');
  await choose('Namespace', 'ml');
  type('Deployment name', name);
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
  for (const control of controls) {
    expect(control).toHaveAccessibleName();
  }
}

describe('DeploymentWizard', () => {
  it('shows runway-common validation messages as the user types, on the field', async () => {
    serveClusters();
    await renderWithApi(<DeploymentWizard />);
    await fillTarget('Bad.Name');
    expect(
      await screen.findByText(/must consist of lower case letters/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /name must not contain dots \(dots are invalid in derived Kubernetes volume and service names\)/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Deployment name')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expectAllControlsLabelled();

    type('Deployment name', 'llama');
    await waitFor(() =>
      expect(
        screen.queryByText(/must consist of lower case letters/),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getByLabelText('Deployment name')).toHaveAttribute(
      'aria-invalid',
      'false',
    );
  });

  it('does not leave a step with errors, and names the missing field', async () => {
    serveClusters();
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText('Model ID')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(
      await screen.findByText(/model\.id is required/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Model ID')).toBeInTheDocument();
  });

  it('shows the automatic selection and its reason live, and explains an incompatible explicit provider', async () => {
    serveClusters();
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'meta-llama/Llama-3.1-8B-Instruct');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    const selection = await screen.findByRole('status', {
      name: 'engine and provider selection',
    });
    expect(selection).toHaveTextContent('engine vllm (automatic)');
    expect(selection).toHaveTextContent('vllm for GPU, aggregated serving');
    expect(selection).toHaveTextContent('provider dynamo (automatic)');
    expectAllControlsLabelled();

    await choose('Engine', 'llama.cpp');
    await waitFor(() =>
      expect(selection).toHaveTextContent('engine llamacpp (explicit)'),
    );
    expect(selection).toHaveTextContent('provider kaito (automatic)');
    expect(selection).toHaveTextContent('engine=llamacpp → kaito');

    await choose('Engine', 'SGLang');
    await choose('Provider', 'KAITO (incompatible)');
    expect(
      await screen.findByText('KAITO cannot run this deployment'),
    ).toBeInTheDocument();
    expect(
      screen.getAllByText('KAITO does not support sglang engine').length,
    ).toBeGreaterThan(0);
    await waitFor(() =>
      expect(
        screen.getByRole('combobox', { name: 'Engine' }),
      ).toHaveAccessibleDescription(/KAITO does not support sglang engine/),
    );
  });

  it('checks the GPU count against the free capacity of the chosen cluster', async () => {
    serveClusters();
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'org/m');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(
      await screen.findByText('Cluster east has 6 free nvidia.com/gpu.'),
    ).toBeInTheDocument();
    type('GPUs per replica', '4');
    type('Replicas', '2');
    expect(
      await screen.findByText(/needs 8 GPU\(s\) but cluster east has 6 free/),
    ).toBeInTheDocument();

    await choose('Serving mode', 'Disaggregated (prefill / decode)');
    expect(await screen.findByLabelText('Prefill workers')).toBeInTheDocument();
    expectAllControlsLabelled();
  });

  it("searches the hub (the model form's component) and checks the fit against the cluster's GPUs by memory", async () => {
    const GiB = 1024 ** 3;
    server.use(
      rest.get(`${API}/clusters`, (_req, res, ctx) =>
        res(
          ctx.json(
            clustersResponse([
              cluster('east', {
                gpus: [
                  {
                    resource: 'nvidia.com/gpu',
                    allocatable: 2,
                    requested: 1,
                    pending: 0,
                    nodes: 1,
                    types: [
                      {
                        product: 'Tesla-T4',
                        memoryBytes: 16 * GiB,
                        nodes: 1,
                        allocatable: 2,
                        free: 1,
                        largestFreeOnNode: 1,
                      },
                    ],
                  },
                ],
              }),
            ]),
          ),
        ),
      ),
      rest.get(`${API}/models`, (_req, res, ctx) =>
        res(ctx.json({ items: [], clusters: [], errors: [] })),
      ),
      rest.get(`${API}/hub/models`, (_req, res, ctx) =>
        res(
          ctx.json({
            endpoint: 'http://127.0.0.1:9999',
            items: [
              {
                id: 'meta-llama/Llama-3.1-8B-Instruct',
                parameters: 8_030_000_000,
                sizeBytes: 16 * GiB,
                license: 'llama3.1',
              },
              { id: 'Qwen/Qwen3-0.6B', sizeBytes: 1.2 * GiB },
            ],
          }),
        ),
      ),
    );
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const search = await screen.findByLabelText('Search the Hugging Face Hub');
    await userEvent.type(search, 'llama');
    await userEvent.click(
      await screen.findByRole('option', { name: /Llama-3\.1-8B-Instruct/ }),
    );
    expect(screen.getByLabelText('Model ID')).toHaveValue(
      'meta-llama/Llama-3.1-8B-Instruct',
    );
    expect(screen.getByLabelText('GPU fit')).toHaveTextContent(
      /Does not fit: needs about 19\.2 GiB, largest free is 16\.0 GiB on one node/,
    );
    await userEvent.clear(search);
    await userEvent.type(search, 'qwen');
    await userEvent.click(
      await screen.findByRole('option', { name: /Qwen3-0\.6B/ }),
    );
    expect(screen.getByLabelText('Model ID')).toHaveValue('Qwen/Qwen3-0.6B');
    expect(screen.getByLabelText('GPU fit')).toHaveTextContent(
      'Fits on 1 free GPU of 16.0 GiB (Tesla-T4): needs about 1.4 GiB.',
    );
  });

  it('uses a cached model: lists the namespace Models, Ready first, mounts the chosen one and removes it again', async () => {
    serveClusters();
    const listed: string[] = [];
    const previews: any[] = [];
    server.use(
      rest.get(`${API}/models`, (req, res, ctx) => {
        listed.push(req.url.search);
        return res(
          ctx.json({
            items: [
              model('east', 'ml', 'a-down', {
                phase: 'Downloading',
                progress: 40,
                message: '40% (2.0 GiB of 5.0 GiB)',
              }),
              model('east', 'ml', 'qwen', { pvcName: 'model-qwen' }),
            ],
            clusters: [],
            errors: [],
          }),
        );
      }),
      rest.post(`${API}/deployments/east/preview`, async (req, res, ctx) => {
        previews.push(await req.json());
        return res(
          ctx.status(503),
          ctx.json({ error: { name: 'Error', message: 'not in this test' } }),
        );
      }),
    );
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    await userEvent.click(
      await screen.findByRole('combobox', { name: 'Use a cached model' }),
    );
    await screen.findByRole('option', { name: 'qwen (org/qwen)' });
    expect(screen.getAllByRole('option').map(o => o.textContent)).toEqual([
      'None: the engine downloads the model',
      'qwen (org/qwen)',
      'a-down (org/a-down) - not Ready',
    ]);
    expect(listed.some(q => /east/.test(q) && /ml/.test(q))).toBe(true);
    await userEvent.click(
      screen.getByRole('option', { name: 'a-down (org/a-down) - not Ready' }),
    );
    expect(
      await screen.findByRole('status', { name: 'cached model' }),
    ).toHaveTextContent(
      'Model a-down is not Ready yet (phase Downloading: 40% (2.0 GiB of 5.0 GiB))',
    );
    expect(screen.getByLabelText('Model ID')).toHaveValue('/models/a-down');

    await choose('Use a cached model', 'qwen (org/qwen)');
    await waitFor(() =>
      expect(
        screen.queryByRole('status', { name: 'cached model' }),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getByLabelText('Model ID')).toHaveValue('/models/qwen');
    expect(screen.getByLabelText('Served model name')).toHaveValue('org/qwen');
    expect(
      screen.getByText(
        /PVC model-qwen is ReadWriteOnce: every replica must run/,
      ),
    ).toBeInTheDocument();
    expectAllControlsLabelled();

    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    await waitFor(() => expect(previews).toHaveLength(1));
    expect(previews[0].spec.model).toEqual({
      id: '/models/qwen',
      source: 'huggingface',
      servedName: 'org/qwen',
      storage: {
        volumes: [
          {
            name: 'model-qwen',
            claimName: 'model-qwen',
            mountPath: '/models/qwen',
            purpose: 'custom',
            readOnly: true,
          },
        ],
      },
    });

    for (let i = 0; i < 4; i++)
      await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await choose('Use a cached model', 'None: the engine downloads the model');
    expect(screen.getByLabelText('Model ID')).toHaveValue('org/qwen');
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    await waitFor(() => expect(previews).toHaveLength(2));
    expect(previews[1].spec.model).toEqual({
      id: 'org/qwen',
      source: 'huggingface',
    });
  });
  it('previews the exact objects with a dry run, then creates', async () => {
    serveClusters();
    const previews: any[] = [];
    const created: any[] = [];
    server.use(
      rest.post(`${API}/deployments/east/preview`, async (req, res, ctx) => {
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
                spec: { ...body.spec, serving: { mode: 'aggregated' } },
              },
            },
          ],
          warnings: [
            {
              path: 'spec.secrets.huggingFaceToken',
              message: 'gated models need a HuggingFace token',
              severity: 'warning',
            },
          ],
          selection: {
            engine: {
              ok: true,
              engine: 'vllm',
              reason: 'vllm for GPU (from cluster)',
              auto: true,
            },
            provider: {
              ok: true,
              provider: 'dynamo',
              reason: 'GPU → dynamo (from cluster)',
              auto: true,
            },
          },
          providerObjects: {
            status: 'available',
            message:
              "Provider 'kaito' would write Workspace llama (kaito.sh/v1beta1)",
            provider: 'kaito',
            apiVersion: 'kaito.sh/v1beta1',
            objects: [WORKSPACE],
            warnings: [
              "Unknown override key spec.provider.overrides.colour is ignored by provider 'kaito'",
            ],
          },
        };
        return res(ctx.json(answer));
      }),
      rest.post(`${API}/deployments/east`, async (req, res, ctx) => {
        created.push({
          dryRun: req.url.searchParams.get('dryRun'),
          body: await req.json(),
        });
        return res(
          ctx.status(201),
          ctx.json({
            cluster: 'east',
            object: created[0].body,
            warnings: [],
            dryRun: false,
          }),
        );
      }),
    );
    await renderWithApi(<DeploymentWizard />, {
      route: '/runway/deploy',
      path: '/runway/deploy',
    });
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'meta-llama/Llama-3.1-8B-Instruct');
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );

    const yaml = await screen.findByLabelText('ModelDeployment llama YAML');
    expect(yaml).toHaveTextContent('uid: dry-run');
    expect(yaml).toHaveTextContent('id: meta-llama/Llama-3.1-8B-Instruct');
    expect(
      screen.getByText(/vllm for GPU \(from cluster\)/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/gated models need a HuggingFace token/),
    ).toBeInTheDocument();
    const providerSection = screen.getByRole('region', {
      name: 'Provider objects',
    });
    expect(
      within(providerSection).getByText(
        'Objects written by provider kaito (kaito.sh/v1beta1)',
      ),
    ).toBeInTheDocument();
    expect(
      within(providerSection).getByText(
        "Provider 'kaito' would write Workspace llama (kaito.sh/v1beta1)",
      ),
    ).toBeInTheDocument();
    expect(
      within(providerSection).getByText(
        /Unknown override key spec.provider.overrides.colour/,
      ),
    ).toBeInTheDocument();
    const workspace = within(providerSection).getByLabelText(
      'Workspace llama YAML',
    );
    expect(workspace).toHaveTextContent('kind: Workspace');
    expect(workspace).toHaveTextContent('name: llama-3.1-8b-instruct');
    expect(previews).toEqual([
      {
        mode: 'create',
        body: {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name: 'llama', namespace: 'ml' },
          spec: {
            model: {
              id: 'meta-llama/Llama-3.1-8B-Instruct',
              source: 'huggingface',
            },
            serving: { mode: 'aggregated' },
            scaling: { replicas: 1 },
            resources: { gpu: { count: 1 } },
          },
        },
      },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(created).toEqual([{ dryRun: null, body: previews[0].body }]);
  });

  it('sets spec.gateway in the advanced step, validated on its fields, and sends it to the preview', async () => {
    serveClusters();
    const previews: any[] = [];
    server.use(
      rest.post(`${API}/deployments/east/preview`, async (req, res, ctx) => {
        const body = await req.json();
        previews.push(body);
        return res(
          ctx.json({
            cluster: 'east',
            mode: 'create',
            objects: [{ action: 'create', object: body }],
            warnings: [],
            providerObjects: REFUSED,
          }),
        );
      }),
    );
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'meta-llama/Llama-3.1-8B-Instruct');
    for (let i = 0; i < 3; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );

    const gateway = await screen.findByRole('group', { name: 'Gateway' });
    expect(
      within(gateway).getByRole('combobox', { name: 'Gateway routing' }),
    ).toHaveTextContent('Automatic (when the cluster has a Gateway)');
    expect(
      within(gateway).getByText(/empty uses "Llama-3.1-8B-Instruct"/),
    ).toBeInTheDocument();
    expectAllControlsLabelled();

    await choose('Gateway routing', 'On');
    type('Gateway model name', 'llama-chat');
    type('Existing HTTPRoute', 'Shared Route');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(
      await screen.findByText(
        /spec.gateway.httpRouteRef "Shared Route" must be the name of an HTTPRoute in the deployment's namespace/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Existing HTTPRoute')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(previews).toEqual([]);

    type('Existing HTTPRoute', 'shared-route');
    await waitFor(() =>
      expect(screen.getByLabelText('Existing HTTPRoute')).toHaveAttribute(
        'aria-invalid',
        'false',
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const yaml = await screen.findByLabelText('ModelDeployment llama YAML');
    expect(yaml).toHaveTextContent('httpRouteRef: shared-route');
    expect(previews[0].spec.gateway).toEqual({
      enabled: true,
      modelName: 'llama-chat',
      httpRouteRef: 'shared-route',
    });
  });

  it("keeps an existing deployment's gateway choice when editing", async () => {
    serveClusters();
    const existing = deployment('east', 'ml', 'llama');
    existing.object.spec.gateway = { enabled: false };
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json({
            ...existing,
            conditions: [],
            events: [],
            owned: [],
            clusters: [],
            errors: [],
          }),
        ),
      ),
    );
    await renderWithApi(
      <DeploymentWizard
        edit={{ cluster: 'east', namespace: 'ml', name: 'llama' }}
      />,
    );
    await screen.findByLabelText('Deployment name');
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    expect(
      await screen.findByRole('combobox', { name: 'Gateway routing' }),
    ).toHaveTextContent('Off (Service only)');
  });

  it('says before the review that the user may not create in the chosen namespace, and disables Create with the reason', async () => {
    serveClusters();
    const permissions = permissionsOverHttp(
      ({ permission, resourceRef }) =>
        permission !== 'runway.deployments.create' || resourceRef !== 'east/ml',
    );
    const denied =
      'you do not have permission runway.deployments.create in namespace "ml" of cluster "east"';
    server.use(
      permissions.handler,
      // The backend refuses the dry run too (the same check, on the same cluster and namespace).
      rest.post(`${API}/deployments/east/preview`, (_req, res, ctx) =>
        res(
          ctx.status(403),
          ctx.json({ error: { name: 'NotAllowedError', message: denied } }),
        ),
      ),
    );
    await renderWithApi(<DeploymentWizard />, { apis: permissions.apis });
    await fillTarget();
    const reason =
      'You do not have permission runway.deployments.create in namespace "ml" of cluster "east"';
    expect(
      await screen.findByText(
        `${reason}: choose another namespace or cluster to be able to create the deployment.`,
      ),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'meta-llama/Llama-3.1-8B-Instruct');
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    const wrapper = await screen.findByLabelText(reason);
    expect(
      within(wrapper).getByRole('button', { name: 'Create' }),
    ).toBeDisabled();
    expect(permissions.asked).toContainEqual({
      permission: 'runway.deployments.create',
      resourceRef: 'east/ml',
    });

    // Another cluster where the policy allows it: Create is no longer refused for permissions.
    await userEvent.click(
      screen.getByRole('button', { name: 'Cluster and namespace' }),
    );
    await choose('Cluster', 'west');
    await waitFor(() =>
      expect(screen.queryByText(new RegExp(reason))).not.toBeInTheDocument(),
    );
    expect(permissions.asked).toContainEqual({
      permission: 'runway.deployments.create',
      resourceRef: 'west/ml',
    });
  });

  it('shows the fields the cluster rejected', async () => {
    serveClusters();
    server.use(
      rest.post(`${API}/deployments/east/preview`, (_req, res, ctx) =>
        res(
          ctx.status(400),
          ctx.json({
            error: {
              name: 'ResourceInvalidError',
              message: 'ModelDeployment ml/llama is invalid',
            },
            issues: [
              {
                path: 'spec.model.id',
                message: 'admission webhook: model org/m is not allowed here',
                severity: 'error',
              },
            ],
          }),
        ),
      ),
    );
    await renderWithApi(<DeploymentWizard />);
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'org/m');
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    const alert = await screen.findByText('The cluster rejected the preview');
    expect(alert.parentElement).toHaveTextContent(
      'spec.model.id: admission webhook: model org/m is not allowed here',
    );
  });

  it('warns before an identity change recreates an existing deployment', async () => {
    serveClusters();
    const existing = deployment('east', 'ml', 'llama');
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(
          ctx.json({
            ...existing,
            conditions: [],
            events: [],
            owned: [],
            clusters: [],
            errors: [],
          }),
        ),
      ),
      rest.post(`${API}/deployments/east/preview`, async (req, res, ctx) =>
        res(
          ctx.json({
            cluster: 'east',
            mode: 'update',
            objects: [{ action: 'update', object: await req.json() }],
            warnings: [],
            providerObjects: REFUSED,
          }),
        ),
      ),
    );
    await renderWithApi(
      <DeploymentWizard
        edit={{ cluster: 'east', namespace: 'ml', name: 'llama' }}
      />,
    );
    expect(await screen.findByLabelText('Deployment name')).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'Qwen/Qwen2.5-7B');
    expect(
      await screen.findByText(
        /changing spec.model.id from org\/llama to Qwen\/Qwen2.5-7B deletes and recreates/,
      ),
    ).toBeInTheDocument();
    for (let i = 0; i < 4; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    const warning = await screen.findByText(
      'This change recreates the deployment',
    );
    expect(warning.parentElement).toHaveTextContent(
      'spec.model.id: org/llama → Qwen/Qwen2.5-7B',
    );
    const update = screen.getByRole('button', { name: 'Update' });
    await waitFor(() =>
      expect(
        screen.queryByLabelText('loading preview'),
      ).not.toBeInTheDocument(),
    );
    const refused = screen.getByText(
      'The provider would refuse this deployment',
    );
    expect(refused.parentElement).toHaveTextContent(REFUSED.message);
    expect(update).toBeDisabled();
    await userEvent.click(
      within(warning.parentElement!).getByRole('checkbox', {
        name: 'I understand the deployment will be recreated',
      }),
    );
    expect(update).toBeEnabled();
  });

  it('labels a deployment started from a catalog entity with its kubernetes-id', async () => {
    serveClusters();
    await renderWithApi(<DeploymentWizard />, {
      route: '/runway/deploy?kubernetesId=chatbot',
      path: '/runway/deploy',
    });
    await fillTarget();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Model ID', 'org/m');
    for (let i = 0; i < 3; i++)
      await userEvent.click(
        await screen.findByRole('button', { name: 'Next' }),
      );
    expect(await screen.findByLabelText('Label 1')).toHaveValue(
      'backstage.io/kubernetes-id',
    );
    expect(screen.getByLabelText('Label value 1')).toHaveValue('chatbot');
    expectAllControlsLabelled();
  });
});

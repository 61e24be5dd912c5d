import { registerMswTestHooks } from '@backstage/test-utils';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import { cluster, clustersResponse, model } from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { ModelForm } from './ModelForm';

const server = setupServer();
registerMswTestHooks(server);

// Generous: the machine is shared with cluster tests; nothing here measures time.
jest.setTimeout(60_000);

function serveClusters() {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(ctx.json(clustersResponse([cluster('east'), cluster('west')]))),
    ),
    rest.get(`${API}/clusters/:cluster/storageclasses`, (req, res, ctx) =>
      res(
        ctx.json({
          cluster: req.params.cluster,
          items: [
            {
              name: 'standard',
              provisioner: 'rancher.io/local-path',
              isDefault: true,
            },
            { name: 'fast', provisioner: 'csi.example.com', isDefault: false },
          ],
        }),
      ),
    ),
    rest.get(
      `${API}/clusters/:cluster/namespaces/:namespace/secrets`,
      (req, res, ctx) =>
        res(
          ctx.json({
            cluster: req.params.cluster,
            namespace: req.params.namespace,
            items: [{ name: 'hf-token' }, { name: 's3-creds' }],
          }),
        ),
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

async function fillTarget(name = 'tiny') {
  await screen.findByRole('combobox', { name: 'Cluster' });
  await choose('Cluster', 'east');
  await choose('Namespace', 'ml');
  type('Model name', name);
}

const next = () =>
  userEvent.click(screen.getByRole('button', { name: 'Next' }));

/** The app's routes around the form: where Create leads. */
function Page() {
  return (
    <Routes>
      <Route path="/" element={<ModelForm />} />
      <Route
        path="/runway/models/:cluster/:namespace/:name"
        element={<div>model page</div>}
      />
    </Routes>
  );
}

describe('ModelForm', () => {
  it("shows runway-common's messages on the fields as the user types, and keeps the step until they are fixed", async () => {
    serveClusters();
    await renderWithApi(<ModelForm />);
    await fillTarget('this-name-is-far-too-long-for-the-download-job-name-x');
    expect(
      await screen.findByText(/because the download Job is named/),
    ).toBeInTheDocument();
    await next();
    expect(screen.getByLabelText('Model name')).toBeInTheDocument();
    type('Model name', 'tiny');
    await waitFor(() =>
      expect(
        screen.queryByText(/because the download Job is named/),
      ).not.toBeInTheDocument(),
    );
    await next();
    type('Repository', 'not-a-repo');
    expect(
      await screen.findByText(
        /must be a HuggingFace repository ID of the form/,
      ),
    ).toBeInTheDocument();
    await next();
    expect(screen.getByLabelText('Repository')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('previews exactly what will be written, then creates it and opens its page', async () => {
    serveClusters();
    const previews: any[] = [];
    const creates: any[] = [];
    server.use(
      rest.post(`${API}/models/east/preview`, async (req, res, ctx) => {
        const body = await req.json();
        previews.push({ mode: req.url.searchParams.get('mode'), body });
        return res(
          ctx.json({
            cluster: 'east',
            mode: 'create',
            objects: [
              {
                action: 'create',
                object: { ...body, metadata: { ...body.metadata, uid: 'x' } },
              },
            ],
            warnings: [],
            providerObjects: {
              status: 'not-applicable',
              message: 'Models have no provider objects.',
              objects: [],
              warnings: [],
            },
          }),
        );
      }),
      rest.post(`${API}/models/east`, async (req, res, ctx) => {
        const body = await req.json();
        creates.push(body);
        return res(
          ctx.status(201),
          ctx.json({ cluster: 'east', object: body }),
        );
      }),
    );
    await renderWithApi(<Page />);
    await fillTarget();
    await next();
    type('Repository', 'runway-demo/tiny-model');
    type('Credentials Secret', 'hf-token');
    await next();
    type('Storage class', 'standard');
    type('Size', '1Gi');
    await next();
    expect(
      await screen.findByText(/Objects written to cluster east/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Model tiny YAML')).toHaveTextContent(
      'repoId: runway-demo/tiny-model',
    );
    const expected = {
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      metadata: { name: 'tiny', namespace: 'ml' },
      spec: {
        source: {
          huggingFace: { repoId: 'runway-demo/tiny-model', revision: 'main' },
        },
        storage: {
          storageClass: 'standard',
          size: '1Gi',
          accessModes: ['ReadWriteOnce'],
        },
        credentialsSecret: 'hf-token',
      },
    };
    expect(previews).toEqual([{ mode: 'create', body: expected }]);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('model page')).toBeInTheDocument();
    expect(creates).toEqual([expected]);
  });

  it("puts the API's field errors on the fields", async () => {
    serveClusters();
    server.use(
      rest.post(`${API}/models/east/preview`, (_req, res, ctx) =>
        res(
          ctx.json({
            cluster: 'east',
            mode: 'create',
            objects: [],
            warnings: [],
            providerObjects: {
              status: 'not-applicable',
              message: '',
              objects: [],
              warnings: [],
            },
          }),
        ),
      ),
      rest.post(`${API}/models/east`, (_req, res, ctx) =>
        res(
          ctx.status(400),
          ctx.json({
            error: { name: 'InputError', message: 'Model ml/tiny is invalid' },
            issues: [
              {
                path: 'spec.storage.storageClass',
                message:
                  'spec.storage.storageClass: StorageClass "fast" does not exist in cluster east; choose one of standard',
                severity: 'error',
              },
            ],
          }),
        ),
      ),
    );
    await renderWithApi(<ModelForm />);
    await fillTarget();
    await next();
    type('Repository', 'runway-demo/tiny-model');
    await next();
    type('Storage class', 'fast');
    await next();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    expect(
      await screen.findByText('Model ml/tiny is invalid'),
    ).toBeInTheDocument();
    // The form opens the step of the field at fault, with the message on it.
    await waitFor(() =>
      expect(screen.getByLabelText('Storage class')).toHaveAttribute(
        'aria-invalid',
        'true',
      ),
    );
    expect(screen.getByLabelText('Storage class')).toHaveAccessibleDescription(
      /StorageClass "fast" does not exist in cluster east/,
    );
  });

  it('switches between sources and writes the chosen one only', async () => {
    serveClusters();
    await renderWithApi(<ModelForm />);
    await fillTarget();
    await next();
    await choose('Source', 'S3 or S3-compatible storage');
    type('Bucket', 'weights');
    type('Key or prefix', 'llama/');
    type('Endpoint', 'minio:9000');
    expect(
      await screen.findByText(/must be an http:\/\/ or https:\/\/ URL/),
    ).toBeInTheDocument();
    await choose('Source', 'URL (one file over HTTP)');
    type('URL', 'https://example.com/model.gguf');
    type('Credentials Secret', 'hf-token');
    expect(
      await screen.findByText(
        /spec.credentialsSecret is not used by a url source/,
      ),
    ).toBeInTheDocument();
  });

  it('edits an existing model with cluster, namespace and name fixed', async () => {
    serveClusters();
    server.use(
      rest.get(`${API}/models/east/ml/tiny`, (_req, res, ctx) =>
        res(
          ctx.json({
            ...model('east', 'ml', 'tiny'),
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
      <ModelForm edit={{ cluster: 'east', namespace: 'ml', name: 'tiny' }} />,
    );
    expect(
      await screen.findByRole('heading', { name: 'Edit model tiny' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Model name')).toBeDisabled();
    await next();
    expect(screen.getByLabelText('Repository')).toHaveValue('org/tiny');
  });

  it('says when the user may not add models in the chosen namespace, and disables Create', async () => {
    serveClusters();
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.models.create',
    );
    server.use(
      permissions.handler,
      rest.post(`${API}/models/east/preview`, (_req, res, ctx) =>
        res(
          ctx.json({
            cluster: 'east',
            mode: 'create',
            objects: [],
            warnings: [],
            providerObjects: {
              status: 'not-applicable',
              message: '',
              objects: [],
              warnings: [],
            },
          }),
        ),
      ),
    );
    await renderWithApi(<ModelForm />, { apis: permissions.apis });
    await fillTarget();
    expect(
      await screen.findByText(/runway\.models\.create/),
    ).toBeInTheDocument();
    await next();
    type('Repository', 'runway-demo/tiny-model');
    await next();
    type('Storage class', 'standard');
    await next();
    expect(
      await screen.findByRole('button', { name: 'Create' }),
    ).toBeDisabled();
  });

  it("suggests the cluster's storage classes and the namespace's Secret names, and still takes any name when they cannot be listed", async () => {
    serveClusters();
    await renderWithApi(<ModelForm />);
    await fillTarget();
    await next();
    await userEvent.click(screen.getByLabelText('Credentials Secret'));
    await userEvent.click(
      await screen.findByRole('option', { name: 's3-creds' }),
    );
    expect(screen.getByLabelText('Credentials Secret')).toHaveValue('s3-creds');
    type('Repository', 'runway-demo/tiny-model');
    await next();
    await userEvent.click(screen.getByLabelText('Storage class'));
    await userEvent.click(
      await screen.findByRole('option', {
        name: 'standard (default, rancher.io/local-path)',
      }),
    );
    expect(screen.getByLabelText('Storage class')).toHaveValue('standard');

    server.use(
      rest.get(`${API}/clusters/:cluster/storageclasses`, (_req, res, ctx) =>
        res(
          ctx.status(503),
          ctx.json({
            error: {
              name: 'ClusterUnavailableError',
              message: 'cannot reach cluster "west"',
            },
          }),
        ),
      ),
    );
    await userEvent.click(
      screen.getByRole('button', { name: 'Cluster and namespace' }),
    );
    await choose('Cluster', 'west');
    await next();
    await next();
    expect(
      await screen.findByText(
        /Cannot list them: cannot reach cluster "west"; type the name/,
      ),
    ).toBeInTheDocument();
    type('Storage class', 'my-class');
    expect(screen.getByLabelText('Storage class')).toHaveValue('my-class');
  });

  it('searches the hub through the backend, fills the repository, and shows size, parameters, license and the GPU-fit estimate', async () => {
    serveClusters();
    const searches: string[] = [];
    server.use(
      rest.get(`${API}/hub/models`, (req, res, ctx) => {
        searches.push(req.url.searchParams.get('search') ?? '');
        return res(
          ctx.json({
            endpoint: 'http://127.0.0.1:9999',
            items: [
              {
                id: 'meta-llama/Llama-3.1-8B-Instruct',
                parameters: 8_030_000_000,
                sizeBytes: 16_060_000_000,
                license: 'llama3.1',
                gated: true,
              },
            ],
          }),
        );
      }),
    );
    await renderWithApi(<ModelForm />);
    await fillTarget();
    await next();
    await userEvent.type(
      screen.getByLabelText('Search the Hugging Face Hub'),
      'llama',
    );
    const option = await screen.findByRole('option', {
      name: /meta-llama\/Llama-3\.1-8B-Instruct/,
    });
    expect(option).toHaveTextContent(
      '8.0B parameters · 15.0 GiB · license llama3.1 · gated: needs HF_TOKEN',
    );
    await userEvent.click(option);
    expect(screen.getByLabelText('Repository')).toHaveValue(
      'meta-llama/Llama-3.1-8B-Instruct',
    );
    const fit = screen.getByLabelText('GPU fit');
    expect(fit).toHaveTextContent(/Needs about 17\.\d GiB of GPU memory/);
    expect(fit).toHaveTextContent(/does not report its GPUs' memory/);
    // Debounced: one request for the word typed, not one per letter.
    expect(searches).toEqual(['llama']);
  });
});

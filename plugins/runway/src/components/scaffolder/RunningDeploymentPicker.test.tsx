import { type TemplateParameterSchema } from '@backstage/plugin-scaffolder-react';
import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { runwayRunningDeploymentPickerField } from '../../alpha';
import { RunwayRunningDeploymentPickerFieldExtension } from '../../plugin';
import {
  cluster,
  clustersResponse,
  deployment,
} from '../../__testUtils__/fixtures';
import { API } from '../../__testUtils__/render';
import {
  expectFieldInBothSystems,
  pickClusterThenOpen,
  renderScaffolderForm,
} from '../../__testUtils__/scaffolderForm';
import {
  RunwayRunningDeploymentPickerSchema,
  runwayRunningDeploymentPickerOptions,
  validateRunwayRunningDeployment,
} from './RunningDeploymentPicker';
import {
  RunwayClusterPickerSchema,
  runwayClusterPickerOptions,
} from './RunwayPickers';

const server = setupServer();
registerMswTestHooks(server);

jest.setTimeout(60_000);

function serve() {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(ctx.json(clustersResponse([cluster('east'), cluster('west')]))),
    ),
    rest.get(`${API}/deployments`, (req, res, ctx) =>
      res(
        ctx.json({
          items: [
            deployment('east', 'ml', 'llama', {
              gateway: { endpoint: 'http://gw.east', modelName: 'llama-3' },
            }),
            deployment('east', 'ml', 'qwen'),
            deployment('east', 'ml', 'loading', { phase: 'Deploying' }),
            deployment('west', 'ml', 'far'),
          ].filter(d =>
            req.url.searchParams.getAll('cluster').includes(d.cluster),
          ),
          clusters: [],
          errors: [],
        }),
      ),
    ),
  );
}

const manifest: TemplateParameterSchema = {
  title: 'Create a stack',
  steps: [
    {
      title: 'Where',
      schema: {
        type: 'object',
        required: ['target', 'inference'],
        properties: {
          target: {
            title: 'Target cluster',
            type: 'string',
            'ui:field': 'RunwayClusterPicker',
          },
          inference: {
            title: 'Inference deployment',
            type: 'object',
            'ui:field': 'RunwayRunningDeploymentPicker',
            'ui:options': { clusterField: 'target' },
          },
        },
      },
    },
  ],
};

const extensions = [
  { ...runwayClusterPickerOptions, schema: RunwayClusterPickerSchema.schema },
  {
    ...runwayRunningDeploymentPickerOptions,
    schema: RunwayRunningDeploymentPickerSchema.schema,
  },
];

function renderForm(initialState?: Record<string, unknown>) {
  return renderScaffolderForm(manifest, extensions, initialState);
}

describe('RunwayRunningDeploymentPicker in the scaffolder form', () => {
  it("offers the chosen cluster's Ready deployments and hands the endpoint and model name to the template", async () => {
    serve();
    const onCreate = await renderForm();
    const listbox = await pickClusterThenOpen(/Inference deployment/);
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual([
      'ml/llamallama-3 via gateway (http://gw.east/v1)',
      'ml/qwenqwen via service (http://qwen.ml.svc:8000/v1)',
    ]);
    await userEvent.click(
      within(listbox).getByRole('option', { name: /ml\/qwen/ }),
    );
    expect(
      await screen.findByText('http://qwen.ml.svc:8000/v1, model "qwen"'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({
        target: 'east',
        inference: {
          deployment: 'ml/qwen',
          endpoint: 'http://qwen.ml.svc:8000/v1',
          model: 'qwen',
        },
      }),
    );
  });

  it('blocks the step when the deployment is not Ready there, naming the ones that are', async () => {
    serve();
    const onCreate = await renderForm({
      target: 'east',
      inference: {
        deployment: 'ml/loading',
        endpoint: 'http://x/v1',
        model: 'x',
      },
    });
    expect(
      await screen.findByText('not a Ready deployment of cluster east'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findAllByText(
        'Inference deployment: deployment ml/loading is not Ready in cluster "east"; choose one of ml/llama, ml/qwen',
      ),
    ).not.toHaveLength(0);
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('is registered in both frontend systems with its validation', async () => {
    await expectFieldInBothSystems({
      id: 'runway-running-deployment-picker',
      extension: runwayRunningDeploymentPickerField,
      legacy: RunwayRunningDeploymentPickerFieldExtension,
      name: 'RunwayRunningDeploymentPicker',
      validation: validateRunwayRunningDeployment,
    });
  });
});

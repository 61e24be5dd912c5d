import { type TemplateParameterSchema } from '@backstage/plugin-scaffolder-react';
import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { runwayModelPickerField } from '../../alpha';
import { RunwayModelPickerFieldExtension } from '../../plugin';
import { cluster, clustersResponse, model } from '../../__testUtils__/fixtures';
import { API } from '../../__testUtils__/render';
import {
  expectFieldInBothSystems,
  pickClusterThenOpen,
  renderScaffolderForm,
} from '../../__testUtils__/scaffolderForm';
import {
  RunwayModelPickerSchema,
  runwayModelPickerOptions,
  validateRunwayModel,
} from './ModelPicker';
import {
  RunwayClusterPickerSchema,
  runwayClusterPickerOptions,
} from './RunwayPickers';

const server = setupServer();
registerMswTestHooks(server);

jest.setTimeout(60_000);

const namespaces: string[] = [];

function serve() {
  namespaces.length = 0;
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(ctx.json(clustersResponse([cluster('east'), cluster('west')]))),
    ),
    rest.get(`${API}/models`, (req, res, ctx) => {
      const namespace = req.url.searchParams.get('namespace');
      namespaces.push(namespace ?? '');
      return res(
        ctx.json({
          items: [
            model('east', 'ml', 'zephyr', { pvcName: 'model-zephyr' }),
            model('east', 'ml', 'qwen', {
              phase: 'Downloading',
              progress: 40,
            }),
            model('east', 'ml', 'broken', {
              phase: 'Failed',
              message: 'repo not found',
            }),
            model(
              'east',
              'team',
              'llama',
              {},
              { source: { url: { url: 'https://x/llama.gguf' } } },
            ),
            model('west', 'ml', 'far'),
          ].filter(
            m =>
              req.url.searchParams.getAll('cluster').includes(m.cluster) &&
              (!namespace ||
                (m.object as any).metadata.namespace === namespace),
          ),
          clusters: [],
          errors: [],
        }),
      );
    }),
  );
}

const manifest: TemplateParameterSchema = {
  title: 'Mount a model',
  steps: [
    {
      title: 'Where',
      schema: {
        type: 'object',
        required: ['target', 'weights'],
        properties: {
          target: {
            title: 'Target cluster',
            type: 'string',
            'ui:field': 'RunwayClusterPicker',
          },
          weights: {
            title: 'Model files',
            type: 'object',
            'ui:field': 'RunwayModelPicker',
            'ui:options': { clusterField: 'target' },
          },
        },
      },
    },
  ],
};

const extensions = [
  { ...runwayClusterPickerOptions, schema: RunwayClusterPickerSchema.schema },
  { ...runwayModelPickerOptions, schema: RunwayModelPickerSchema.schema },
];

function renderForm(initialState?: Record<string, unknown>, schema = manifest) {
  return renderScaffolderForm(schema, extensions, initialState);
}

describe('RunwayModelPicker in the scaffolder form', () => {
  it("lists the chosen cluster's models Ready first with their phase and hands name, namespace, PVC and mount path to the template", async () => {
    serve();
    const onCreate = await renderForm();
    const listbox = await pickClusterThenOpen(/Model files/);
    const options = within(listbox).getAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual([
      'ml/zephyrReady · HuggingFace org/zephyr@main',
      'team/llamaReady · https://x/llama.gguf',
      'ml/brokenFailed · HuggingFace org/broken@main · repo not found',
      'ml/qwenDownloading · HuggingFace org/qwen@main',
    ]);
    // A failed model cannot be picked.
    expect(options[2]).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(
      within(listbox).getByRole('option', { name: /ml\/zephyr/ }),
    );
    expect(
      await screen.findByText('PVC model-zephyr, mounted at /models/zephyr'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({
        target: 'east',
        weights: {
          model: 'ml/zephyr',
          name: 'zephyr',
          namespace: 'ml',
          claimName: 'model-zephyr',
          mountPath: '/models/zephyr',
        },
      }),
    );
  });

  it('lists only the namespace in namespaceField and says a model still downloading is refused until Ready', async () => {
    serve();
    const withNamespace: TemplateParameterSchema = {
      ...manifest,
      steps: [
        {
          ...manifest.steps[0],
          schema: {
            ...manifest.steps[0].schema,
            properties: {
              ...(manifest.steps[0].schema.properties as any),
              ns: { title: 'Namespace', type: 'string' },
              weights: {
                title: 'Model files',
                type: 'object',
                'ui:field': 'RunwayModelPicker',
                'ui:options': { clusterField: 'target', namespaceField: 'ns' },
              },
            },
          },
        },
      ],
    };
    const onCreate = await renderForm(
      {
        target: 'east',
        ns: 'ml',
        weights: {
          model: 'ml/qwen',
          name: 'qwen',
          namespace: 'ml',
          claimName: 'model-qwen',
          mountPath: '/models/qwen',
        },
      },
      withNamespace,
    );
    expect(
      await screen.findByText(
        'Downloading: pods that mount it are refused until it is Ready',
      ),
    ).toBeInTheDocument();
    expect(namespaces).toContain('ml');
    const picker = screen.getByRole('combobox', { name: /Model files/ });
    await userEvent.click(picker);
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map(o => o.textContent?.split('·')[0].trim()),
    ).toEqual(['ml/zephyrReady', 'ml/brokenFailed', 'ml/qwenDownloading']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    await waitFor(() => expect(onCreate).toHaveBeenCalled());
  });

  it('blocks the step when the model is gone or Failed, naming the ones to choose', async () => {
    serve();
    const onCreate = await renderForm({
      target: 'east',
      weights: {
        model: 'ml/broken',
        name: 'broken',
        namespace: 'ml',
        claimName: 'model-broken',
        mountPath: '/models/broken',
      },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Review' }),
    );
    expect(
      await screen.findAllByText(
        'Model files: model ml/broken has Failed (repo not found); fix it on its page or choose one of ml/zephyr, team/llama, ml/qwen',
      ),
    ).not.toHaveLength(0);
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('says a model that is not there is not in the cluster', async () => {
    serve();
    const onCreate = await renderForm({
      target: 'west',
      weights: {
        model: 'ml/zephyr',
        name: 'zephyr',
        namespace: 'ml',
        claimName: 'model-zephyr',
        mountPath: '/models/zephyr',
      },
    });
    expect(
      await screen.findByText('not a model of cluster west'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findAllByText(
        'Model files: model ml/zephyr is not in cluster west; choose one of ml/far',
      ),
    ).not.toHaveLength(0);
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('is registered in both frontend systems with its validation', async () => {
    await expectFieldInBothSystems({
      id: 'runway-model-picker',
      extension: runwayModelPickerField,
      legacy: RunwayModelPickerFieldExtension,
      name: 'RunwayModelPicker',
      validation: validateRunwayModel,
    });
  });
});

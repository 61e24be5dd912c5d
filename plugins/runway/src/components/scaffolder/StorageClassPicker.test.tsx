import { type TemplateParameterSchema } from '@backstage/plugin-scaffolder-react';
import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { runwayStorageClassPickerField } from '../../alpha';
import { RunwayStorageClassPickerFieldExtension } from '../../plugin';
import { cluster, clustersResponse } from '../../__testUtils__/fixtures';
import { API } from '../../__testUtils__/render';
import {
  expectFieldInBothSystems,
  pickClusterThenOpen,
  renderScaffolderForm,
} from '../../__testUtils__/scaffolderForm';
import {
  RunwayClusterPickerSchema,
  runwayClusterPickerOptions,
} from './RunwayPickers';
import {
  RunwayStorageClassPickerSchema,
  runwayStorageClassPickerOptions,
  validateRunwayStorageClass,
} from './StorageClassPicker';

const server = setupServer();
registerMswTestHooks(server);

jest.setTimeout(60_000);

const CLASSES: Record<string, unknown[]> = {
  east: [
    { name: 'standard', provisioner: 'rancher.io/local-path', isDefault: true },
    { name: 'fast-ssd', provisioner: 'ebs.csi.aws.com', isDefault: false },
  ],
  west: [],
};

function serve() {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(
        ctx.json(
          clustersResponse([cluster('east'), cluster('west'), cluster('down')]),
        ),
      ),
    ),
    rest.get(`${API}/clusters/:cluster/storageclasses`, (req, res, ctx) => {
      const name = String(req.params.cluster);
      if (!(name in CLASSES))
        return res(
          ctx.status(503),
          ctx.json({
            error: {
              name: 'ServiceUnavailableError',
              message: `cluster ${name} is unreachable`,
            },
          }),
        );
      return res(ctx.json({ cluster: name, items: CLASSES[name] }));
    }),
  );
}

const manifest: TemplateParameterSchema = {
  title: 'Download a model',
  steps: [
    {
      title: 'Where',
      schema: {
        type: 'object',
        required: ['target'],
        properties: {
          target: {
            title: 'Target cluster',
            type: 'string',
            'ui:field': 'RunwayClusterPicker',
          },
          storageClass: {
            title: 'Storage class',
            type: 'string',
            'ui:field': 'RunwayStorageClassPicker',
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
    ...runwayStorageClassPickerOptions,
    schema: RunwayStorageClassPickerSchema.schema,
  },
];

const render = (initialState?: Record<string, unknown>) =>
  renderScaffolderForm(manifest, extensions, initialState);

describe('RunwayStorageClassPicker in the scaffolder form', () => {
  it("lists the chosen cluster's storage classes, default marked, and hands the name to the template", async () => {
    serve();
    const onCreate = await render();
    const listbox = await pickClusterThenOpen(/Storage class/);
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual([
      "The cluster's defaultstandard",
      'standarddefault · rancher.io/local-path',
      'fast-ssdebs.csi.aws.com',
    ]);
    await userEvent.click(
      within(listbox).getByRole('option', { name: /fast-ssd/ }),
    );
    expect(
      await screen.findByText('Provisioner ebs.csi.aws.com'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({
        target: 'east',
        storageClass: 'fast-ssd',
      }),
    );
  });

  it('blocks the step when the class is not in the cluster, naming the ones to choose', async () => {
    serve();
    const onCreate = await render({ target: 'east', storageClass: 'gold' });
    expect(
      await screen.findByText('not a storage class of cluster east'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findAllByText(
        'Storage class: storage class gold is not in cluster east; choose one of standard, fast-ssd',
      ),
    ).not.toHaveLength(0);
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('says when the cluster has no class or cannot be read', async () => {
    serve();
    await render({ target: 'west' });
    expect(
      await screen.findByText(
        'Cluster west has no StorageClass: ask its administrators for one, or leave it empty',
      ),
    ).toBeInTheDocument();
  });

  it('names the cluster and the reason when the list fails', async () => {
    serve();
    await render({ target: 'down' });
    expect(
      await screen.findByText(
        /^Could not list the storage classes of cluster down: .*unreachable/,
      ),
    ).toBeInTheDocument();
  });

  it('is registered in both frontend systems with its validation', async () => {
    await expectFieldInBothSystems({
      id: 'runway-storage-class-picker',
      extension: runwayStorageClassPickerField,
      legacy: RunwayStorageClassPickerFieldExtension,
      name: 'RunwayStorageClassPicker',
      validation: validateRunwayStorageClass,
    });
  });
});

import { registerMswTestHooks } from '@backstage/test-utils';
import type { TemplateParameterSchema } from '@backstage/plugin-scaffolder-react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { cluster, clustersResponse } from '../../__testUtils__/fixtures';
import { API } from '../../__testUtils__/render';
import { renderScaffolderForm } from '../../__testUtils__/scaffolderForm';
import {
  RunwayClusterPickerSchema,
  runwayClusterPickerOptions,
  RunwayNamespacePickerSchema,
  runwayNamespacePickerOptions,
} from './RunwayPickers';

const server = setupServer();
registerMswTestHooks(server);

function serveClusters() {
  server.use(
    rest.get(`${API}/clusters`, (_req, res, ctx) =>
      res(
        ctx.json(
          clustersResponse(
            [
              cluster('east', { title: 'East (GPU)' }),
              cluster('west', { reachable: false }),
              cluster('north', { namespaces: undefined, gpus: [] }),
            ],
            [
              {
                cluster: 'west',
                reason: 'Timeout',
                message: 'no answer within 5s',
              },
            ],
          ),
        ),
      ),
    ),
  );
}

// A template's parameters as the scaffolder backend hands them to the form;
// the field names are not the defaults, so ui:options.clusterField matters.
const manifest: TemplateParameterSchema = {
  title: 'Deploy a model',
  steps: [
    {
      title: 'Where',
      schema: {
        type: 'object',
        required: ['target', 'ns'],
        properties: {
          target: {
            title: 'Target cluster',
            type: 'string',
            'ui:field': 'RunwayClusterPicker',
          },
          ns: {
            title: 'Namespace',
            type: 'string',
            'ui:field': 'RunwayNamespacePicker',
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
    ...runwayNamespacePickerOptions,
    schema: RunwayNamespacePickerSchema.schema,
  },
];

function renderForm(initialState?: Record<string, string>) {
  return renderScaffolderForm(manifest, extensions, initialState);
}

describe('RunwayClusterPicker and RunwayNamespacePicker in the scaffolder form', () => {
  it('lists the registered clusters with health and free GPUs, unreachable ones disabled with the reason', async () => {
    serveClusters();
    await renderForm();
    const select = await screen.findByRole('combobox', {
      name: /Target cluster/,
    });
    await waitFor(() => expect(select).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(select);
    const listbox = await screen.findByRole('listbox');
    const east = within(listbox).getByRole('option', {
      name: /East \(GPU\) \(east\)/,
    });
    expect(east).toHaveTextContent('6 free nvidia.com/gpu');
    expect(east).not.toHaveAttribute('aria-disabled', 'true');
    const west = within(listbox).getByRole('option', { name: /west \(west\)/ });
    expect(west).toHaveTextContent('Timeout: no answer within 5s');
    expect(west).toHaveAttribute('aria-disabled', 'true');
    expect(
      within(listbox).getByRole('option', { name: /north \(north\)/ }),
    ).toHaveTextContent('no GPUs');
  });

  it("offers the chosen cluster's allowed namespaces and hands both values to the template", async () => {
    serveClusters();
    const onCreate = await renderForm();
    expect(
      await screen.findByText('Choose a cluster first (form field "target")'),
    ).toBeInTheDocument();
    const select = await screen.findByRole('combobox', {
      name: /Target cluster/,
    });
    await waitFor(() => expect(select).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(select);
    await userEvent.click(
      await screen.findByRole('option', { name: /East \(GPU\)/ }),
    );
    expect(
      await screen.findByText('East (GPU): 6 free nvidia.com/gpu'),
    ).toBeInTheDocument();

    await userEvent.click(
      await screen.findByRole('combobox', { name: /^Namespace/ }),
    );
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual(['default', 'ml']);
    await userEvent.click(within(listbox).getByRole('option', { name: 'ml' }));

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create' }),
    );
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({ target: 'east', ns: 'ml' }),
    );
  });

  it('takes any DNS-label namespace on a cluster without an allow-list, and says what is wrong as you type', async () => {
    serveClusters();
    await renderForm({ target: 'north' });
    const input = await screen.findByRole('textbox', { name: /Namespace/ });
    await waitFor(() => expect(input).toBeEnabled());
    expect(
      screen.getByText('Any namespace of cluster north'),
    ).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'ML_Team' } });
    expect(
      await screen.findByText(
        /Namespace: "ML_Team" is not a valid namespace name; use at most 63 lowercase/,
      ),
    ).toBeInTheDocument();
  });

  it('blocks the step with messages naming the field and how to fix it', async () => {
    serveClusters();
    const onCreate = await renderForm({ target: 'west', ns: 'prod' });
    await screen.findByRole('combobox', { name: /Target cluster/ });
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findAllByText(
        'Target cluster: cluster "west" cannot be used now (Timeout: no answer within 5s); choose one of east, north',
      ),
    ).not.toHaveLength(0);
    expect(
      screen.getAllByText(
        'Namespace: namespace "prod" is not open to the portal in cluster "west"; choose one of default, ml',
      ),
    ).not.toHaveLength(0);
    expect(
      screen.queryByRole('button', { name: 'Create' }),
    ).not.toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('keeps a template default the portal does not know visible, and says so', async () => {
    serveClusters();
    await renderForm({ target: 'dev', ns: 'default' });
    expect(
      await screen.findByText('not registered with Runway Portal'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Cluster "dev" is not registered with Runway Portal; choose a registered cluster first',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      await screen.findAllByText(
        'Target cluster: cluster "dev" is not registered with Runway Portal; choose one of east, north',
      ),
    ).not.toHaveLength(0);
  });

  it('reports a backend failure on the field', async () => {
    server.use(
      rest.get(`${API}/clusters`, (_req, res, ctx) =>
        res(
          ctx.status(500),
          ctx.json({ error: { name: 'Error', message: 'kubeconfig missing' } }),
        ),
      ),
    );
    await renderForm();
    expect(
      await screen.findByText(
        /Could not load the registered clusters from the Runway backend: .*kubeconfig missing/,
      ),
    ).toBeInTheDocument();
  });
});

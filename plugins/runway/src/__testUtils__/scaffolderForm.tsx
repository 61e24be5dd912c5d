/**
 * The scaffolder-form harness the field-extension tests share: a template
 * rendered in the scaffolder's own Stepper (with the real RunwayClient over
 * msw), and the check that a field is registered in both frontend systems.
 */
import { featureFlagsApiRef } from '@backstage/core-plugin-api';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import {
  type CustomFieldValidator,
  ScaffolderFieldExtensions,
  type TemplateParameterSchema,
  useCustomFieldExtensions,
} from '@backstage/plugin-scaffolder-react';
import {
  FormFieldBlueprint,
  Stepper,
} from '@backstage/plugin-scaffolder-react/alpha';
import { TestApiProvider } from '@backstage/test-utils';
import { renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType, ReactNode } from 'react';
import newSystemPlugin, { type runwayModelPickerField } from '../alpha';
import { renderWithApi } from './render';

type FieldExtensions = Parameters<typeof Stepper>[0]['extensions'];

/** Renders `manifest` in the scaffolder's Stepper with `extensions`; returns the `onCreate` mock (called with the form's values). */
export async function renderScaffolderForm(
  manifest: TemplateParameterSchema,
  extensions: FieldExtensions,
  initialState?: Record<string, unknown>,
) {
  const onCreate = jest.fn(async (_values: Record<string, unknown>) => {});
  await renderWithApi(
    <Stepper
      manifest={manifest}
      extensions={extensions}
      onCreate={onCreate}
      initialState={initialState as any}
    />,
  );
  return onCreate;
}

/**
 * The steps every cluster-dependent picker starts with: the picker says a
 * cluster comes first, the cluster picker (titled "Target cluster", form
 * field `target`) gets `cluster`, then the picker labelled `picker` opens.
 * Returns its listbox.
 */
export async function pickClusterThenOpen(picker: RegExp, cluster = /east/) {
  expect(
    await screen.findByText('Choose a cluster first (form field "target")'),
  ).toBeInTheDocument();
  const clusterSelect = await screen.findByRole('combobox', {
    name: /Target cluster/,
  });
  await waitFor(() =>
    expect(clusterSelect).not.toHaveAttribute('aria-disabled'),
  );
  await userEvent.click(clusterSelect);
  await userEvent.click(await screen.findByRole('option', { name: cluster }));
  const select = await screen.findByRole('combobox', { name: picker });
  await waitFor(() => expect(select).not.toHaveAttribute('aria-disabled'));
  await userEvent.click(select);
  return screen.findByRole('listbox');
}

/**
 * Checks a field extension is registered in the new frontend system (the
 * plugin's `scaffolder-form-field:runway/<id>` extension, loading the field
 * with its validation) and in the old one (the `*FieldExtension` component).
 */
export async function expectFieldInBothSystems(field: {
  /** The blueprint's name, e.g. `runway-model-picker`. */
  id: string;
  /** The blueprint extension (alpha export). */
  extension: Parameters<typeof createExtensionTester>[0];
  /** The old system's field extension component (plugin export). */
  legacy: ComponentType;
  name: string;
  validation: CustomFieldValidator<any, any>;
}) {
  const extension = newSystemPlugin.getExtension(
    `scaffolder-form-field:runway/${field.id}` as any,
  ) as any;
  expect(extension.attachTo).toEqual({
    id: 'api:scaffolder/form-fields',
    input: 'formFields',
  });
  expect(
    // Every runway field is a FormFieldBlueprint extension; only their names differ.
    await createExtensionTester(
      field.extension as typeof runwayModelPickerField,
    ).get(FormFieldBlueprint.dataRefs.formFieldLoader)(),
  ).toEqual(
    expect.objectContaining({
      name: field.name,
      validation: field.validation,
    }),
  );
  const featureFlags = {
    isActive: () => false,
    registerFlag: () => {},
    getRegisteredFlags: () => [],
    save: () => {},
  };
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <TestApiProvider apis={[[featureFlagsApiRef, featureFlags]]}>
      {children}
    </TestApiProvider>
  );
  const Legacy = field.legacy;
  const { result } = renderHook(
    () =>
      useCustomFieldExtensions(
        <ScaffolderFieldExtensions>
          <Legacy />
        </ScaffolderFieldExtensions>,
      ),
    { wrapper },
  );
  expect(result.current.map(f => [f.name, f.validation])).toEqual([
    [field.name, field.validation],
  ]);
}

import {
  ScaffolderFieldExtensions,
  useCustomFieldExtensions,
} from '@backstage/plugin-scaffolder-react';
import { TestApiProvider } from '@backstage/test-utils';
import { featureFlagsApiRef } from '@backstage/core-plugin-api';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import { FormFieldBlueprint } from '@backstage/plugin-scaffolder-react/alpha';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import newSystemPlugin, {
  runwayClusterPickerField,
  runwayNamespacePickerField,
} from './alpha';
import {
  EntityRunwayCard,
  EntityRunwayContent,
  RunwayClusterPickerFieldExtension,
  RunwayNamespacePickerFieldExtension,
  runwayPlugin,
  RunwayPage,
  validateRunwayCluster,
  validateRunwayNamespace,
} from './index';

describe('runway plugin', () => {
  it('offers the page (with its nav item), the API and the entity tab and card to the new frontend system', () => {
    expect(newSystemPlugin.id).toBe('runway');
    for (const id of [
      'api:runway',
      'page:runway',
      'entity-content:runway/runway',
      'entity-card:runway/runway',
    ]) {
      expect(newSystemPlugin.getExtension(id as any)).toBeDefined();
    }
  });

  it("offers the new frontend system the scaffolder form fields, attached to the scaffolder's form-field API", async () => {
    for (const id of [
      'scaffolder-form-field:runway/runway-cluster-picker',
      'scaffolder-form-field:runway/runway-namespace-picker',
    ]) {
      const extension = newSystemPlugin.getExtension(id as any) as any;
      expect(extension).toBeDefined();
      expect(extension.attachTo).toEqual({
        id: 'api:scaffolder/form-fields',
        input: 'formFields',
      });
    }
    // What the scaffolder's form-fields API loads: the field by name, with its validation and schema.
    const loaded = await Promise.all([
      createExtensionTester(runwayClusterPickerField).get(
        FormFieldBlueprint.dataRefs.formFieldLoader,
      )(),
      createExtensionTester(runwayNamespacePickerField).get(
        FormFieldBlueprint.dataRefs.formFieldLoader,
      )(),
    ]);
    expect(loaded).toEqual([
      expect.objectContaining({
        name: 'RunwayClusterPicker',
        validation: validateRunwayCluster,
        schema: expect.anything(),
      }),
      expect.objectContaining({
        name: 'RunwayNamespacePicker',
        validation: validateRunwayNamespace,
        schema: expect.anything(),
      }),
    ]);
  });

  it('offers the legacy frontend system a plugin with the same API and routable page', () => {
    expect(runwayPlugin.getId()).toBe('runway');
    expect([...runwayPlugin.getApis()].map(f => f.api.id)).toEqual([
      'plugin.runway.service',
    ]);
    expect(runwayPlugin.routes.root).toBeDefined();
    for (const extension of [RunwayPage, EntityRunwayContent, EntityRunwayCard])
      expect(typeof extension).toBe('function');
  });

  it('gives the legacy scaffolder page its field extensions by name, with their validation', () => {
    const outlet = (
      <ScaffolderFieldExtensions>
        <RunwayClusterPickerFieldExtension />
        <RunwayNamespacePickerFieldExtension />
      </ScaffolderFieldExtensions>
    );
    // The element filter asks the feature flags API (for FeatureFlagged children; there are none here).
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
    const { result } = renderHook(() => useCustomFieldExtensions(outlet), {
      wrapper,
    });
    expect(result.current.map(f => [f.name, f.validation])).toEqual([
      ['RunwayClusterPicker', validateRunwayCluster],
      ['RunwayNamespacePicker', validateRunwayNamespace],
    ]);
  });
});

/**
 * The plugin for Backstage's new frontend system: the runway page (with its
 * nav item, from the page's title and icon), the API, and an entity tab and
 * card on entities with the `backstage.io/kubernetes-id` annotation, and the
 * scaffolder form fields RunwayClusterPicker and RunwayNamespacePicker.
 */
import { discoveryApiRef, fetchApiRef } from '@backstage/core-plugin-api';
import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import {
  createFormField,
  FormFieldBlueprint,
} from '@backstage/plugin-scaffolder-react/alpha';
import { RunwayClient, runwayApiRef } from './api/RunwayApi';
import { RunwayIcon } from './components/RunwayIcon';
import { rootRouteRef } from './routes';

const hasKubernetesId = {
  'metadata.annotations.backstage.io/kubernetes-id': { $exists: true },
};

/** @alpha */
export const runwayApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: runwayApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new RunwayClient(deps),
    }),
});

/** @alpha */
export const runwayPage = PageBlueprint.make({
  params: {
    path: '/runway',
    title: 'Runway',
    icon: <RunwayIcon fontSize="inherit" />,
    routeRef: rootRouteRef,
    loader: () =>
      import('./components/RunwayRouter').then(m => <m.RunwayRouter />),
  },
});

/** @alpha */
export const runwayEntityContent = EntityContentBlueprint.make({
  name: 'runway',
  params: {
    path: '/runway',
    title: 'Runway',
    group: 'deployment',
    filter: hasKubernetesId,
    loader: () =>
      import('./components/entity/EntityRunwayContent').then(m => (
        <m.EntityRunwayContent />
      )),
  },
});

/** @alpha */
export const runwayEntityCard = EntityCardBlueprint.make({
  name: 'runway',
  params: {
    filter: hasKubernetesId,
    loader: () =>
      import('./components/entity/EntityRunwayContent').then(m => (
        <m.EntityRunwayCard />
      )),
  },
});

/** Scaffolder fields `ui:field: RunwayClusterPicker` and `RunwayNamespacePicker` (loaded when a template form opens). @alpha */
export const runwayClusterPickerField = FormFieldBlueprint.make({
  name: 'runway-cluster-picker',
  params: {
    field: () =>
      import('./components/scaffolder/RunwayPickers').then(m =>
        createFormField({
          ...m.runwayClusterPickerOptions,
          schema: m.RunwayClusterPickerSchema,
        }),
      ),
  },
});

/** @alpha */
export const runwayNamespacePickerField = FormFieldBlueprint.make({
  name: 'runway-namespace-picker',
  params: {
    field: () =>
      import('./components/scaffolder/RunwayPickers').then(m =>
        createFormField({
          ...m.runwayNamespacePickerOptions,
          schema: m.RunwayNamespacePickerSchema,
        }),
      ),
  },
});

/** Scaffolder field `ui:field: RunwayRunningDeploymentPicker` (a Ready deployment's endpoint and model name). @alpha */
export const runwayRunningDeploymentPickerField = FormFieldBlueprint.make({
  name: 'runway-running-deployment-picker',
  params: {
    field: () =>
      import('./components/scaffolder/RunningDeploymentPicker').then(m =>
        createFormField({
          ...m.runwayRunningDeploymentPickerOptions,
          schema: m.RunwayRunningDeploymentPickerSchema,
        }),
      ),
  },
});

/** Scaffolder field `ui:field: RunwayModelPicker` (a Model to mount: name, namespace, PVC, mount path). @alpha */
export const runwayModelPickerField = FormFieldBlueprint.make({
  name: 'runway-model-picker',
  params: {
    field: () =>
      import('./components/scaffolder/ModelPicker').then(m =>
        createFormField({
          ...m.runwayModelPickerOptions,
          schema: m.RunwayModelPickerSchema,
        }),
      ),
  },
});

/** Scaffolder field `ui:field: RunwayStorageClassPicker` (a StorageClass of the cluster). @alpha */
export const runwayStorageClassPickerField = FormFieldBlueprint.make({
  name: 'runway-storage-class-picker',
  params: {
    field: () =>
      import('./components/scaffolder/StorageClassPicker').then(m =>
        createFormField({
          ...m.runwayStorageClassPickerOptions,
          schema: m.RunwayStorageClassPickerSchema,
        }),
      ),
  },
});

export default createFrontendPlugin({
  pluginId: 'runway',
  title: 'Runway',
  icon: <RunwayIcon fontSize="inherit" />,
  info: { packageJson: () => import('../package.json') },
  extensions: [
    runwayApi,
    runwayPage,
    runwayEntityContent,
    runwayEntityCard,
    runwayClusterPickerField,
    runwayNamespacePickerField,
    runwayRunningDeploymentPickerField,
    runwayModelPickerField,
    runwayStorageClassPickerField,
  ],
  routes: { root: rootRouteRef },
});

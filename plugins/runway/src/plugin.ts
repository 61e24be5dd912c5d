/**
 * The legacy frontend system's plugin (createPlugin and extensions), for
 * Backstage apps that have not moved to the new frontend system. The new
 * system's plugin is in alpha.tsx.
 */
import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { createScaffolderFieldExtension } from '@backstage/plugin-scaffolder-react';
import { RunwayClient, runwayApiRef } from './api/RunwayApi';
import {
  RunwayClusterPickerSchema,
  runwayClusterPickerOptions,
  RunwayNamespacePickerSchema,
  runwayNamespacePickerOptions,
} from './components/scaffolder/RunwayPickers';
import {
  RunwayRunningDeploymentPickerSchema,
  runwayRunningDeploymentPickerOptions,
} from './components/scaffolder/RunningDeploymentPicker';
import {
  RunwayModelPickerSchema,
  runwayModelPickerOptions,
} from './components/scaffolder/ModelPicker';
import {
  RunwayStorageClassPickerSchema,
  runwayStorageClassPickerOptions,
} from './components/scaffolder/StorageClassPicker';
import { rootRouteRef } from './routes';

/** @public */
export const runwayPlugin = createPlugin({
  id: 'runway',
  apis: [
    createApiFactory({
      api: runwayApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new RunwayClient(deps),
    }),
  ],
  routes: { root: rootRouteRef },
});

/** The dashboard, wizard and detail pages: `<Route path="/runway" element={<RunwayPage />} />`. @public */
export const RunwayPage = runwayPlugin.provide(
  createRoutableExtension({
    name: 'RunwayPage',
    component: () =>
      import('./components/RunwayRouter').then(m => m.RunwayPage),
    mountPoint: rootRouteRef,
  }),
);

/** Entity page tab: the entity's deployments, models and stacks. @public */
export const EntityRunwayContent = runwayPlugin.provide(
  createComponentExtension({
    name: 'EntityRunwayContent',
    component: {
      lazy: () =>
        import('./components/entity/EntityRunwayContent').then(
          m => m.EntityRunwayContent,
        ),
    },
  }),
);

/** Entity overview card. @public */
export const EntityRunwayCard = runwayPlugin.provide(
  createComponentExtension({
    name: 'EntityRunwayCard',
    component: {
      lazy: () =>
        import('./components/entity/EntityRunwayContent').then(
          m => m.EntityRunwayCard,
        ),
    },
  }),
);

/**
 * Scaffolder field `ui:field: RunwayClusterPicker`: a registered cluster
 * (value: its name). Place inside `<ScaffolderFieldExtensions>`.
 *
 * @public
 */
export const RunwayClusterPickerFieldExtension = runwayPlugin.provide(
  createScaffolderFieldExtension({
    ...runwayClusterPickerOptions,
    schema: RunwayClusterPickerSchema.schema,
  }),
);

/**
 * Scaffolder field `ui:field: RunwayNamespacePicker`: a namespace of the
 * cluster in the sibling field `ui:options.clusterField` (default `cluster`).
 *
 * @public
 */
export const RunwayNamespacePickerFieldExtension = runwayPlugin.provide(
  createScaffolderFieldExtension({
    ...runwayNamespacePickerOptions,
    schema: RunwayNamespacePickerSchema.schema,
  }),
);

/**
 * Scaffolder field `ui:field: RunwayRunningDeploymentPicker`: a Ready
 * ModelDeployment of the cluster in `ui:options.clusterField` (default
 * `cluster`); value `{ deployment, endpoint, model }`.
 *
 * @public
 */
export const RunwayRunningDeploymentPickerFieldExtension = runwayPlugin.provide(
  createScaffolderFieldExtension({
    ...runwayRunningDeploymentPickerOptions,
    schema: RunwayRunningDeploymentPickerSchema.schema,
  }),
);

/**
 * Scaffolder field `ui:field: RunwayModelPicker`: a Model of the cluster in
 * `ui:options.clusterField` (default `cluster`), optionally of the namespace
 * in `ui:options.namespaceField`, Ready first; value
 * `{ model, name, namespace, claimName, mountPath }`.
 *
 * @public
 */
export const RunwayModelPickerFieldExtension = runwayPlugin.provide(
  createScaffolderFieldExtension({
    ...runwayModelPickerOptions,
    schema: RunwayModelPickerSchema.schema,
  }),
);

/**
 * Scaffolder field `ui:field: RunwayStorageClassPicker`: a StorageClass of
 * the cluster in `ui:options.clusterField` (default `cluster`), the default
 * class marked; value the class name, empty for the cluster's default.
 *
 * @public
 */
export const RunwayStorageClassPickerFieldExtension = runwayPlugin.provide(
  createScaffolderFieldExtension({
    ...runwayStorageClassPickerOptions,
    schema: RunwayStorageClassPickerSchema.schema,
  }),
);

import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import {
  parseRunwayResourceRef,
  runwayClustersReadPermission,
  runwayPermissionList,
} from '@runway-portal/plugin-runway-common';
import {
  clusterClientServiceRef,
  createAuthorizer,
  isInCluster,
  isInNamespace,
  runwayResourceRef,
} from '@runway-portal/plugin-runway-node';
import { BUILT_IN_PROVIDERS } from './service/providers';
import { createRouter } from './service/router';
import { forwardChangesToSignals } from './service/signals';

/**
 * The runway backend plugin: one REST API over deployments, models and
 * stacks in every cluster configured in kubernetes.clusterLocatorMethods.
 *
 * @public
 */
export const runwayPlugin = createBackendPlugin({
  pluginId: 'runway',
  register(env) {
    env.registerInit({
      deps: {
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        auditor: coreServices.auditor,
        lifecycle: coreServices.lifecycle,
        clusterClient: clusterClientServiceRef,
        signals: signalsServiceRef,
      },
      async init({
        logger,
        httpRouter,
        httpAuth,
        permissions,
        permissionsRegistry,
        auditor,
        lifecycle,
        clusterClient,
        signals,
      }) {
        permissionsRegistry.addResourceType({
          resourceRef: runwayResourceRef,
          permissions: runwayPermissionList.filter(
            p => p !== runwayClustersReadPermission,
          ),
          rules: [isInCluster, isInNamespace],
          getResources: async refs => refs.map(parseRunwayResourceRef),
        });
        permissionsRegistry.addPermissions([runwayClustersReadPermission]);
        const applyConditions = createConditionAuthorizer(
          permissionsRegistry.getPermissionRuleset(runwayResourceRef),
        );
        const authorizer = createAuthorizer(permissions, applyConditions);

        httpRouter.use(
          await createRouter({
            clusterClient,
            httpAuth,
            permissions,
            authorizer,
            auditor,
            logger,
            builtInProviders: BUILT_IN_PROVIDERS,
          }),
        );
        const stopSignals = forwardChangesToSignals({
          clusterClient,
          signals,
          logger,
        });
        lifecycle.addShutdownHook(stopSignals);
      },
    });
  },
});

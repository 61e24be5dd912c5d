import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import {
  clusterClientServiceRef,
  createRunwayAuthorizer,
} from '@runway-portal/plugin-runway-node';
import { createRunwayApplyAction } from './actions/apply';
import { createRunwayWaitAction } from './actions/wait';

/**
 * The scaffolder module with the runway actions (`runway:apply`,
 * `runway:wait`), over the same ClusterClient as the runway REST API.
 *
 * @public
 */
export const scaffolderModuleRunway = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'runway',
  register(reg) {
    reg.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        clusterClient: clusterClientServiceRef,
        permissions: coreServices.permissions,
        auditor: coreServices.auditor,
      },
      async init({ scaffolder, clusterClient, permissions, auditor }) {
        const authorizer = createRunwayAuthorizer(permissions);
        scaffolder.addActions(
          createRunwayApplyAction({ clusterClient, authorizer, auditor }),
          createRunwayWaitAction({ clusterClient }),
        );
      },
    });
  },
});

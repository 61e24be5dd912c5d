import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { type ClusterClient, DefaultClusterClient } from './ClusterClient';
import { readClusterSpecs } from './config/readClusters';
import { readRunwayOptions } from './config/readOptions';

/**
 * The ClusterClient service: one per backend (root scope), so the REST API
 * and the scaffolder actions share the same caches and connections.
 *
 * @public
 */
export const clusterClientServiceRef = createServiceRef<ClusterClient>({
  id: 'runway.cluster-client',
  scope: 'root',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.rootLogger,
        lifecycle: coreServices.rootLifecycle,
      },
      factory({ config, logger, lifecycle }) {
        const { clusters, problems } = readClusterSpecs(config);
        const { options, problems: optionProblems } = readRunwayOptions(config);
        const client = new DefaultClusterClient({
          clusters,
          problems: [...problems, ...optionProblems],
          requestTimeoutMs: options.requestTimeoutMs,
          doctor: options.doctor,
          logger: logger.child({ service: 'runway-cluster-client' }),
        });
        lifecycle.addShutdownHook(() => client.stop());
        return client;
      },
    }),
});

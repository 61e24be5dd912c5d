/**
 * A real Backstage backend (startTestBackend) with the runway plugin, the
 * test permission policy and the given clusters in its kubernetes
 * configuration, as the integration tests of the routes start it.
 */
import type { Server } from 'node:http';
import type { BackendFeature } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import type { JsonObject } from '@backstage/types';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import signalsPlugin from '@backstage/plugin-signals-backend';
import { runwayPlugin } from '../plugin';
import { policyPermissionsFactory } from './permissions';

export interface RunwayTestBackend {
  server: Server;
  stop: () => Promise<void>;
}

export async function startRunwayBackend(options: {
  /** `kubernetes.clusterLocatorMethods` entries (`clusterConfigEntry`, or written out). */
  clusters: JsonObject[];
  /** The `runway` configuration. */
  runway: JsonObject;
  /** Signals through a real events service, for tests of what the plugin publishes. */
  signals?: boolean;
  /** More features, e.g. a recording auditor. */
  features?: BackendFeature[];
}): Promise<RunwayTestBackend> {
  const backend = await startTestBackend({
    features: [
      runwayPlugin,
      // The events service of a real backend: signals travel from this plugin to the signals plugin through it.
      ...(options.signals ? [signalsPlugin, eventsServiceFactory] : []),
      policyPermissionsFactory,
      ...(options.features ?? []),
      mockServices.rootConfig.factory({
        data: {
          kubernetes: {
            clusterLocatorMethods: [
              { type: 'config', clusters: options.clusters },
            ],
          },
          runway: options.runway,
        },
      }),
    ],
  });
  return { server: backend.server, stop: () => backend.stop() };
}

import { createServiceFactory } from '@backstage/backend-plugin-api';
import { startTestBackend } from '@backstage/backend-test-utils';
import {
  scaffolderActionsExtensionPoint,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import {
  clusterClientServiceRef,
  type ClusterClient,
} from '@runway-portal/plugin-runway-node';
import { scaffolderModuleRunway } from './module';

describe('scaffolderModuleRunway', () => {
  it('registers runway:apply and runway:wait, both supporting dry runs', async () => {
    const actions: TemplateAction<any, any, any>[] = [];
    // Registration reads no cluster; the actions are tested against a real one in actions.integration.test.ts.
    const clusterClient = createServiceFactory({
      service: clusterClientServiceRef,
      deps: {},
      factory: () => ({} as ClusterClient),
    });
    const backend = await startTestBackend({
      extensionPoints: [
        [
          scaffolderActionsExtensionPoint,
          {
            addActions: (...added: TemplateAction<any, any, any>[]) =>
              actions.push(...added),
          },
        ],
      ],
      features: [scaffolderModuleRunway, clusterClient],
    });
    await backend.stop();
    expect(actions.map(a => a.id)).toEqual(['runway:apply', 'runway:wait']);
    expect(actions.every(a => a.supportsDryRun)).toBe(true);
    expect(actions[0].schema?.input).toMatchObject({
      required: expect.arrayContaining([
        'cluster',
        'kind',
        'namespace',
        'resource',
      ]),
    });
  });
});

import {
  CoreV1Api,
  CustomObjectsApi,
  Watch,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { startCluster, waitFor, type TestCluster } from './index';
import { START_TIMEOUT_MS, WIDGETS_CRD } from './testing';

jest.setTimeout(90_000);

const isNotFound = (error: unknown) =>
  (error as { code?: number }).code === 404;

async function isGone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

describe('watches, garbage collection and namespace deletion', () => {
  let cluster: TestCluster;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;

  beforeAll(async () => {
    cluster = await startCluster({ name: 'watch-gc', crds: [WIDGETS_CRD] });
    core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
  }, START_TIMEOUT_MS);
  afterAll(() => cluster?.stop());

  it('sees create, update and delete through a watch', async () => {
    const events: string[] = [];
    const watch = await new Watch(cluster.kubeConfig()).watch(
      '/api/v1/namespaces/default/configmaps',
      { labelSelector: 'test=watch' },
      (type: string, object: V1ConfigMap) =>
        events.push(
          `${type} ${object.metadata?.name} ${object.data?.step ?? ''}`.trim(),
        ),
      () => {},
    );
    try {
      const metadata = { name: 'watched', labels: { test: 'watch' } };
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata, data: { step: 'created' } },
      });
      await core.replaceNamespacedConfigMap({
        name: 'watched',
        namespace: 'default',
        body: { metadata, data: { step: 'updated' } },
      });
      await core.deleteNamespacedConfigMap({
        name: 'watched',
        namespace: 'default',
      });
      await waitFor('three watch events', async () => events.length >= 3, {
        timeoutMs: 10_000,
      });
      expect(events).toEqual([
        'ADDED watched created',
        'MODIFIED watched updated',
        'DELETED watched updated',
      ]);
    } finally {
      watch.abort();
    }
  });

  it('garbage-collects an object when its owner (a custom resource) is deleted', async () => {
    const owner = (await custom.createNamespacedCustomObject({
      group: 'e2e.runway.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: {
        apiVersion: 'e2e.runway.dev/v1',
        kind: 'Widget',
        metadata: { name: 'owner' },
        spec: { size: 1 },
      },
    })) as { metadata: { uid: string } };
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: 'owned',
          ownerReferences: [
            {
              apiVersion: 'e2e.runway.dev/v1',
              kind: 'Widget',
              name: 'owner',
              uid: owner.metadata.uid,
            },
          ],
        },
        data: { a: 'b' },
      },
    });
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'unowned' } },
    });

    await custom.deleteNamespacedCustomObject({
      group: 'e2e.runway.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      name: 'owner',
    });
    await waitFor('the owned ConfigMap to be garbage-collected', () =>
      isGone(() =>
        core.readNamespacedConfigMap({ name: 'owned', namespace: 'default' }),
      ),
    );
    await expect(
      core.readNamespacedConfigMap({ name: 'unowned', namespace: 'default' }),
    ).resolves.toBeTruthy();
  });

  it('deletes a namespace with objects in it completely', async () => {
    const namespace = 'doomed';
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'cm' }, data: { k: 'v' } },
    });
    await core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: 'secret' }, stringData: { k: 'v' } },
    });
    await custom.createNamespacedCustomObject({
      group: 'e2e.runway.dev',
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: {
        apiVersion: 'e2e.runway.dev/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { size: 2 },
      },
    });

    await core.deleteNamespace({ name: namespace });
    expect((await core.readNamespace({ name: namespace })).status?.phase).toBe(
      'Terminating',
    );
    await waitFor(
      `namespace ${namespace} to be deleted`,
      () => isGone(() => core.readNamespace({ name: namespace })),
      {
        timeoutMs: 60_000,
      },
    );
    const widgets = (await custom.listClusterCustomObject({
      group: 'e2e.runway.dev',
      version: 'v1',
      plural: 'widgets',
    })) as {
      items: Array<{ metadata: { namespace: string } }>;
    };
    expect(
      widgets.items.filter(item => item.metadata.namespace === namespace),
    ).toEqual([]);
    const configMaps = await core.listConfigMapForAllNamespaces({
      fieldSelector: `metadata.namespace=${namespace}`,
    });
    expect(configMaps.items).toEqual([]);
  });
});

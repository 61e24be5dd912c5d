import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { rawRequest } from './rawRequest';
import { startCluster, type TestCluster } from './index';
import { START_TIMEOUT_MS, WIDGETS_CRD } from './testing';

jest.setTimeout(60_000);

const WIDGET_PATH = '/apis/e2e.runway.dev/v1/namespaces/default/widgets/shared';

/** Server-side apply of the status subresource as `manager`. */
function applyStatus(
  kubeConfig: KubeConfig,
  manager: string,
  status: Record<string, unknown>,
  force = false,
) {
  const query = new URLSearchParams({
    fieldManager: manager,
    ...(force ? { force: 'true' } : {}),
  });
  return rawRequest(
    kubeConfig,
    'PATCH',
    `${WIDGET_PATH}/status?${query}`,
    {
      apiVersion: 'e2e.runway.dev/v1',
      kind: 'Widget',
      metadata: { name: 'shared', namespace: 'default' },
      status,
    },
    'application/apply-patch+yaml',
  );
}

describe('server-side apply with two field managers', () => {
  let cluster: TestCluster;
  let kubeConfig: KubeConfig;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'server-side-apply',
      crds: [WIDGETS_CRD],
    });
    kubeConfig = cluster.kubeConfig();
    await kubeConfig
      .makeApiClient(CustomObjectsApi)
      .createNamespacedCustomObject({
        group: 'e2e.runway.dev',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        body: {
          apiVersion: 'e2e.runway.dev/v1',
          kind: 'Widget',
          metadata: { name: 'shared' },
          spec: { size: 1 },
        },
      });
  }, START_TIMEOUT_MS);
  afterAll(() => cluster?.stop());

  it('keeps each manager its own status field', async () => {
    expect(
      (await applyStatus(kubeConfig, 'phase-writer', { phase: 'Pending' }))
        .status,
    ).toBe(200);
    expect(
      (
        await applyStatus(kubeConfig, 'endpoint-writer', {
          endpoint: 'http://10.1.0.5:8000',
        })
      ).status,
    ).toBe(200);
    // A later apply by one manager that omits the other's field leaves it alone.
    const after = await applyStatus(kubeConfig, 'phase-writer', {
      phase: 'Ready',
    });
    expect(after.status).toBe(200);
    expect(after.body.status).toEqual({
      phase: 'Ready',
      endpoint: 'http://10.1.0.5:8000',
    });

    const owners = Object.fromEntries(
      (
        after.body.metadata.managedFields as Array<{
          manager: string;
          subresource?: string;
          fieldsV1: any;
        }>
      )
        .filter(entry => entry.subresource === 'status')
        .map(entry => [entry.manager, Object.keys(entry.fieldsV1['f:status'])]),
    );
    expect(owners).toEqual({
      'phase-writer': ['f:phase'],
      'endpoint-writer': ['f:endpoint'],
    });
  });

  it('rejects, with a conflict, an apply of a field another manager owns unless forced', async () => {
    const conflict = await applyStatus(kubeConfig, 'phase-writer', {
      phase: 'Ready',
      endpoint: 'http://stolen',
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.reason).toBe('Conflict');
    expect(conflict.body.message).toMatch(
      /Apply failed with 1 conflict: conflict with "endpoint-writer" with subresource "status": \.status\.endpoint/,
    );

    const unchanged = await rawRequest(kubeConfig, 'GET', WIDGET_PATH);
    expect(unchanged.body.status.endpoint).toBe('http://10.1.0.5:8000');

    const forced = await applyStatus(
      kubeConfig,
      'phase-writer',
      { phase: 'Ready', endpoint: 'http://taken-over' },
      true,
    );
    expect(forced.status).toBe(200);
    expect(forced.body.status.endpoint).toBe('http://taken-over');
  });
});

/**
 * runway:apply and runway:wait against a real Kubernetes control plane with
 * Runway's CRDs, through a real ClusterClient configured as an administrator
 * would (service-account token with the portal's RBAC, namespace allow-list).
 * The permission policy is the runway backend's test policy (admin, viewer,
 * team-a); the cluster's controllers are played by writing status directly.
 */
import type { AuditorService } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { TemplateAction } from '@backstage/plugin-scaffolder-node';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import type { JsonObject } from '@backstage/types';
import type { KubeClient, KubeObject } from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import {
  createRunwayAuthorizer,
  DefaultClusterClient,
  PORTAL_FIELD_MANAGER,
  readClusterSpecs,
} from '@runway-portal/plugin-runway-node';
// The runway backend's cluster and policy helpers, imported rather than copied (test code only).
// eslint-disable-next-line @backstage/no-forbidden-package-imports, @backstage/no-mixed-plugin-imports
import {
  adminClient,
  clusterConfigEntry,
  createNamespaces,
  DEPLOYMENTS,
  portalServiceAccountToken,
  RUNWAY_CRDS,
} from '@runway-portal/plugin-runway-backend/src/__testUtils__/clusters';
// eslint-disable-next-line @backstage/no-forbidden-package-imports, @backstage/no-mixed-plugin-imports
import {
  ADMIN,
  TEAM_A,
  VIEWER,
} from '@runway-portal/plugin-runway-backend/src/__testUtils__/permissions';
import { runwayTestPolicy } from '../__testUtils__/policy';
import { createRunwayApplyAction } from './apply';
import { createRunwayWaitAction } from './wait';

jest.setTimeout(60_000);

const deployment = (name: string) => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name },
  spec: {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
});

interface AuditRecord {
  eventId: string;
  meta: JsonObject;
  outcome?: 'success' | 'fail';
}

describe('runway scaffolder actions against a real cluster', () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let clusterClient: DefaultClusterClient;
  let apply: TemplateAction<any, any, any>;
  let wait: TemplateAction<any, any, any>;
  const audits: AuditRecord[] = [];

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runway-scaffolder',
      crds: [RUNWAY_CRDS],
    });
    admin = adminClient(cluster);
    await createNamespaces(admin, ['team-a', 'team-b', 'closed']);
    const token = await portalServiceAccountToken(admin);
    const { clusters, problems } = readClusterSpecs(
      new ConfigReader({
        kubernetes: {
          clusterLocatorMethods: [
            {
              type: 'config',
              clusters: [clusterConfigEntry('dev', cluster, token)],
            },
          ],
        },
        runway: {
          clusters: [{ name: 'dev', namespaces: ['team-a', 'team-b'] }],
        },
      }),
    );
    if (problems.length > 0)
      throw new Error(
        `test cluster configuration: ${JSON.stringify(problems)}`,
      );
    clusterClient = new DefaultClusterClient({
      clusters,
      problems,
      requestTimeoutMs: 10_000,
      logger: mockServices.logger.mock(),
    });
    const auditor: AuditorService = {
      async createEvent(options) {
        const record: AuditRecord = {
          eventId: options.eventId,
          meta: { ...(options.meta ?? {}) },
        };
        audits.push(record);
        return {
          success: async () => {
            record.outcome = 'success';
          },
          fail: async () => {
            record.outcome = 'fail';
          },
        };
      },
    };
    apply = createRunwayApplyAction({
      clusterClient,
      authorizer: createRunwayAuthorizer(runwayTestPolicy()),
      auditor,
    });
    wait = createRunwayWaitAction({ clusterClient });
  }, 30 * 60_000);

  afterAll(async () => {
    await clusterClient?.stop();
    await cluster?.stop();
  });

  async function readDirect(namespace: string, name: string) {
    try {
      return await admin.get<KubeObject>(DEPLOYMENTS, { namespace, name });
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  }

  function context(
    input: JsonObject,
    user: string,
    extra: { isDryRun?: boolean; signal?: AbortSignal } = {},
  ) {
    const logger = mockServices.logger.mock();
    const outputs: Record<string, unknown> = {};
    // The mock context takes input and logger; the rest is the task's, set here.
    const ctx = {
      ...createMockActionContext({ input, logger }),
      output: (key: string, value: unknown) => {
        outputs[key] = value;
      },
      getInitiatorCredentials: async () => mockCredentials.user(user),
      ...extra,
    };
    const logged = () =>
      [...logger.info.mock.calls, ...logger.warn.mock.calls].map(c =>
        String(c[0]),
      );
    return { ctx, outputs, logged };
  }

  async function setStatus(name: string, status: Record<string, unknown>) {
    await admin.apply(
      DEPLOYMENTS,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name, namespace: 'team-a' },
        status,
      },
      { fieldManager: 'test-controller', force: true, subresource: 'status' },
    );
  }

  it('creates the resource with the portal field manager, audits it and outputs its page', async () => {
    const { ctx, outputs } = context(
      {
        cluster: 'dev',
        kind: 'deployments',
        namespace: 'team-a',
        resource: deployment('llama-a'),
      },
      TEAM_A,
    );
    await apply.handler(ctx);

    const stored = await readDirect('team-a', 'llama-a');
    expect(
      stored?.metadata?.managedFields?.map(
        f => (f as { manager?: string }).manager,
      ),
    ).toContain(PORTAL_FIELD_MANAGER);
    expect(outputs).toEqual({
      cluster: 'dev',
      namespace: 'team-a',
      name: 'llama-a',
      kind: 'deployments',
      created: true,
      link: '/runway/deployments/dev/team-a/llama-a',
    });
    expect(audits).toContainEqual(
      expect.objectContaining({
        eventId: 'runway-resource-create',
        outcome: 'success',
        meta: expect.objectContaining({ name: 'llama-a', dryRun: false }),
      }),
    );
  });

  it('applies YAML text, and updates what exists', async () => {
    const yaml = [
      'apiVersion: airunway.ai/v1alpha1',
      'kind: ModelDeployment',
      'metadata: { name: llama-yaml, namespace: team-a }',
      'spec:',
      '  model: { id: meta-llama/Llama-3.1-8B-Instruct, source: huggingface }',
      '  engine: { type: vllm }',
      '  resources: { gpu: { count: 1 } }',
    ].join('\n');
    await apply.handler(
      context(
        {
          cluster: 'dev',
          kind: 'deployments',
          namespace: 'team-a',
          resource: yaml,
        },
        ADMIN,
      ).ctx,
    );
    const again = context(
      {
        cluster: 'dev',
        kind: 'deployments',
        namespace: 'team-a',
        resource: yaml.replace('count: 1', 'count: 2'),
      },
      ADMIN,
    );
    await apply.handler(again.ctx);
    expect(again.outputs.created).toBe(false);
    const stored = await readDirect('team-a', 'llama-yaml');
    expect(
      (stored?.spec as { resources: { gpu: { count: number } } }).resources.gpu
        .count,
    ).toBe(2);
  });

  it('fails an invalid resource naming the field, and writes nothing', async () => {
    const invalid = deployment('llama-bad');
    invalid.spec.resources.gpu.count = 0;
    const { ctx } = context(
      {
        cluster: 'dev',
        kind: 'deployments',
        namespace: 'team-a',
        resource: invalid,
      },
      ADMIN,
    );
    await expect(apply.handler(ctx)).rejects.toThrow(
      /input\.resource is not a valid ModelDeployment: .*resources\.gpu\.count/,
    );
    await expect(
      apply.handler(
        context(
          {
            cluster: 'dev',
            kind: 'deployments',
            namespace: 'team-a',
            resource: 'spec: [unclosed',
          },
          ADMIN,
        ).ctx,
      ),
    ).rejects.toThrow(/input\.resource is not valid YAML/);
    expect(await readDirect('team-a', 'llama-bad')).toBeUndefined();
  });

  it('refuses a user without permission, and writes nothing', async () => {
    await expect(
      apply.handler(
        context(
          {
            cluster: 'dev',
            kind: 'deployments',
            namespace: 'team-a',
            resource: deployment('llama-viewer'),
          },
          VIEWER,
        ).ctx,
      ),
    ).rejects.toThrow(/runway\.deployments\.create/);
    // team-a may write in team-a only.
    await expect(
      apply.handler(
        context(
          {
            cluster: 'dev',
            kind: 'deployments',
            namespace: 'team-b',
            resource: deployment('llama-b'),
          },
          TEAM_A,
        ).ctx,
      ),
    ).rejects.toThrow(/namespace "team-b"/);
    expect(await readDirect('team-a', 'llama-viewer')).toBeUndefined();
    expect(await readDirect('team-b', 'llama-b')).toBeUndefined();
  });

  it('names input.namespace and input.cluster when they are not open to the portal', async () => {
    await expect(
      apply.handler(
        context(
          {
            cluster: 'dev',
            kind: 'deployments',
            namespace: 'closed',
            resource: deployment('llama-c'),
          },
          ADMIN,
        ).ctx,
      ),
    ).rejects.toThrow(
      /input\.namespace "closed" is not open to the portal in cluster "dev": use one of team-a, team-b/,
    );
    await expect(
      apply.handler(
        context(
          {
            cluster: 'prod',
            kind: 'deployments',
            namespace: 'team-a',
            resource: deployment('llama-c'),
          },
          ADMIN,
        ).ctx,
      ),
    ).rejects.toThrow(
      /input\.cluster "prod" is not a configured cluster: use one of dev/,
    );
    expect(await readDirect('closed', 'llama-c')).toBeUndefined();
  });

  it('applies as a server-side dry run in a dry run, storing nothing', async () => {
    const { ctx, outputs } = context(
      {
        cluster: 'dev',
        kind: 'deployments',
        namespace: 'team-a',
        resource: deployment('llama-dry'),
      },
      ADMIN,
      { isDryRun: true },
    );
    await apply.handler(ctx);
    expect(outputs.name).toBe('llama-dry');
    expect(await readDirect('team-a', 'llama-dry')).toBeUndefined();
    expect(audits).toContainEqual(
      expect.objectContaining({
        meta: expect.objectContaining({ name: 'llama-dry', dryRun: true }),
      }),
    );
  });

  it('waits until the deployment is Running, logging its phases', async () => {
    await apply.handler(
      context(
        {
          cluster: 'dev',
          kind: 'deployments',
          namespace: 'team-a',
          resource: deployment('llama-run'),
        },
        ADMIN,
      ).ctx,
    );
    const { ctx, outputs, logged } = context(
      {
        cluster: 'dev',
        kind: 'deployments',
        namespace: 'team-a',
        name: 'llama-run',
      },
      ADMIN,
    );
    const waiting = wait.handler(ctx);
    await setStatus('llama-run', {
      phase: 'Deploying',
      message: 'Waiting for the provider',
    });
    await setStatus('llama-run', {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Running',
          message: 'serving',
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      ],
    });
    await waiting;
    expect(outputs.phase).toBe('Running');
    expect(outputs.link).toBe('/runway/deployments/dev/team-a/llama-run');
    expect(logged()).toContainEqual(
      expect.stringMatching(/phase Running; conditions Ready=True \(Running\)/),
    );
  });

  it('fails with the status message when the deployment fails', async () => {
    await apply.handler(
      context(
        {
          cluster: 'dev',
          kind: 'deployments',
          namespace: 'team-a',
          resource: deployment('llama-fail'),
        },
        ADMIN,
      ).ctx,
    );
    const waiting = wait.handler(
      context(
        {
          cluster: 'dev',
          kind: 'deployments',
          namespace: 'team-a',
          name: 'llama-fail',
        },
        ADMIN,
      ).ctx,
    );
    // Handled from the start: the step fails while the status write is still being awaited.
    const outcome = waiting.then(
      () => 'succeeded',
      (err: Error) => err.message,
    );
    await setStatus('llama-fail', {
      phase: 'Failed',
      message: 'no provider supports engine vllm',
    });
    expect(await outcome).toMatch(
      /ModelDeployment team-a\/llama-fail in cluster "dev" failed: no provider supports engine vllm/,
    );
  });

  it('fails after the timeout, naming input.timeoutSeconds', async () => {
    await expect(
      wait.handler(
        context(
          {
            cluster: 'dev',
            kind: 'deployments',
            namespace: 'team-a',
            name: 'never-created',
            timeoutSeconds: 1,
          },
          ADMIN,
        ).ctx,
      ),
    ).rejects.toThrow(
      /did not reach phase Running within 1 s \(it does not exist\); raise input\.timeoutSeconds/,
    );
  });
});

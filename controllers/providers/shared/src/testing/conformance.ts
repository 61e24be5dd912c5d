/**
 * The conformance suite every provider runs against a real cluster: what the
 * shared loop promises for any definition (registration and heartbeat, a
 * missing upstream CRD, RBAC, pause, identity changes, sized storage
 * volumes, deletion and the finalizer timeout), so each provider's own
 * integration test keeps only what is its own. Call it at the top level of
 * a `*.integration.test.ts` file.
 */
import path from 'node:path';
import {
  KubeClient,
  type KubeObject,
  Namespaces,
  PersistentVolumeClaims,
  Secrets,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { eventsAbout, eventually, sleep } from '@runway-portal/e2e-testing';
import {
  DEPLOYMENTS_API_VERSION,
  RECONCILE_PAUSED_ANNOTATION,
  crdNotInstalledMessage,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from '../definition';
import { ModelDeployments } from '../resources';
import {
  conditionOf,
  getProviderConfig,
  isGone,
  modelDeploymentTestHelpers,
  type RunningProvider,
  startProviderAsServiceAccount,
} from '../testing';

/** What a provider tells the suite about itself. @public */
export interface ConformanceOptions {
  definition: ProviderDefinition;
  /** The upstream CRD files; the suite installs them after checking the provider's report of their absence. */
  upstreamCrds: string[];
  /** The upstream apiVersion the provider detects from them, e.g. `ray.io/v1`. */
  upstreamApiVersion: string;
  /** A spec the provider turns into its objects without outside lookups, and that can mount volumes. */
  spec: ModelDeployment['spec'];
  /** A change of `spec` (merge patch) that changes the upstream object's identity: the provider recreates it. */
  identityChange: Record<string, unknown>;
}

const FINALIZER_TIMEOUT_MS = 3000;
/** A finalizer of nobody: the upstream object stays until the test removes it. */
const FOREIGN_FINALIZER = 'conformance.test/keep';
const RUNWAY_CRDS = path.resolve(__dirname, '../../../../deploy/crds');

/** Registers the conformance tests of `options.definition` (its own cluster and namespace). @public */
export function describeProviderConformance(options: ConformanceOptions) {
  const { definition } = options;
  const provider = definition.name;
  const namespace = `${provider}-conformance`;
  const upstream = {
    group: definition.upstream.group,
    version: options.upstreamApiVersion.split('/')[1],
    plural: definition.upstream.plural,
    kind: definition.upstream.kind,
    namespaced: true,
  };

  describe(`${provider} provider conformance`, () => {
    let cluster: TestCluster;
    let client: KubeClient;
    let providerClient: KubeClient;
    let running: RunningProvider;
    const { getMd, createMd, patchSpec } = modelDeploymentTestHelpers(
      () => client,
      provider,
      namespace,
    );
    const getUpstream = (name: string) =>
      client.get<KubeObject>(upstream, { namespace, name });
    const upstreamUid = async (name: string) =>
      (await getUpstream(name).catch(() => undefined))?.metadata?.uid;
    const setPaused = (name: string, paused: boolean) =>
      client.patch(
        ModelDeployments,
        { namespace, name },
        {
          metadata: {
            annotations: {
              [RECONCILE_PAUSED_ANNOTATION]: paused ? 'true' : null,
            },
          },
        },
        'merge',
      );

    beforeAll(async () => {
      // Without the upstream CRDs: the provider must report their absence first.
      cluster = await startCluster({
        name: `conformance-${provider}`,
        crds: [RUNWAY_CRDS],
      });
      client = new KubeClient(cluster.kubeConfig());
      await client.create(Namespaces, { metadata: { name: namespace } });
      ({ providerClient, running } = await startProviderAsServiceAccount(
        cluster,
        client,
        definition,
        { finalizerTimeoutMs: FINALIZER_TIMEOUT_MS, heartbeatIntervalMs: 1000 },
      ));
    }, 30 * 60_000);

    afterAll(async () => {
      await running?.stop();
      providerClient?.close();
      client?.close();
      await cluster?.stop();
    });

    it('cannot read Secrets with its RBAC', async () => {
      await client.create(Secrets, {
        metadata: { name: 'hf-token', namespace },
        stringData: { HF_TOKEN: 'x' },
      });
      await expect(
        providerClient.get(Secrets, { namespace, name: 'hf-token' }),
      ).rejects.toMatchObject({ code: 403 });
    });

    it('registers, not ready and keeping the heartbeat current while its upstream CRD is missing', async () => {
      const first = await eventually('registration', async () => {
        const ipc = await getProviderConfig(client, provider);
        return (
          ipc.status?.ready === false &&
          ipc.status.version === definition.version &&
          ipc.status.lastHeartbeat
        );
      });
      await eventually('a newer heartbeat', async () => {
        const ipc = await getProviderConfig(client, provider);
        return (
          ipc.status.lastHeartbeat > first &&
          ipc.status.upstreamCRDVersion === undefined
        );
      });
    });

    it('holds a deployment Pending without its upstream CRD, then creates the object once the CRD is installed', async () => {
      await createMd('first', options.spec);
      await eventually('Pending for the missing CRD', async () => {
        const md = await getMd('first');
        return (
          md.status?.phase === 'Pending' &&
          md.status.message === crdNotInstalledMessage(provider)
        );
      });
      expect(await isGone(() => getUpstream('first'))).toBe(true);
      await cluster.installCrds(options.upstreamCrds);
      await eventually(
        'the upstream object',
        async () =>
          conditionOf(await getMd('first'), 'ResourceCreated')?.status ===
            'True' && !!(await upstreamUid('first')),
        60_000,
      );
      await eventually('ready with the detected version', async () => {
        const ipc = await getProviderConfig(client, provider);
        return (
          ipc.status?.ready === true &&
          ipc.status.upstreamCRDVersion === options.upstreamApiVersion
        );
      });
    });

    it('leaves the upstream object alone while paused, and recreates it on an identity change once resumed', async () => {
      const before = (await getUpstream('first')).metadata;
      const uid = before?.uid;
      await setPaused('first', true);
      await patchSpec('first', options.identityChange);
      await sleep(2500);
      // Not recreated, and not written at all.
      expect((await getUpstream('first')).metadata).toMatchObject({
        uid,
        resourceVersion: before?.resourceVersion,
      });
      await setPaused('first', false);
      await eventually('a new upstream object', async () => {
        const now = await upstreamUid('first');
        return !!now && now !== uid;
      });
      // The recorder writes after the objects: wait for the warning too.
      await eventually('the IdentityChanged warning', async () =>
        (
          await eventsAbout(client, namespace, 'first')
        ).some(e => e.startsWith('Warning/IdentityChanged:')),
      );
    });

    it('creates the claim of a sized storage volume, owned by the deployment', async () => {
      const claimName = 'stored-cache';
      await createMd('stored', {
        ...options.spec,
        model: {
          ...options.spec.model,
          storage: {
            volumes: [
              {
                name: 'cache',
                purpose: 'modelCache',
                claimName,
                size: '1Gi',
                mountPath: '/model-cache',
              },
            ],
          },
        },
      } as ModelDeployment['spec']);
      const claim = await eventually('the claim', () =>
        client.get<KubeObject>(PersistentVolumeClaims, {
          namespace,
          name: claimName,
        }),
      );
      expect(claim.metadata?.ownerReferences).toEqual([
        expect.objectContaining({
          apiVersion: DEPLOYMENTS_API_VERSION,
          kind: 'ModelDeployment',
          name: 'stored',
        }),
      ]);
      await eventually(
        'the upstream object',
        async () => !!(await upstreamUid('stored')),
      );
    });

    it('deletes its upstream object, then lets the deployment go', async () => {
      await client.delete(ModelDeployments, { namespace, name: 'stored' });
      await eventually(
        'deployment and upstream object gone',
        async () =>
          (await isGone(() => getMd('stored'))) &&
          (await isGone(() => getUpstream('stored'))),
      );
    });

    it('removes its finalizer after the timeout when the upstream object stays', async () => {
      await client.patch(
        upstream,
        { namespace, name: 'first' },
        { metadata: { finalizers: [FOREIGN_FINALIZER] } },
        'merge',
      );
      const started = Date.now();
      await client.delete(ModelDeployments, { namespace, name: 'first' });
      await eventually('deployment gone after the timeout', () =>
        isGone(() => getMd('first')),
      );
      // Counted from deletionTimestamp, which has whole seconds: up to 1 s before `started`.
      expect(Date.now() - started).toBeGreaterThanOrEqual(
        FINALIZER_TIMEOUT_MS - 1000,
      );
      expect(await eventsAbout(client, namespace, 'first')).toContain(
        'Warning/FinalizerTimeout: Finalizer removed after timeout, provider resource may be orphaned',
      );
      await client.patch(
        upstream,
        { namespace, name: 'first' },
        { metadata: { finalizers: null } },
        'merge',
      );
    });
  });
}

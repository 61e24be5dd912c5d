/**
 * Helpers for providers' integration tests against real clusters: run a
 * provider in-process, play the core's part (select the provider), read
 * events. No cluster or mock in here: the caller brings a KubeClient.
 * The generic waiting and event helpers are e2e-testing's.
 */
import {
  eventRecorded,
  eventsAbout,
  installForTest,
  type InstallTarget,
} from '@runway-portal/e2e-testing';
import {
  isNotFound,
  KubeClient,
  type KubeObject,
  Manager,
  silentLogger,
} from '@runway-portal/controller-runtime';
import {
  DEPLOYMENTS_API_VERSION,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import {
  ProviderController,
  type ProviderControllerOptions,
} from './controller';
import type { ProviderDefinition } from './definition';
import { InferenceProviderConfigs, ModelDeployments } from './resources';

export { eventsAbout };

/** The field manager the tests use when they act as the core controller. @public */
export const TEST_CORE_FIELD_MANAGER = 'airunway-core';

/** @public */
export interface RunningProvider {
  manager: Manager;
  provider: ProviderController;
  stop(): Promise<void>;
}

/** Starts a provider's manager in this process (free ports, no signal handling). @public */
export async function startProviderForTest(
  client: KubeClient,
  definition: ProviderDefinition,
  options: ProviderControllerOptions = {},
): Promise<RunningProvider> {
  const manager = new Manager({
    name: `${definition.name}-provider`,
    client,
    logger: silentLogger,
    metrics: { host: '127.0.0.1', port: 0 },
    healthProbes: { host: '127.0.0.1', port: 0 },
    handleSignals: false,
    gracefulShutdownTimeoutMs: 1000,
  });
  const provider = new ProviderController(manager, definition, options);
  provider.setup();
  const running = manager.start();
  await manager.elected();
  return {
    manager,
    provider,
    async stop() {
      await provider.stop();
      await manager.stop();
      await running;
    },
  };
}

/**
 * Loads a provider package's library entry point with `load` (in a test:
 * `() => jest.requireActual('./index')`) and fails if loading it started the
 * provider process: called `process.exit` (the failed start of a `main.ts`
 * exits from a promise callback, so those run first) or installed
 * runProvider's SIGTERM handler. Returns the module.
 *
 * @public
 */
export async function loadWithoutStarting<T>(load: () => T): Promise<T> {
  const exitCodes: unknown[] = [];
  const exit = process.exit;
  process.exit = ((code?: unknown) => {
    exitCodes.push(code);
  }) as typeof process.exit;
  const sigtermHandlers = process.listenerCount('SIGTERM');
  try {
    const lib = load();
    await new Promise(resolve => setImmediate(resolve));
    if (exitCodes.length > 0)
      throw new Error(
        `loading the library called process.exit(${exitCodes.join(
          ', ',
        )}): it must not start the provider (keep that in main.ts)`,
      );
    if (process.listenerCount('SIGTERM') !== sigtermHandlers)
      throw new Error(
        'loading the library installed a SIGTERM handler: it must not start the provider (keep that in main.ts)',
      );
    return lib;
  } finally {
    process.exit = exit;
  }
}

/** Does what the core does once it selected `provider`: writes status.provider.name as the core's field manager. @public */
export async function selectProviderAsCore(
  client: KubeClient,
  key: { namespace: string; name: string },
  provider: string,
  reason = 'explicit provider selection',
): Promise<void> {
  await client.apply(
    ModelDeployments,
    {
      apiVersion: DEPLOYMENTS_API_VERSION,
      kind: 'ModelDeployment',
      metadata: key,
      status: { provider: { name: provider, selectedReason: reason } },
    },
    {
      fieldManager: TEST_CORE_FIELD_MANAGER,
      subresource: 'status',
      force: true,
    },
  );
}

/** A ModelDeployment as the API server returns it. @public */
export type ModelDeploymentObject = ModelDeployment & KubeObject;

/** Creates a ModelDeployment, then selects `provider` for it as the core would. @public */
export async function createModelDeploymentAsCore(
  client: KubeClient,
  key: { namespace: string; name: string; labels?: Record<string, string> },
  spec: ModelDeployment['spec'],
  provider: string,
): Promise<void> {
  await client.create(ModelDeployments, {
    apiVersion: DEPLOYMENTS_API_VERSION,
    kind: 'ModelDeployment',
    metadata: key,
    spec,
  } as ModelDeploymentObject);
  await selectProviderAsCore(
    client,
    { namespace: key.namespace, name: key.name },
    provider,
  );
}

/**
 * The ModelDeployment calls every provider's integration test makes, bound to
 * its namespace and provider. `client` is a getter because tests create their
 * client in `beforeAll`, after the helpers are declared.
 *
 * @public
 */
export function modelDeploymentTestHelpers(
  client: () => KubeClient,
  provider: string,
  namespace: string,
) {
  return {
    getMd: (name: string, ns = namespace) =>
      client().get<ModelDeploymentObject>(ModelDeployments, {
        namespace: ns,
        name,
      }),
    createMd: (
      name: string,
      spec: ModelDeployment['spec'],
      labels?: Record<string, string>,
      ns = namespace,
    ) =>
      createModelDeploymentAsCore(
        client(),
        { namespace: ns, name, labels },
        spec,
        provider,
      ),
    patchSpec: (name: string, spec: object) =>
      client().patch(ModelDeployments, { namespace, name }, { spec }, 'merge'),
    events: (name: string, ns = namespace) => eventsAbout(client(), ns, name),
    /** Waits for an event (`Type/Reason: message`): the recorder writes after the objects and the status. */
    eventRecorded: (name: string, event: string, ns = namespace) =>
      eventRecorded(client(), ns, name, event),
  };
}

/** A condition of a ModelDeployment's status, by type. @public */
export function conditionOf(md: ModelDeployment, type: string) {
  return md.status?.conditions?.find(c => c.type === type);
}

/** Whether `get` fails with NotFound (true) or finds the object (false); any other error is thrown. @public */
export async function isGone(get: () => Promise<unknown>): Promise<boolean> {
  try {
    await get();
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

/** A provider's InferenceProviderConfig (cluster-scoped, named after the provider). @public */
export function getProviderConfig(
  client: KubeClient,
  provider: string,
): Promise<KubeObject & { spec?: any; status?: any }> {
  return client.get(InferenceProviderConfigs, { name: provider });
}

/**
 * Installs a built-in provider with the `runway` CLI out of cluster (its
 * ServiceAccount, RBAC and admission policy, as users install it; the
 * definition's name is its name in the CLI's catalog) and starts it
 * in-process with a token of that ServiceAccount, so the test proves the
 * shipped RBAC suffices. The caller closes `providerClient` and stops
 * `running`.
 *
 * @public
 */
export async function startProviderAsServiceAccount(
  cluster: InstallTarget,
  admin: KubeClient,
  definition: ProviderDefinition,
  options: ProviderControllerOptions = {},
): Promise<{ providerClient: KubeClient; running: RunningProvider }> {
  const { kubeConfig } = await installForTest(cluster, definition.name, admin);
  const providerClient = new KubeClient(kubeConfig);
  const running = await startProviderForTest(
    providerClient,
    definition,
    options,
  );
  return { providerClient, running };
}

/** Which field manager owns a top-level status field (or a condition type) of an object. @public */
export function statusOwners(obj: KubeObject): Record<string, string[]> {
  const owners: Record<string, string[]> = {};
  const add = (field: string, manager: string) =>
    (owners[field] ??= []).push(manager);
  for (const entry of (obj.metadata?.managedFields ?? []) as Array<{
    manager?: string;
    fieldsV1?: Record<string, any>;
  }>) {
    const status = entry.fieldsV1?.['f:status'];
    if (!status || !entry.manager) continue;
    for (const [key, value] of Object.entries(status)) {
      if (key === 'f:conditions') {
        for (const k of Object.keys(value as object)) {
          const m = /^k:\{"type":"(.+)"\}$/.exec(k);
          if (m) add(`conditions[${m[1]}]`, entry.manager);
        }
      } else if (key === 'f:provider') {
        for (const k of Object.keys(value as object))
          if (k.startsWith('f:')) add(`provider.${k.slice(2)}`, entry.manager);
      } else if (key.startsWith('f:')) {
        add(key.slice(2), entry.manager);
      }
    }
  }
  return owners;
}

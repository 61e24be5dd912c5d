/**
 * The one function that reads a cluster for the doctor. Everything it
 * learns goes into a ClusterState; the judging is in checks.ts.
 */
import {
  CustomResourceDefinitions,
  Deployments,
  type KubeClient,
  isNotFound,
  type KubeObject,
  Leases,
  MutatingWebhookConfigurations,
  type ResourceType,
  ValidatingWebhookConfigurations,
} from '@runway-portal/controller-runtime';
import { CATALOG, type CatalogEntry } from '../bundles/catalog';
import { loadCatalogBundle } from '../bundles/load';
import {
  crdEstablished,
  type CrdObject,
  deploymentReady,
  type DeploymentObject,
  getOrUndefined,
  InferenceProviderConfigs,
  probeWebhooks,
  serverVersion,
  type WebhookConfigObject,
} from '../install/kube';
import type {
  ClusterState,
  Expectations,
  LeaseRecord,
  ProviderState,
  ReadArea,
} from './types';

const Gateways: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
  namespaced: true,
};
const GATEWAY_CRD = 'gateways.gateway.networking.k8s.io';
const INFERENCE_GATEWAY_LABEL = 'airunway.ai/inference-gateway';

type RoleObject = KubeObject & {
  rules?: Array<{ resources?: string[]; resourceNames?: string[] }>;
};

/**
 * The leader-election Lease a bundle's controller renews: the one its Role
 * may `get`/`update` by name (every leader-election Role names its own;
 * each controller's tests tie that name to the one its code uses).
 *
 * @public
 */
export function bundleLeaseName(objects: KubeObject[]): string | undefined {
  for (const o of objects) {
    if (o.kind !== 'Role') continue;
    for (const rule of (o as RoleObject).rules ?? []) {
      if (rule.resources?.includes('leases') && rule.resourceNames?.length)
        return rule.resourceNames[0];
    }
  }
  return undefined;
}

/** What a healthy install of these catalog entries looks like, read from their bundles. @public */
export function expectationsFromBundles(
  deployDir: string,
  namespace: string,
  entries: readonly CatalogEntry[] = CATALOG,
): Expectations {
  const expected: Expectations = {
    namespace,
    crds: [],
    controllers: [],
    webhooks: [],
    providers: [],
    operators: [],
  };
  const crds = new Map<string, string[]>();
  for (const entry of entries) {
    const { objects } = loadCatalogBundle(entry, deployDir);
    const deployment =
      objects.find(o => o.kind === 'Deployment')?.metadata?.name ?? entry.name;
    const lease = bundleLeaseName(objects);
    for (const o of objects) {
      if (o.kind === 'CustomResourceDefinition') {
        const versions = ((o as CrdObject).spec?.versions ?? [])
          .filter(v => v.served !== false)
          .map(v => v.name);
        crds.set(o.metadata!.name!, versions);
      }
      if (
        o.kind === 'ValidatingWebhookConfiguration' ||
        o.kind === 'MutatingWebhookConfiguration'
      ) {
        expected.webhooks.push({
          kind: o.kind,
          name: o.metadata!.name!,
          component: entry.name,
        });
      }
    }
    if (entry.type === 'controller' && entry.optional)
      expected.operators.push({
        name: entry.name,
        deployment,
        ...(lease ? { lease } : {}),
        title: entry.title,
      });
    else if (entry.type === 'controller')
      expected.controllers.push({
        component: entry.name,
        deployment,
        ...(lease ? { lease } : {}),
      });
    else
      expected.providers.push({
        name: entry.name,
        deployment,
        ...(lease ? { lease } : {}),
        upstreamCrds: entry.upstreamCrds ?? [],
      });
  }
  expected.crds = [...crds.entries()].map(([name, versions]) => ({
    name,
    versions,
  }));
  return expected;
}

type ProviderConfigObject = KubeObject & {
  status?: {
    ready?: boolean;
    lastHeartbeat?: string;
    upstreamCRDVersion?: string;
    conditions?: Array<{ status: string; message?: string }>;
  };
};

type LeaseObject = KubeObject & {
  spec?: {
    holderIdentity?: string | null;
    renewTime?: string | null;
    leaseDurationSeconds?: number;
  };
};

function leaseRecord(lease: LeaseObject): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    ...(spec.holderIdentity ? { holderIdentity: spec.holderIdentity } : {}),
    ...(spec.renewTime ? { renewTime: spec.renewTime } : {}),
    ...(spec.leaseDurationSeconds !== undefined
      ? { leaseDurationSeconds: spec.leaseDurationSeconds }
      : {}),
  };
}

/** @public */
export interface ReadOptions {
  /**
   * Send each webhook configuration a dry-run AdmissionReview (default
   * true). Off (the portal's backend, which may not create services/proxy),
   * the webhook checks say only whether they are registered.
   */
  probeWebhooks?: boolean;
}

/**
 * The named objects the reading gets (CRDs, Deployments and leader Leases
 * in the namespace, webhook configurations by kind): what a read-only role
 * needs, by name.
 *
 * @public
 */
export function doctorReadTargets(expected: Expectations): {
  crds: string[];
  deployments: string[];
  leases: string[];
  validatingWebhookConfigurations: string[];
  mutatingWebhookConfigurations: string[];
} {
  const webhooks = (kind: string) =>
    expected.webhooks.filter(w => w.kind === kind).map(w => w.name);
  return {
    crds: [
      ...new Set([
        ...expected.crds.map(c => c.name),
        ...expected.providers.flatMap(p => p.upstreamCrds),
        GATEWAY_CRD,
      ]),
    ],
    deployments: [
      ...new Set([
        ...expected.controllers.map(c => c.deployment),
        ...expected.providers.map(p => p.deployment),
        ...expected.operators.map(o => o.deployment),
      ]),
    ],
    leases: [
      ...new Set(
        [
          ...expected.controllers,
          ...expected.providers,
          ...expected.operators,
        ].flatMap(c => (c.lease ? [c.lease] : [])),
      ),
    ],
    validatingWebhookConfigurations: webhooks('ValidatingWebhookConfiguration'),
    mutatingWebhookConfigurations: webhooks('MutatingWebhookConfiguration'),
  };
}

/** What each part of the reading needs, for a `not-checked` that names it. @public */
export const READ_NEEDS: Record<ReadArea, string> = {
  crds: 'get on customresourcedefinitions.apiextensions.k8s.io',
  deployments: 'get on deployments.apps',
  leases: 'get on leases.coordination.k8s.io',
  webhooks:
    'get on validatingwebhookconfigurations and mutatingwebhookconfigurations (admissionregistration.k8s.io)',
  webhookProbes:
    "create on services/proxy in the controllers' namespace (a dry-run AdmissionReview sent to each webhook)",
  providers: 'list on inferenceproviderconfigs.airunway.ai',
  gateway: 'list on gateways.gateway.networking.k8s.io',
};

const isForbidden = (err: unknown) =>
  (err as { code?: number } | undefined)?.code === 403;

/**
 * Reads one part; a 403 marks it not checked (naming what it needs) instead
 * of failing the whole reading. Any other error is thrown.
 */
async function readPart(
  state: ClusterState,
  area: ReadArea,
  read: () => Promise<void>,
): Promise<void> {
  try {
    await read();
  } catch (err) {
    if (!isForbidden(err)) throw err;
    state.notChecked = { ...state.notChecked, [area]: READ_NEEDS[area] };
  }
}

/** Reads everything the checks judge; with the backend's credentials, read-only. @public */
export async function readClusterState(
  client: KubeClient,
  expected: Expectations,
  options: ReadOptions = {},
): Promise<ClusterState> {
  const state: ClusterState = {
    serverVersion: await serverVersion(client),
    readAt: new Date().toISOString(),
    crds: {},
    deployments: {},
    leases: {},
    webhooks: {},
    providers: [],
    gateway: { crdInstalled: false, gateways: 0, labelled: 0 },
  };
  const {
    crds: crdNames,
    deployments: deploymentNames,
    leases: leaseNames,
  } = doctorReadTargets(expected);
  await readPart(state, 'crds', async () => {
    for (const name of crdNames) {
      const crd = await getOrUndefined<CrdObject>(
        client,
        CustomResourceDefinitions,
        { name },
      );
      state.crds[name] = crd
        ? {
            established: crdEstablished(crd),
            versions: (crd.spec?.versions ?? [])
              .filter(v => v.served !== false)
              .map(v => v.name),
          }
        : undefined;
    }
  });
  await readPart(state, 'deployments', async () => {
    for (const name of deploymentNames) {
      const d = await getOrUndefined<DeploymentObject>(client, Deployments, {
        namespace: expected.namespace,
        name,
      });
      state.deployments[name] = d
        ? {
            replicas: d.spec?.replicas ?? 1,
            readyReplicas: d.status?.readyReplicas ?? 0,
            ready: deploymentReady(d),
          }
        : undefined;
    }
  });
  // A controller running outside the cluster has no Deployment but renews its leader Lease.
  await readPart(state, 'leases', async () => {
    for (const name of leaseNames) {
      const lease = await getOrUndefined<LeaseObject>(client, Leases, {
        namespace: expected.namespace,
        name,
      });
      state.leases[name] = lease ? leaseRecord(lease) : undefined;
    }
  });
  const probe = options.probeWebhooks ?? true;
  if (!probe)
    state.notChecked = {
      ...state.notChecked,
      webhookProbes: READ_NEEDS.webhookProbes,
    };
  await readPart(state, 'webhooks', async () => {
    for (const w of expected.webhooks) {
      const rt =
        w.kind === 'ValidatingWebhookConfiguration'
          ? ValidatingWebhookConfigurations
          : MutatingWebhookConfigurations;
      const config = await getOrUndefined<WebhookConfigObject>(client, rt, {
        name: w.name,
      });
      if (!config) state.webhooks[`${w.kind}/${w.name}`] = undefined;
      else
        state.webhooks[`${w.kind}/${w.name}`] = probe
          ? await probeWebhooks(client, config, expected.namespace)
          : { answered: true, message: 'registered' };
    }
  });
  // Without the CRDs' state (not readable), the provider list is still tried: a 404 there means no CRD.
  const providersServed =
    state.notChecked?.crds !== undefined ||
    state.crds['inferenceproviderconfigs.airunway.ai']?.established;
  if (providersServed) {
    await readPart(state, 'providers', async () => {
      const list = await client
        .list<ProviderConfigObject>(InferenceProviderConfigs)
        .catch(err => {
          if (isNotFound(err)) return { items: [] };
          throw err;
        });
      state.providers = list.items.map(
        (ipc): ProviderState => ({
          name: ipc.metadata!.name!,
          ready: ipc.status?.ready === true,
          lastHeartbeat: ipc.status?.lastHeartbeat,
          upstreamCRDVersion: ipc.status?.upstreamCRDVersion,
          message: ipc.status?.conditions?.find(c => c.status === 'False')
            ?.message,
        }),
      );
    });
  }
  // The served version is the one the core lists (v1); a CRD serving only others counts as absent.
  const gatewayRt = state.crds[GATEWAY_CRD]?.versions.includes('v1')
    ? Gateways
    : undefined;
  if (gatewayRt) {
    state.gateway.crdInstalled = true;
    await readPart(state, 'gateway', async () => {
      const gateways = await client.list<KubeObject>(gatewayRt);
      state.gateway.gateways = gateways.items.length;
      state.gateway.labelled = gateways.items.filter(
        g => g.metadata?.labels?.[INFERENCE_GATEWAY_LABEL] === 'true',
      ).length;
    });
  } else if (state.notChecked?.crds) {
    state.notChecked = { ...state.notChecked, gateway: READ_NEEDS.crds };
  }
  return state;
}

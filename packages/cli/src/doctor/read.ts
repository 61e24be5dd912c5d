/**
 * The one function that reads a cluster for the doctor. Everything it
 * learns goes into a ClusterState; the judging is in checks.ts.
 */
import {
  CustomResourceDefinitions,
  Deployments,
  type KubeClient,
  type KubeObject,
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
import type { ClusterState, Expectations, ProviderState } from './types';

const Gateways: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
  namespaced: true,
};
const GATEWAY_CRD = 'gateways.gateway.networking.k8s.io';
const INFERENCE_GATEWAY_LABEL = 'airunway.ai/inference-gateway';

/** What a healthy install of these catalog entries looks like, read from their bundles. */
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
        title: entry.title,
      });
    else if (entry.type === 'controller')
      expected.controllers.push({ component: entry.name, deployment });
    else
      expected.providers.push({
        name: entry.name,
        deployment,
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

export async function readClusterState(
  client: KubeClient,
  expected: Expectations,
): Promise<ClusterState> {
  const state: ClusterState = {
    serverVersion: await serverVersion(client),
    readAt: new Date().toISOString(),
    crds: {},
    deployments: {},
    webhooks: {},
    providers: [],
    gateway: { crdInstalled: false, gateways: 0, labelled: 0 },
  };
  const crdNames = new Set([
    ...expected.crds.map(c => c.name),
    ...expected.providers.flatMap(p => p.upstreamCrds),
    GATEWAY_CRD,
  ]);
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
  const deploymentNames = new Set([
    ...expected.controllers.map(c => c.deployment),
    ...expected.providers.map(p => p.deployment),
    ...expected.operators.map(o => o.deployment),
  ]);
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
  for (const w of expected.webhooks) {
    const rt =
      w.kind === 'ValidatingWebhookConfiguration'
        ? ValidatingWebhookConfigurations
        : MutatingWebhookConfigurations;
    const config = await getOrUndefined<WebhookConfigObject>(client, rt, {
      name: w.name,
    });
    state.webhooks[`${w.kind}/${w.name}`] = config
      ? await probeWebhooks(client, config, expected.namespace)
      : undefined;
  }
  if (state.crds['inferenceproviderconfigs.airunway.ai']?.established) {
    const list = await client.list<ProviderConfigObject>(
      InferenceProviderConfigs,
    );
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
  }
  // The served version is the one the core lists (v1); a CRD serving only others counts as absent.
  const gatewayRt = state.crds[GATEWAY_CRD]?.versions.includes('v1')
    ? Gateways
    : undefined;
  if (gatewayRt) {
    state.gateway.crdInstalled = true;
    const gateways = await client.list<KubeObject>(gatewayRt);
    state.gateway.gateways = gateways.items.length;
    state.gateway.labelled = gateways.items.filter(
      g => g.metadata?.labels?.[INFERENCE_GATEWAY_LABEL] === 'true',
    ).length;
  }
  return state;
}

/**
 * What Runway installs: one entry per bundle folder under controllers/deploy.
 * Adding a controller (the models and stacks operators) is one line here;
 * everything else (objects, Deployments, webhooks) is read from its bundle.
 */
import fs from 'node:fs';
import path from 'node:path';

/** @public */
export const DEFAULT_NAMESPACE = 'airunway-system';
/** The CLI's own field manager for server-side apply. @public */
export const FIELD_MANAGER = 'runway-cli';
/** Set on every object the CLI applies except the shared ones (namespace, CRDs). @public */
export const COMPONENT_LABEL = 'airunway.ai/component';

/** Custom resources whose existence makes an uninstall refuse (without --force). @public */
export interface Guard {
  apiVersion: string;
  kind: string;
  plural: string;
  /** Only objects whose `status.provider.name` (providers) is this component's name. */
  byProvider?: boolean;
}

/** @public */
export interface CatalogEntry {
  /** What users type: `runway controller install core`, `runway provider install kaito`. */
  name: string;
  type: 'controller' | 'provider';
  /** Folder under controllers/deploy. */
  dir: string;
  title: string;
  guards: Guard[];
  /** Full names of the upstream CRDs a provider needs (doctor checks them). */
  upstreamCrds?: string[];
  /**
   * An operator a cluster may go without (models, stacks): `runway doctor`
   * warns when it is absent and checks its webhooks only when it is installed.
   */
  optional?: boolean;
}

const MODEL_DEPLOYMENTS = {
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  plural: 'modeldeployments',
};

/** @public */
export const CATALOG: readonly CatalogEntry[] = [
  {
    name: 'core',
    type: 'controller',
    dir: 'core',
    title: 'core controller (webhooks, provider selection, gateway)',
    guards: [MODEL_DEPLOYMENTS],
  },
  {
    name: 'models',
    type: 'controller',
    dir: 'models',
    title: 'models operator (Model: download Jobs, pod-injection webhook)',
    optional: true,
    guards: [
      {
        apiVersion: 'models.airunway.ai/v1alpha1',
        kind: 'Model',
        plural: 'models',
      },
    ],
  },
  {
    name: 'stacks',
    type: 'controller',
    dir: 'stacks',
    optional: true,
    title:
      'stacks operator (LlamaStackDistribution: config generation, conversion webhook)',
    guards: [
      {
        apiVersion: 'llamastack.io/v1alpha2',
        kind: 'LlamaStackDistribution',
        plural: 'llamastackdistributions',
      },
    ],
  },
  {
    name: 'kaito',
    type: 'provider',
    dir: 'provider-kaito',
    title: 'KAITO provider',
    guards: [{ ...MODEL_DEPLOYMENTS, byProvider: true }],
    upstreamCrds: ['workspaces.kaito.sh'],
  },
  {
    name: 'dynamo',
    type: 'provider',
    dir: 'provider-dynamo',
    title: 'NVIDIA Dynamo provider',
    guards: [{ ...MODEL_DEPLOYMENTS, byProvider: true }],
    upstreamCrds: ['dynamographdeployments.nvidia.com'],
  },
  {
    name: 'kuberay',
    type: 'provider',
    dir: 'provider-kuberay',
    title: 'KubeRay provider',
    guards: [{ ...MODEL_DEPLOYMENTS, byProvider: true }],
    upstreamCrds: ['rayservices.ray.io'],
  },
  {
    name: 'llmd',
    type: 'provider',
    dir: 'provider-llmd',
    title: 'llm-d provider',
    guards: [{ ...MODEL_DEPLOYMENTS, byProvider: true }],
    upstreamCrds: ['inferencepools.inference.networking.k8s.io'],
  },
];

/** @public */
export function catalogEntry(
  name: string,
  type?: CatalogEntry['type'],
): CatalogEntry | undefined {
  return CATALOG.find(e => e.name === name && (!type || e.type === type));
}

/** This package's folder (through the workspace link, as Backstage's resolvePackagePath does). */
const PACKAGE_DIR = path.dirname(
  require.resolve('@runway-portal/cli/package.json'),
);

/** Folder of the bundles: the repository's controllers/deploy, found from this package upwards. @public */
export function defaultDeployDir(from: string = PACKAGE_DIR): string {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, 'controllers', 'deploy');
    if (fs.existsSync(path.join(candidate, 'namespace'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(
        `no controllers/deploy folder above ${from}: pass --manifests <folder of the bundles>`,
      );
    }
    dir = parent;
  }
}

/**
 * What the local system runs, as data, and the pure functions that turn
 * it into commands: the controllers (the same bundled file, with the same
 * Node flags, as their container images; bundled from the entry of each
 * package's `start` script), the simulators (from their `start` script),
 * and the Gateway each local cluster gets.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  CONTROLLER_BUNDLE,
  CONTROLLER_NODE_FLAGS,
} from '@runway-portal/controller-runtime/bundle';
import { DEFAULT_NODES, type NodeSpec } from '@runway-portal/e2e-cluster';
import { SIMULATED_GATEWAY_CLASS } from '@runway-portal/e2e-simulators';
import {
  DEFAULT_DOCTOR_NAMESPACE,
  GPU_NODE_LABELS,
} from '@runway-portal/plugin-runway-node';

/** The GPU of the local clusters' GPU nodes, as NVIDIA GPU feature discovery would label it. */
export const LOCAL_GPU = {
  product: 'NVIDIA-A100-SXM4-80GB',
  memoryMiB: 81920,
} as const;

/**
 * The local clusters' nodes: e2e/cluster's defaults, with each GPU node
 * labelled with its GPU's product and memory (`GPU_NODE_LABELS`), so the
 * portal's GPU-fit check compares against real numbers.
 */
export const LOCAL_NODES: NodeSpec[] = DEFAULT_NODES.map(node =>
  node.gpus
    ? {
        ...node,
        labels: {
          ...node.labels,
          [GPU_NODE_LABELS.product]: LOCAL_GPU.product,
          [GPU_NODE_LABELS.memoryMiB]: String(LOCAL_GPU.memoryMiB),
        },
      }
    : node,
);

/** One controller process per cluster. */
export interface ControllerSpec {
  /** Short name in logs and messages. */
  name: string;
  /** Package folder, relative to the repository root. */
  packageDir: string;
  /**
   * Flags for a local process; `webhookPort` is a free port chosen per
   * process; `modelsDir` is the cluster's folder standing for the model
   * PVCs and the download pods' logs (the model operator and its simulator);
   * `clusterDir` is the cluster's own folder (its certificates).
   */
  args(ports: {
    webhookPort: number;
    healthPort: number;
    modelsDir: string;
    clusterDir: string;
  }): string[];
  /**
   * Its bundle's name in the `runway` CLI's catalog (`core`, `kaito`, ...):
   * `runway install --all --out-of-cluster` installs its ServiceAccount,
   * RBAC and admission policy, and the process runs as that ServiceAccount.
   * Test doubles have none and run with the admin kubeconfig.
   */
  component?: string;
  /** Whether it serves /readyz on `healthPort` (waited for before the start is done). */
  probes: boolean;
  /**
   * `bundle`: the production entry its image runs (CONTROLLER_BUNDLE, built
   * from the start script's entry when stale); `source`: the start script
   * itself (test doubles, which ship in no image).
   */
  runs: 'bundle' | 'source';
}

/**
 * Leader election on, as the shipped manifests run them: each controller
 * renews its Lease in the namespace the doctor reads, which is how the
 * portal's doctor knows a controller without a Deployment is running.
 */
const LEADER_ELECT = '--leader-elect=true';
const providerArgs = (p: { healthPort: number }) => [
  '--metrics-port=0',
  `--health-port=${p.healthPort}`,
  `--leader-election-namespace=${DEFAULT_DOCTOR_NAMESPACE}`,
];

export const CONTROLLERS: readonly ControllerSpec[] = [
  {
    name: 'core',
    packageDir: 'controllers/core',
    // url mode: the process registers its own webhooks at https://127.0.0.1:<port>.
    args: p => [
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      `--webhook-port=${p.webhookPort}`,
      '--metrics-port=0',
      `--health-port=${p.healthPort}`,
      LEADER_ELECT,
    ],
    probes: true,
    component: 'core',
    runs: 'bundle',
  },
  {
    name: 'models',
    packageDir: 'controllers/models',
    // Download logs come through pods/log: the download simulator's node serves them.
    args: p => [
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      `--webhook-port=${p.webhookPort}`,
      '--metrics-port=0',
      `--health-port=${p.healthPort}`,
      LEADER_ELECT,
    ],
    probes: true,
    component: 'models',
    runs: 'bundle',
  },
  {
    name: 'stacks',
    packageDir: 'controllers/stacks',
    // url mode: the operator points the stack CRD's conversion webhook and its validating webhook at itself.
    args: p => [
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      `--webhook-port=${p.webhookPort}`,
      '--metrics-port=0',
      `--health-port=${p.healthPort}`,
      LEADER_ELECT,
    ],
    probes: true,
    component: 'stacks',
    runs: 'bundle',
  },
  {
    name: 'provider-kaito',
    packageDir: 'controllers/providers/kaito',
    args: providerArgs,
    probes: true,
    component: 'kaito',
    runs: 'bundle',
  },
  {
    name: 'provider-dynamo',
    packageDir: 'controllers/providers/dynamo',
    args: providerArgs,
    probes: true,
    component: 'dynamo',
    runs: 'bundle',
  },
  {
    name: 'provider-kuberay',
    packageDir: 'controllers/providers/kuberay',
    args: providerArgs,
    probes: true,
    component: 'kuberay',
    runs: 'bundle',
  },
  {
    name: 'provider-llmd',
    packageDir: 'controllers/providers/llmd',
    args: providerArgs,
    probes: true,
    component: 'llmd',
    runs: 'bundle',
  },
];

/** The operator test doubles, one process per cluster. */
export const SIMULATORS: ControllerSpec = {
  name: 'simulators',
  packageDir: 'e2e/simulators',
  // Download pods run the real downloader into modelsDir; model server pods get logs from a
  // kubelet log stand-in serving with the cluster's certificate (see @runway-portal/e2e-simulators).
  args: p => [
    `--models-dir=${p.modelsDir}`,
    `--cluster-dir=${p.clusterDir}`,
    `--health-port=${p.healthPort}`,
  ],
  probes: true,
  runs: 'source',
};

export interface NodeCommand {
  /** Arguments for `node` (the current executable), starting with its own flags. */
  nodeArgs: string[];
}

/**
 * The `node ...` command of a package's `start` script, so the system runs
 * exactly what the package declares. Anything else is an error that says
 * what the script must look like.
 */
export function entryCommand(
  packageName: string,
  startScript: string | undefined,
): NodeCommand {
  if (!startScript) {
    throw new Error(
      `${packageName} has no "start" script in package.json: add one like "node --require @backstage/cli/config/nodeTransform.cjs src/main.ts"`,
    );
  }
  const words = startScript.trim().split(/\s+/);
  if (
    words[0] !== 'node' ||
    words.length < 2 ||
    words.some(w => /[;&|<>$`'"]/.test(w))
  ) {
    throw new Error(
      `${packageName}'s "start" script "${startScript}" is not a plain node command: write it as "node [--require MODULE] ENTRY.ts"`,
    );
  }
  return { nodeArgs: words.slice(1) };
}

/** The entry file of a node command (its last argument), to check it exists. */
export function entryFile(command: NodeCommand): string {
  return command.nodeArgs[command.nodeArgs.length - 1];
}

/**
 * How a spec's process is started: the start script's command, or for a
 * bundled controller the image's Node flags and its bundle.
 */
export function processCommand(
  spec: Pick<ControllerSpec, 'runs'>,
  start: NodeCommand,
): NodeCommand {
  return spec.runs === 'bundle'
    ? { nodeArgs: [...CONTROLLER_NODE_FLAGS, CONTROLLER_BUNDLE] }
    : start;
}

/** Where the local Gateway lives (its own namespace, as a cluster admin would put it). */
export const LOCAL_GATEWAY_NAMESPACE = 'gateway-system';

/**
 * The Gateway of every local cluster: of the simulated implementation's class
 * (the gateway simulator gives it an address and `Programmed`), labelled as
 * the one the core routes through (the core's INFERENCE_GATEWAY_LABEL), and
 * accepting HTTPRoutes from every namespace.
 */
export const LOCAL_GATEWAY: KubeObject = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: {
    name: 'inference-gateway',
    namespace: LOCAL_GATEWAY_NAMESPACE,
    labels: { 'airunway.ai/inference-gateway': 'true' },
  },
  spec: {
    gatewayClassName: SIMULATED_GATEWAY_CLASS,
    listeners: [
      {
        name: 'http',
        port: 80,
        protocol: 'HTTP',
        allowedRoutes: { namespaces: { from: 'All' } },
      },
    ],
  },
};

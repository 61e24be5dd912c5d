/**
 * What the local system runs, as data, and the pure functions that turn
 * it into commands: the controllers (from the same entry points as their
 * container images: each package's `start` script), the simulators, and
 * the Gateway each local cluster gets.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import { SIMULATED_GATEWAY_CLASS } from '@runway-portal/e2e-simulators';

/** One controller process per cluster. */
export interface ControllerSpec {
  /** Short name in logs and messages. */
  name: string;
  /** Package folder, relative to the repository root. */
  packageDir: string;
  /**
   * Flags for a local process; `webhookPort` is a free port chosen per
   * process; `modelsDir` is the cluster's folder standing for the model
   * PVCs and the download pods' logs (the model operator and its simulator).
   */
  args(ports: {
    webhookPort: number;
    healthPort: number;
    modelsDir: string;
  }): string[];
  /** Whether it serves /readyz on `healthPort` (waited for before Backstage starts). */
  probes: boolean;
}

const providerArgs = (p: { healthPort: number }) => [
  '--metrics-port=0',
  `--health-port=${p.healthPort}`,
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
    ],
    probes: true,
  },
  {
    name: 'models',
    packageDir: 'controllers/models',
    // kwok serves no pod logs: the operator reads the download simulator's log files instead.
    args: p => [
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      `--webhook-port=${p.webhookPort}`,
      '--metrics-port=0',
      `--health-port=${p.healthPort}`,
      `--pod-log-dir=${p.modelsDir}/logs`,
    ],
    probes: true,
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
    ],
    probes: true,
  },
  {
    name: 'provider-kaito',
    packageDir: 'controllers/providers/kaito',
    args: providerArgs,
    probes: true,
  },
  {
    name: 'provider-dynamo',
    packageDir: 'controllers/providers/dynamo',
    args: providerArgs,
    probes: true,
  },
  {
    name: 'provider-kuberay',
    packageDir: 'controllers/providers/kuberay',
    args: providerArgs,
    probes: true,
  },
  {
    name: 'provider-llmd',
    packageDir: 'controllers/providers/llmd',
    args: providerArgs,
    probes: true,
  },
];

/** The operator test doubles, one process per cluster. */
export const SIMULATORS: ControllerSpec = {
  name: 'simulators',
  packageDir: 'e2e/simulators',
  // Download pods run the real downloader into modelsDir (see @runway-portal/e2e-simulators).
  args: p => [`--models-dir=${p.modelsDir}`],
  probes: false,
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

/**
 * Runs the operator test doubles against one cluster until SIGTERM/SIGINT:
 *
 *   KUBECONFIG=... yarn workspace @runway-portal/e2e-simulators start [--step-delay-ms 2000] [--only kaito,dynamo] [--models-dir DIR] [--cluster-dir DIR] [--health-port PORT]
 */
import { Manager, createLogger } from '@runway-portal/controller-runtime';
import { parseArgs } from 'node:util';
import {
  DEFAULT_STEP_DELAY_MS,
  registerSimulators,
  SIMULATOR_NAMES,
} from './simulator';
import {
  DEMO_MODEL_REPO,
  DOWNLOADS_NODE,
  startLocalHub,
  MODEL_DOWNLOADS_SIMULATOR,
  registerModelDownloads,
} from './modelDownloads';
import {
  LOGS_NODE,
  MODEL_SERVER_PODS_SIMULATOR,
  registerModelServerPods,
} from './modelServerPods';

export interface SimulatorArgs {
  kubeconfig?: string;
  stepDelayMs: number;
  only?: string[];
  /** Run the model download simulator (and a hub stand-in with a demo model) with this folder; needs `clusterDir`. */
  modelsDir?: string;
  /** The cluster's folder (e2e-cluster's `TestCluster.dir`): model server pods with logs (modelServerPods.ts). */
  clusterDir?: string;
  /** Serve /healthz and /readyz on 127.0.0.1 at this port (0 picks one), as the controllers do; none without it. */
  healthPort?: number;
}

/** Flags (then environment) to options; throws a message naming the bad flag. */
export function parseSimulatorArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
): SimulatorArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      kubeconfig: { type: 'string' },
      'step-delay-ms': { type: 'string' },
      only: { type: 'string' },
      'models-dir': { type: 'string' },
      'cluster-dir': { type: 'string' },
      'health-port': { type: 'string' },
    },
  });
  const delayText =
    values['step-delay-ms'] ?? env.RUNWAY_SIMULATOR_STEP_DELAY_MS;
  const stepDelayMs =
    delayText === undefined ? DEFAULT_STEP_DELAY_MS : Number(delayText);
  if (!Number.isInteger(stepDelayMs) || stepDelayMs < 0) {
    throw new Error(
      `--step-delay-ms (or RUNWAY_SIMULATOR_STEP_DELAY_MS) must be a whole number of milliseconds, 0 or more; got "${delayText}"`,
    );
  }
  const only = values.only
    ?.split(',')
    .map(s => s.trim())
    .filter(Boolean);
  const unknown = (only ?? []).filter(n => !SIMULATOR_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new Error(
      `--only names unknown simulator(s) ${unknown.join(
        ', ',
      )}: choose from ${SIMULATOR_NAMES.join(', ')}`,
    );
  }
  const modelsDir = values['models-dir'] ?? env.RUNWAY_MODELS_DIR;
  const clusterDir = values['cluster-dir'] ?? env.RUNWAY_CLUSTER_DIR;
  if (modelsDir && !clusterDir) {
    throw new Error(
      `--models-dir (or RUNWAY_MODELS_DIR) needs --cluster-dir (or RUNWAY_CLUSTER_DIR): download pods' logs are served with the cluster's certificate; set it to the cluster's folder`,
    );
  }
  const portText = values['health-port'];
  const healthPort = portText === undefined ? undefined : Number(portText);
  if (
    healthPort !== undefined &&
    !(Number.isInteger(healthPort) && healthPort >= 0 && healthPort <= 65535)
  ) {
    throw new Error(
      `--health-port must be a port number from 0 to 65535 (0 picks a free one); got "${portText}"`,
    );
  }
  return {
    kubeconfig: values.kubeconfig ?? env.KUBECONFIG,
    stepDelayMs,
    only,
    modelsDir,
    clusterDir,
    ...(healthPort === undefined ? {} : { healthPort }),
  };
}

async function main(): Promise<void> {
  let args: SimulatorArgs;
  try {
    args = parseSimulatorArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`simulators: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const logger = createLogger();
  const mgr = new Manager({
    name: 'runway-simulators',
    kubeconfigPath: args.kubeconfig,
    logger,
    metrics: false,
    // The local system waits for /readyz, so "running" means watching, not still loading.
    healthProbes:
      args.healthPort === undefined
        ? false
        : { host: '127.0.0.1', port: args.healthPort },
  });
  const modelServerPods = args.clusterDir
    ? await registerModelServerPods(mgr, { clusterDir: args.clusterDir })
    : undefined;
  const { started, skipped } = await registerSimulators(mgr, {
    ...args,
    modelServerPods,
  });
  if (modelServerPods)
    started.push(
      `${MODEL_SERVER_PODS_SIMULATOR} (pods on node ${LOGS_NODE}, logs from a kubelet log stand-in)`,
    );
  if (args.modelsDir && args.clusterDir) {
    // Download pods run the real downloader against the local hub stand-in with a demo
    // model: the one the local system started (HF_ENDPOINT), else one of our own.
    const hubUrl = process.env.HF_ENDPOINT || (await startLocalHub()).url;
    await registerModelDownloads(mgr, {
      dir: args.modelsDir,
      clusterDir: args.clusterDir,
      hfEndpoint: hubUrl,
    });
    started.push(
      `${MODEL_DOWNLOADS_SIMULATOR} (pods on node ${DOWNLOADS_NODE}, hub stand-in ${hubUrl} with ${DEMO_MODEL_REPO}, volumes in ${args.modelsDir})`,
    );
  }
  for (const line of skipped) logger.warn(`simulator not started: ${line}`);
  logger.info('operator test doubles running', {
    simulators: started,
    stepDelayMs: args.stepDelayMs,
  });
  await mgr.start();
}

if (require.main === module) {
  main().catch(err => {
    process.stderr.write(`simulators: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}

/**
 * The whole life of a provider process: parse flags and environment, start
 * a Manager with the provider's controller, run until SIGTERM.
 */
import { createLogger, Manager, parseLevel } from '@runway-portal/controller-runtime';
import { ProviderController } from './controller';
import type { ProviderDefinition } from './definition';
import { parseProviderOptions, usage } from './options';

/** Runs a provider until it is told to stop; resolves with the process exit code. */
export async function runProvider(
  definition: ProviderDefinition,
  argv: string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const program = `${definition.name}-provider`;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage(program)}\n`);
    return 0;
  }
  let options;
  try {
    options = parseProviderOptions(argv, env);
  } catch (err) {
    process.stderr.write(`${program}: ${(err as Error).message}\n${usage(program)}\n`);
    return 2;
  }
  const level = parseLevel(options.logLevel);
  if (options.logLevel && !level) {
    process.stderr.write(`${program}: --log-level "${options.logLevel}" is not valid: use debug, info, warn or error\n`);
    return 2;
  }
  const logger = createLogger({ level });
  let mgr: Manager;
  try {
    mgr = new Manager({
      name: program,
      kubeconfigPath: options.kubeconfig,
      logger,
      metrics: { port: options.metricsPort },
      healthProbes: { port: options.healthPort },
      leaderElection: options.leaderElectionNamespace ? { namespace: options.leaderElectionNamespace } : false,
    });
  } catch (err) {
    logger.error('cannot load the cluster configuration: set --kubeconfig or KUBECONFIG, or run in a cluster', { error: err });
    return 1;
  }
  const provider = new ProviderController(mgr, definition, {
    finalizerTimeoutMs: options.finalizerTimeoutMs,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    maxConcurrentReconciles: options.maxConcurrentReconciles,
  });
  provider.setup();
  try {
    await mgr.start();
    return 0;
  } catch (err) {
    logger.error('provider stopped with an error', { error: err });
    return 1;
  } finally {
    await provider.stop();
  }
}

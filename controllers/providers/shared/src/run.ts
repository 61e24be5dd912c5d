/**
 * The whole life of a provider process: parse flags and environment, start
 * a Manager with the provider's controller, run until SIGTERM.
 */
import {
  createLogger,
  Manager,
  runControllerProcess,
} from '@runway-portal/controller-runtime';
import { ProviderController } from './controller';
import type { ProviderDefinition } from './definition';
import {
  parseProviderOptions,
  providerOptions,
  type ProviderProcessOptions,
} from './options';

/** The provider's leader-election Lease; its Role in controllers/deploy/provider-<name>/rbac.yaml names it. @public */
export function providerLeaseName(name: string): string {
  return `${name}-provider-leader`;
}

/** Runs a provider until it is told to stop; resolves with the process exit code. @public */
export function runProvider(
  definition: ProviderDefinition,
  argv: string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  return runControllerProcess(
    {
      program: `${definition.name}-provider`,
      specs: providerOptions(definition),
      parse: (args, vars) => parseProviderOptions(args, vars, definition),
      run: options => serveProvider(definition, options),
    },
    argv,
    env,
  );
}

/** A Manager with the provider's controller, until SIGTERM; resolves with the exit code. */
async function serveProvider(
  definition: ProviderDefinition,
  options: ProviderProcessOptions,
): Promise<number> {
  const logger = createLogger({ level: options.logLevel });
  let mgr: Manager;
  try {
    mgr = new Manager({
      name: `${definition.name}-provider`,
      kubeconfigPath: options.kubeconfig,
      logger,
      metrics: { port: options.metricsPort },
      healthProbes: { port: options.healthPort },
      leaderElection: options.leaderElectionNamespace
        ? {
            namespace: options.leaderElectionNamespace,
            leaseName: providerLeaseName(definition.name),
          }
        : false,
    });
  } catch (err) {
    logger.error(
      'cannot load the cluster configuration: set --kubeconfig or KUBECONFIG, or run in a cluster',
      { error: err },
    );
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

/**
 * The llm-d provider process: the shared loop's flags and environment (run
 * with --help), and the shared loop itself.
 *
 * This is `runProvider` of @runway-portal/provider-shared with one
 * difference: the definition needs the Manager's Deployment cache (see
 * definition.ts), and `runProvider` builds its Manager inside. When the
 * shared loop passes the live extra objects to `mapStatus`, this file
 * becomes `runProvider(llmdProvider(...))`.
 */
import { Manager, createLogger, parseLevel } from '@runway-portal/controller-runtime';
import { ProviderController, parseProviderOptions, usage } from '@runway-portal/provider-shared';
import { deploymentCache, llmdProvider } from './definition';

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const program = 'llmd-provider';
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
  const definition = llmdProvider(deploymentCache(mgr.informers));
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

main(process.argv.slice(2), process.env).then(
  code => process.exit(code),
  err => {
    process.stderr.write(`llmd-provider: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

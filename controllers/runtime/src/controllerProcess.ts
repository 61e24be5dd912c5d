/**
 * The shell every controller process shares, around what differs (its
 * controllers and webhooks): `--help`, the parse of flags and environment
 * with exit code 2 and the usage on bad settings, a run that fails with exit
 * code 1 and `<program>: <why>`; for the webhook-serving controllers, the
 * Manager with its certificates and, in url mode, pointing the API server
 * at this process before it starts.
 */
import { isIP } from 'node:net';
import type { CertManagerOptions } from './webhook/certManager';
import {
  KubeApiError,
  KubeConnectionError,
  isAlreadyExists,
} from './kube/errors';
import type { KubeClient } from './kube/client';
import { Namespaces } from './kube/wellKnown';
import { Manager } from './manager/manager';
import { createLogger, type Logger } from './observability/logger';
import {
  helpRequested,
  optionErrorsText,
  type OptionSpecs,
  type OptionsResult,
  usage,
  type WebhookManagerOptions,
} from './options';

/** A controller process: its name, its flags, their parse and its run. @public */
export interface ControllerProcess<O> {
  /** Names the process in messages and the usage, e.g. `airunway-core`. */
  program: string;
  specs: OptionSpecs;
  parse(
    argv: string[],
    env: Record<string, string | undefined>,
  ): OptionsResult<O>;
  /**
   * Runs until the process is told to stop; resolves with its exit code
   * (nothing: 0). A rejection exits with 1, printed as `<program>: <message>`.
   */
  run(options: O): Promise<number | void>;
}

/** Runs a controller process; resolves with its exit code (0 for `--help`, 2 for bad settings). @public */
export async function runControllerProcess<O>(
  controller: ControllerProcess<O>,
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const { program, specs } = controller;
  if (helpRequested(argv)) {
    process.stdout.write(`${usage(program, specs)}\n`);
    return 0;
  }
  const parsed = controller.parse(argv, env);
  if (!parsed.ok) {
    process.stderr.write(optionErrorsText(program, specs, parsed.errors));
    return 2;
  }
  try {
    return (await controller.run(parsed.options)) ?? 0;
  } catch (err) {
    process.stderr.write(
      `${program}: ${(err as Error)?.message ?? String(err)}\n`,
    );
    return 1;
  }
}

/**
 * A process's entry point, `main(argv?, env?)`: runs the process and leaves
 * a non-zero exit code in `process.exitCode`.
 *
 * @public
 */
export function controllerMain<O>(
  controller: ControllerProcess<O>,
): (
  argv?: string[],
  env?: Record<string, string | undefined>,
) => Promise<void> {
  return async (argv = process.argv.slice(2), env = process.env) => {
    const code = await runControllerProcess(controller, argv, env);
    if (code !== 0) process.exitCode = code;
  };
}

const isForbidden = (err: unknown) =>
  err instanceof KubeApiError && err.code === 403;

/** What tests give a process instead of its defaults. @public */
export interface ProcessDeps {
  client?: KubeClient;
  logger?: Logger;
  handleSignals?: boolean;
}

/** The webhook configurations and CRDs whose caBundle the process keeps current. @public */
export type WebhookCertificateTargets = Pick<
  CertManagerOptions,
  | 'secretName'
  | 'validatingWebhookConfigurations'
  | 'mutatingWebhookConfigurations'
  | 'conversionCrds'
>;

/**
 * The Manager of a webhook-serving controller: metrics, probes, leader
 * election in `namespace` when asked, and unless the webhooks are off, a
 * webhook server whose certificate covers `webhookHost`.
 *
 * @public
 */
export function webhookManager(
  program: string,
  options: WebhookManagerOptions,
  certificates: WebhookCertificateTargets,
  deps: ProcessDeps = {},
): Manager {
  const url = options.webhookMode === 'url';
  return new Manager({
    name: program,
    client: deps.client,
    kubeconfigPath: options.kubeconfig,
    logger: deps.logger ?? createLogger({ level: options.logLevel }),
    handleSignals: deps.handleSignals,
    metrics: { port: options.metricsPort },
    healthProbes: { port: options.healthPort },
    leaderElection: options.leaderElect
      ? { namespace: options.namespace }
      : false,
    ...(options.webhookMode === 'off'
      ? {}
      : {
          webhook: {
            host: url ? options.webhookHost : undefined,
            port: options.webhookPort,
            certificates: {
              ...certificates,
              secretNamespace: options.namespace,
              hosts:
                isIP(options.webhookHost) !== 0
                  ? { ipAddresses: [options.webhookHost] }
                  : { dnsNames: [options.webhookHost] },
              // Local API servers read the new caBundle at once.
              ...(url ? { caPropagationDelayMs: 0 } : {}),
            },
          },
        }),
  });
}

/** `https://<webhook-host>:<port>`, an IPv6 host in brackets. @public */
export function webhookBaseUrl(
  options: Pick<WebhookManagerOptions, 'webhookHost' | 'webhookPort'>,
): string {
  const host =
    isIP(options.webhookHost) === 6
      ? `[${options.webhookHost}]`
      : options.webhookHost;
  return `https://${host}:${options.webhookPort}`;
}

/**
 * Starts a webhook Manager. In url mode (a local process) it first makes
 * its namespace and `register`s its webhooks at the base URL, waiting out
 * an API server that does not answer yet. Runs until stopped.
 *
 * @public
 */
export async function startWebhookManager(
  manager: Manager,
  options: WebhookManagerOptions,
  register: (baseUrl: string) => Promise<void>,
): Promise<void> {
  if (options.webhookMode === 'url') {
    // A restart during an API-server outage (e.g. after losing the lease to it) waits
    // for the server instead of exiting: exiting again and again only grows the restart back-off.
    await whileUnreachable(
      manager.logger,
      'registering the webhooks',
      async () => {
        try {
          await manager.client.create(Namespaces, {
            metadata: { name: options.namespace },
          });
        } catch (err) {
          // Forbidden: running as the ServiceAccount, whose install made the namespace (namespace.yaml).
          if (!isAlreadyExists(err) && !isForbidden(err)) throw err;
        }
        await register(webhookBaseUrl(options));
      },
    );
  }
  await manager.start();
}

/** How long a 403 counts as a just-started API server's authorizer not being ready yet. */
const FRESH_SERVER_FORBIDDEN_ATTEMPTS = 10;

/**
 * Runs `step` again every `retryMs` while the API server does not answer
 * (no connection), and for a few attempts while it refuses with 403 (a
 * server that has just started authorizes before its RBAC cache has
 * synced); any other error, or a 403 that persists, fails.
 *
 * @public
 */
export async function whileUnreachable(
  logger: Logger,
  what: string,
  step: () => Promise<void>,
  retryMs = 1000,
): Promise<void> {
  let forbidden = 0;
  for (;;) {
    try {
      await step();
      return;
    } catch (err) {
      const refused = isForbidden(err);
      if (refused) forbidden++;
      if (
        !(err instanceof KubeConnectionError) &&
        !(refused && forbidden < FRESH_SERVER_FORBIDDEN_ATTEMPTS)
      )
        throw err;
      logger.warn(
        `API server ${
          refused ? 'refused (403)' : 'unreachable'
        } while ${what}; retrying in ${retryMs / 1000} s`,
        { error: err },
      );
      await new Promise(r => setTimeout(r, retryMs));
    }
  }
}

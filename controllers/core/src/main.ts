/**
 * The core controller process: one Manager with the ModelDeployment
 * controller and the two admission webhooks.
 *
 * In a cluster (`--webhook-mode=service`) the webhook configurations come
 * from controllers/deploy/core and point at the Service; the process only
 * keeps their caBundle current. As a local process (`--webhook-mode=url`)
 * it registers them itself with `https://<webhook-host>:<port>` URLs.
 */
import {
  createLogger,
  helpRequested,
  isAlreadyExists,
  KubeApiError,
  KubeConnectionError,
  type KubeClient,
  type KubeObject,
  type Logger,
  Manager,
  mutatingWebhook,
  Namespaces,
  optionErrorsText,
  validatingWebhook,
} from '@runway-portal/controller-runtime';
import type { InferenceProviderConfig } from '@runway-portal/plugin-runway-common';
import { isIP } from 'node:net';
import {
  admitModelDeployment,
  defaultModelDeployment,
  MUTATE_PATH,
  VALIDATE_PATH,
  warmUpAdmission,
} from './admission';
import { CORE_FIELD_MANAGER } from './decide';
import {
  CORE_OPTIONS,
  CORE_PROGRAM,
  type CoreOptions,
  coreUsage,
  parseOptions,
} from './options';
import { InferenceProviderConfigs, registerCoreController } from './reconciler';

export const VALIDATING_CONFIG = 'airunway-core-validating';
export const MUTATING_CONFIG = 'airunway-core-mutating';
export const CERT_SECRET = 'airunway-core-webhook-cert';

/**
 * Calls the webhooks only for creates and spec changes: finalizer, label and
 * annotation updates never wait on the core (a finalizer must come off while
 * the core is down). Same expression as controllers/deploy/core/webhooks.yaml.
 */
export const SPEC_CHANGED_CONDITION = {
  name: 'spec-changed',
  expression:
    "request.operation != 'UPDATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec",
};

/** The two webhook configurations for url mode (service mode ships them as YAML). */
export function webhookConfigurations(baseUrl: string) {
  const common = {
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    // The core down must not block the cluster: writes are then validated at reconcile time (seed 000 §8).
    failurePolicy: 'Ignore',
    timeoutSeconds: 5,
    matchConditions: [SPEC_CHANGED_CONDITION],
    rules: [
      {
        apiGroups: ['airunway.ai'],
        apiVersions: ['v1alpha1'],
        resources: ['modeldeployments'],
        operations: ['CREATE', 'UPDATE'],
        scope: 'Namespaced',
      },
    ],
  };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: MUTATING_CONFIG },
      webhooks: [
        {
          name: 'mmodeldeployment.airunway.ai',
          clientConfig: { url: `${baseUrl}${MUTATE_PATH}` },
          reinvocationPolicy: 'Never',
          ...common,
        },
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: VALIDATING_CONFIG },
      webhooks: [
        {
          name: 'vmodeldeployment.airunway.ai',
          clientConfig: { url: `${baseUrl}${VALIDATE_PATH}` },
          ...common,
        },
      ],
    },
  ];
}

export interface CoreProcess {
  manager: Manager;
  /** Runs until SIGTERM/SIGINT or `manager.stop()`. */
  start(): Promise<void>;
}

/** Builds the manager, its controller and webhooks (nothing runs until `start`). */
export function buildCore(
  options: CoreOptions,
  deps: { client?: KubeClient; logger?: Logger; handleSignals?: boolean } = {},
): CoreProcess {
  const logger = deps.logger ?? createLogger({ level: options.logLevel });
  const webhooks = options.webhookMode !== 'off';
  const hostIsIp = isIP(options.webhookHost) !== 0;
  const manager = new Manager({
    name: CORE_PROGRAM,
    client: deps.client,
    kubeconfigPath: options.kubeconfig,
    logger,
    handleSignals: deps.handleSignals,
    metrics: { port: options.metricsPort },
    healthProbes: { port: options.healthPort },
    leaderElection: options.leaderElect
      ? { namespace: options.namespace }
      : false,
    ...(webhooks
      ? {
          webhook: {
            host:
              options.webhookMode === 'url' ? options.webhookHost : undefined,
            port: options.webhookPort,
            certificates: {
              secretName: CERT_SECRET,
              secretNamespace: options.namespace,
              hosts: hostIsIp
                ? { ipAddresses: [options.webhookHost] }
                : { dnsNames: [options.webhookHost] },
              validatingWebhookConfigurations: [VALIDATING_CONFIG],
              mutatingWebhookConfigurations: [MUTATING_CONFIG],
              // Local API servers read the new caBundle at once.
              ...(options.webhookMode === 'url'
                ? { caPropagationDelayMs: 0 }
                : {}),
            },
          },
        }
      : {}),
  });
  if (manager.webhookServer) {
    // The controller's shared cache of registrations (caches run on every replica, leader or not).
    const providers = manager.informers.informerFor<
      KubeObject & InferenceProviderConfig
    >(InferenceProviderConfigs);
    manager.webhookServer.register(
      VALIDATE_PATH,
      validatingWebhook(request =>
        admitModelDeployment(request, providers.store.list()),
      ),
    );
    manager.webhookServer.register(
      MUTATE_PATH,
      mutatingWebhook(defaultModelDeployment),
    );
    warmUpAdmission();
  }
  registerCoreController(manager, {
    maxConcurrentReconciles: options.maxConcurrentReconciles,
    checkSecrets: options.checkSecrets,
    finalizerTimeoutMs: options.finalizerTimeoutMs,
    providerHeartbeatTimeoutMs: options.providerHeartbeatTimeoutMs,
    explicitGateway:
      options.gatewayName && options.gatewayNamespace
        ? { name: options.gatewayName, namespace: options.gatewayNamespace }
        : undefined,
  });

  return {
    manager,
    async start() {
      if (options.webhookMode === 'url') {
        // A restart during an API-server outage (e.g. after losing the lease to it) waits
        // for the server instead of exiting: exiting again and again only grows the restart back-off.
        await whileUnreachable(logger, 'registering the webhooks', async () => {
          try {
            await manager.client.create(Namespaces, {
              metadata: { name: options.namespace },
            });
          } catch (err) {
            // Forbidden: running as the ServiceAccount, whose install made the namespace (namespace.yaml).
            if (
              !isAlreadyExists(err) &&
              !(err instanceof KubeApiError && err.code === 403)
            )
              throw err;
          }
          const applier = manager.applier(CORE_FIELD_MANAGER);
          const host =
            isIP(options.webhookHost) === 6
              ? `[${options.webhookHost}]`
              : options.webhookHost;
          for (const config of webhookConfigurations(
            `https://${host}:${options.webhookPort}`,
          )) {
            await applier.apply(config, { force: true });
          }
        });
      }
      await manager.start();
    },
  };
}

/** How long a 403 counts as a just-started API server's authorizer not being ready yet. */
const FRESH_SERVER_FORBIDDEN_ATTEMPTS = 10;

/**
 * Runs `step` again every second while the API server does not answer (no
 * connection), and for a few attempts while it refuses with 403 (a server
 * that has just started authorizes before its RBAC cache has synced); any
 * other error, or a 403 that persists, fails.
 */
async function whileUnreachable(
  logger: Logger,
  what: string,
  step: () => Promise<void>,
): Promise<void> {
  let forbidden = 0;
  for (;;) {
    try {
      await step();
      return;
    } catch (err) {
      const refused = err instanceof KubeApiError && err.code === 403;
      if (refused) forbidden++;
      if (
        !(err instanceof KubeConnectionError) &&
        !(refused && forbidden < FRESH_SERVER_FORBIDDEN_ATTEMPTS)
      )
        throw err;
      logger.warn(
        `API server ${
          refused ? 'refused (403)' : 'unreachable'
        } while ${what}; retrying in 1 s`,
        { error: err },
      );
      await new Promise(r => setTimeout(r, 1000));
    }
  }
}

/** The process entry: parse settings, run, exit non-zero with a clear message on failure. */
export async function main(
  argv = process.argv.slice(2),
  env = process.env,
): Promise<void> {
  if (helpRequested(argv)) {
    process.stdout.write(`${coreUsage()}\n`);
    return;
  }
  const parsed = parseOptions(argv, env);
  if (!parsed.ok) {
    process.stderr.write(
      optionErrorsText(CORE_PROGRAM, CORE_OPTIONS, parsed.errors),
    );
    process.exitCode = 2;
    return;
  }
  try {
    await buildCore(parsed.options).start();
  } catch (err) {
    process.stderr.write(
      `${CORE_PROGRAM}: ${(err as Error)?.message ?? String(err)}\n`,
    );
    process.exitCode = 1;
  }
}

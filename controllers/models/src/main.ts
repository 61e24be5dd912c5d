/**
 * The model operator process: one Manager with the Model controller and
 * the pod-injection webhook.
 *
 * In a cluster (`--webhook-mode=service`) the webhook configuration comes
 * from controllers/deploy/models and points at the Service; the process only
 * keeps its caBundle current. As a local process (`--webhook-mode=url`) it
 * registers the configuration itself with an `https://<host>:<port>` URL.
 */
import {
  createLogger,
  helpRequested,
  isAlreadyExists,
  KubeApiError,
  isNotFound,
  type KubeClient,
  type Logger,
  Manager,
  Namespaces,
  optionErrorsText,
} from '@runway-portal/controller-runtime';
import { MODEL_INJECTED_LABEL } from '@runway-portal/plugin-runway-common';
import { isIP } from 'node:net';
import { INJECT_PATH, injectionWebhook, type ModelLookup } from './inject';
import {
  MODELS_OPTIONS,
  MODELS_PROGRAM,
  type ModelsOptions,
  modelsUsage,
  parseOptions,
} from './options';
import { Models, registerModelController } from './reconciler';
import { type ModelObject, MODELS_FIELD_MANAGER } from './resources';

export const MUTATING_CONFIG = 'airunway-models-injector';
export const CERT_SECRET = 'airunway-models-webhook-cert';
export const WEBHOOK_NAME = 'model-injector.models.airunway.ai';

/** Seed 003's webhook configuration, for url mode (service mode ships it as YAML). */
export function webhookConfiguration(url: string) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: MUTATING_CONFIG },
    webhooks: [
      {
        name: WEBHOOK_NAME,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        timeoutSeconds: 10,
        // Seed 003: never block pod creation because the webhook is down.
        failurePolicy: 'Ignore',
        objectSelector: {
          matchExpressions: [
            { key: MODEL_INJECTED_LABEL, operator: 'DoesNotExist' },
          ],
        },
        rules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['pods'],
            operations: ['CREATE'],
            scope: 'Namespaced',
          },
        ],
        clientConfig: { url },
      },
    ],
  };
}

/** Fresh from the API server: a Model that just became Ready is injectable at once. */
export function apiServerModelLookup(client: KubeClient): ModelLookup {
  return async (namespace, name) => {
    try {
      return {
        model: await client.get<ModelObject>(Models, { namespace, name }),
      };
    } catch (err) {
      if (isNotFound(err))
        return { notFound: `models.models.airunway.ai "${name}" not found` };
      throw err;
    }
  };
}

export interface ModelsProcess {
  manager: Manager;
  start(): Promise<void>;
}

export function buildModels(
  options: ModelsOptions,
  deps: {
    client?: KubeClient;
    logger?: Logger;
    handleSignals?: boolean;
  } = {},
): ModelsProcess {
  const logger = deps.logger ?? createLogger({ level: options.logLevel });
  const webhooks = options.webhookMode !== 'off';
  const hostIsIp = isIP(options.webhookHost) !== 0;
  const manager = new Manager({
    name: MODELS_PROGRAM,
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
              mutatingWebhookConfigurations: [MUTATING_CONFIG],
              ...(options.webhookMode === 'url'
                ? { caPropagationDelayMs: 0 }
                : {}),
            },
          },
        }
      : {}),
  });
  manager.webhookServer?.register(
    INJECT_PATH,
    injectionWebhook(apiServerModelLookup(manager.client)),
  );
  registerModelController(manager, {
    downloaderImage: options.downloaderImage,
    maxConcurrentReconciles: options.maxConcurrentReconciles,
  });
  return {
    manager,
    async start() {
      if (options.webhookMode === 'url') {
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
        const host =
          isIP(options.webhookHost) === 6
            ? `[${options.webhookHost}]`
            : options.webhookHost;
        await manager
          .applier(MODELS_FIELD_MANAGER)
          .apply(
            webhookConfiguration(
              `https://${host}:${options.webhookPort}${INJECT_PATH}`,
            ),
            { force: true },
          );
      }
      await manager.start();
    },
  };
}

export async function main(
  argv = process.argv.slice(2),
  env = process.env,
): Promise<void> {
  if (helpRequested(argv)) {
    process.stdout.write(`${modelsUsage()}\n`);
    return;
  }
  const parsed = parseOptions(argv, env);
  if (!parsed.ok) {
    process.stderr.write(
      optionErrorsText(MODELS_PROGRAM, MODELS_OPTIONS, parsed.errors),
    );
    process.exitCode = 2;
    return;
  }
  try {
    await buildModels(parsed.options).start();
  } catch (err) {
    process.stderr.write(
      `${MODELS_PROGRAM}: ${(err as Error)?.message ?? String(err)}\n`,
    );
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main();
}

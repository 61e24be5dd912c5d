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
  controllerMain,
  isNotFound,
  type KubeClient,
  type Manager,
  type ProcessDeps,
  startWebhookManager,
  webhookManager,
} from '@runway-portal/controller-runtime';
import {
  INJECTION_REQUESTED_CONDITION,
  MODEL_INJECTED_LABEL,
} from '@runway-portal/plugin-runway-common';
import { INJECT_PATH, injectionWebhook, type ModelLookup } from './inject';
import { MODELS_PROCESS, MODELS_PROGRAM, type ModelsOptions } from './options';
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
        // Only pods that ask for a model: the rest of the cluster's pods cost no call.
        matchConditions: [INJECTION_REQUESTED_CONDITION],
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
  deps: ProcessDeps = {},
): ModelsProcess {
  const manager = webhookManager(
    MODELS_PROGRAM,
    options,
    {
      secretName: CERT_SECRET,
      mutatingWebhookConfigurations: [MUTATING_CONFIG],
    },
    deps,
  );
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
    start: () =>
      startWebhookManager(manager, options, async baseUrl => {
        await manager
          .applier(MODELS_FIELD_MANAGER)
          .apply(webhookConfiguration(`${baseUrl}${INJECT_PATH}`), {
            force: true,
          });
      }),
  };
}

/** The process entry: parse settings, run, exit non-zero with a clear message on failure. */
export const main = controllerMain({
  ...MODELS_PROCESS,
  run: options => buildModels(options).start(),
});

if (require.main === module) {
  main();
}

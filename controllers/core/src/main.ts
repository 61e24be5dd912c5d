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
  controllerMain,
  type KubeObject,
  type Manager,
  mutatingWebhook,
  type ProcessDeps,
  SPEC_CHANGED_CONDITION,
  startWebhookManager,
  validatingWebhook,
  webhookManager,
} from '@runway-portal/controller-runtime';
import {
  DEFAULTS_NEEDED_CONDITION,
  type InferenceProviderConfig,
} from '@runway-portal/plugin-runway-common';
import {
  admitModelDeployment,
  defaultModelDeployment,
  MUTATE_PATH,
  VALIDATE_PATH,
  warmUpAdmission,
} from './admission';
import { CORE_FIELD_MANAGER } from './decide';
import { CORE_PROCESS, CORE_PROGRAM, type CoreOptions } from './options';
import { InferenceProviderConfigs, registerCoreController } from './reconciler';

export const VALIDATING_CONFIG = 'airunway-core-validating';
export const MUTATING_CONFIG = 'airunway-core-mutating';
export const CERT_SECRET = 'airunway-core-webhook-cert';

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
          // Only when defaulting can change something: a complete spec costs no webhook call.
          matchConditions: [SPEC_CHANGED_CONDITION, DEFAULTS_NEEDED_CONDITION],
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
  deps: ProcessDeps = {},
): CoreProcess {
  const manager = webhookManager(
    CORE_PROGRAM,
    options,
    {
      secretName: CERT_SECRET,
      validatingWebhookConfigurations: [VALIDATING_CONFIG],
      mutatingWebhookConfigurations: [MUTATING_CONFIG],
    },
    deps,
  );
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
    start: () =>
      startWebhookManager(manager, options, async baseUrl => {
        const applier = manager.applier(CORE_FIELD_MANAGER);
        for (const config of webhookConfigurations(baseUrl)) {
          await applier.apply(config, { force: true });
        }
      }),
  };
}

/** The process entry: parse settings, run, exit non-zero with a clear message on failure. */
export const main = controllerMain({
  ...CORE_PROCESS,
  run: options => buildCore(options).start(),
});

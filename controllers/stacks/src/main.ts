/**
 * The stack operator process: one Manager with the LlamaStackDistribution
 * controller, the conversion webhook and the validating webhook.
 *
 * In a cluster (`--webhook-mode=service`) the ValidatingWebhookConfiguration
 * comes from controllers/deploy/stacks and the CRD's conversion stanza points
 * at the Service deployed there; the process keeps their caBundle current.
 * As a local process (`--webhook-mode=url`) it points both at
 * `https://<webhook-host>:<port>` itself.
 */
import {
  controllerMain,
  conversionWebhook,
  CustomResourceDefinitions,
  type Manager,
  type ProcessDeps,
  SPEC_CHANGED_CONDITION,
  startWebhookManager,
  validatingWebhook,
  webhookManager,
} from '@runway-portal/controller-runtime';
import {
  embeddedDistributions,
  type DistributionRegistry,
} from './config/distributions';
import { STACKS_FIELD_MANAGER } from './decide';
import { clusterLookup, configMapAccess } from './lookups';
import { STACKS_PROCESS, STACKS_PROGRAM, type StacksOptions } from './options';
import { registerStackController } from './reconciler';
import { imageConfigsOptions } from './registryOptions';
import {
  admitStack,
  CONVERT_PATH,
  convertStackObject,
  VALIDATE_PATH,
} from './webhooks';

/** @public */
export const VALIDATING_CONFIG = 'airunway-stacks-validating';
/** @public */
export const CERT_SECRET = 'airunway-stacks-webhook-cert';
/** @public */
export const STACK_CRD = 'llamastackdistributions.llamastack.io';

/** Calls the webhook only for creates and spec changes (the core's condition, same text as webhooks.yaml). */
export { SPEC_CHANGED_CONDITION };

/** The validating webhook configuration (url mode; service mode ships it as YAML with the same rules). @public */
export function validatingConfiguration(clientConfig: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: VALIDATING_CONFIG },
    webhooks: [
      {
        name: 'vllamastackdistribution.llamastack.io',
        clientConfig,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        // Existence checks need the API server; an operator that is down must not block every stack edit.
        failurePolicy: 'Ignore',
        timeoutSeconds: 10,
        rules: [
          {
            apiGroups: ['llamastack.io'],
            apiVersions: ['v1alpha1', 'v1alpha2'],
            resources: ['llamastackdistributions'],
            operations: ['CREATE', 'UPDATE'],
            scope: 'Namespaced',
          },
        ],
        // Only creates and spec changes: metadata-only updates have nothing to check (webhooks.yaml does the same).
        matchConditions: [SPEC_CHANGED_CONDITION],
      },
    ],
  };
}

/** @public */
export interface StacksProcess {
  manager: Manager;
  start(): Promise<void>;
}

/** @public */
export function buildStacks(
  options: StacksOptions,
  deps: ProcessDeps & { registry?: DistributionRegistry } = {},
): StacksProcess {
  const registry = deps.registry ?? embeddedDistributions();
  const manager = webhookManager(
    STACKS_PROGRAM,
    options,
    {
      secretName: CERT_SECRET,
      validatingWebhookConfigurations: [VALIDATING_CONFIG],
      conversionCrds: [STACK_CRD],
    },
    deps,
  );
  if (manager.webhookServer) {
    const lookup = clusterLookup(manager.client);
    manager.webhookServer.register(
      CONVERT_PATH,
      conversionWebhook(convertStackObject),
    );
    manager.webhookServer.register(
      VALIDATE_PATH,
      validatingWebhook(request =>
        admitStack(request, registry, lookup, configMapAccess(manager.client)),
      ),
    );
  }
  registerStackController(manager, {
    registry,
    imageOverrides: options.imageOverrides,
    objectOptions: {
      ingressDomain: options.ingressDomain,
      ingressClassName: options.ingressClass,
      operatorNamespace: options.namespace,
    },
    recheckIntervalMs: options.recheckInterval,
    maxConcurrentReconciles: options.maxConcurrentReconciles,
    imageConfigs: imageConfigsOptions(options),
  });

  return {
    manager,
    start: () =>
      startWebhookManager(manager, options, async baseUrl => {
        await manager
          .applier(STACKS_FIELD_MANAGER)
          .apply(
            validatingConfiguration({ url: `${baseUrl}${VALIDATE_PATH}` }),
            { force: true },
          );
        // The CRD ships pointing at the in-cluster Service; a local process points it at itself.
        await manager.client.patch(
          CustomResourceDefinitions,
          { name: STACK_CRD },
          {
            spec: {
              conversion: {
                strategy: 'Webhook',
                webhook: {
                  conversionReviewVersions: ['v1'],
                  clientConfig: {
                    service: null,
                    url: `${baseUrl}${CONVERT_PATH}`,
                  },
                },
              },
            },
          },
          'merge',
        );
      }),
  };
}

/** The process entry: parse settings, run, exit non-zero with a clear message on failure. @public */
export const main = controllerMain({
  ...STACKS_PROCESS,
  run: options => buildStacks(options).start(),
});

if (require.main === module) void main();

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
import { isIP } from 'node:net';
import {
  conversionWebhook,
  createLogger,
  CustomResourceDefinitions,
  helpRequested,
  isAlreadyExists,
  KubeApiError,
  type KubeClient,
  type Logger,
  Manager,
  Namespaces,
  optionErrorsText,
  validatingWebhook,
} from '@runway-portal/controller-runtime';
import {
  embeddedDistributions,
  type DistributionRegistry,
} from './config/distributions';
import { STACKS_FIELD_MANAGER } from './decide';
import { clusterLookup, configMapAccess } from './lookups';
import {
  parseOptions,
  STACKS_OPTIONS,
  STACKS_PROGRAM,
  stacksUsage,
  type StacksOptions,
} from './options';
import { registerStackController } from './reconciler';
import { imageConfigsOptions } from './registryOptions';
import {
  admitStack,
  CONVERT_PATH,
  convertStackObject,
  VALIDATE_PATH,
} from './webhooks';

export const VALIDATING_CONFIG = 'airunway-stacks-validating';
export const CERT_SECRET = 'airunway-stacks-webhook-cert';
export const STACK_CRD = 'llamastackdistributions.llamastack.io';

/** Calls the webhook only for creates and spec changes (the core's condition, same text as webhooks.yaml). */
export const SPEC_CHANGED_CONDITION = {
  name: 'spec-changed',
  expression:
    "request.operation != 'UPDATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec",
};

/** The validating webhook configuration (url mode; service mode ships it as YAML with the same rules). */
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

export interface StacksProcess {
  manager: Manager;
  start(): Promise<void>;
}

export function buildStacks(
  options: StacksOptions,
  deps: {
    client?: KubeClient;
    logger?: Logger;
    handleSignals?: boolean;
    registry?: DistributionRegistry;
  } = {},
): StacksProcess {
  const logger = deps.logger ?? createLogger({ level: options.logLevel });
  const registry = deps.registry ?? embeddedDistributions();
  const webhooks = options.webhookMode !== 'off';
  const hostIsIp = isIP(options.webhookHost) !== 0;
  const manager = new Manager({
    name: STACKS_PROGRAM,
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
              conversionCrds: [STACK_CRD],
              ...(options.webhookMode === 'url'
                ? { caPropagationDelayMs: 0 }
                : {}),
            },
          },
        }
      : {}),
  });
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
        const base = `https://${host}:${options.webhookPort}`;
        await manager
          .applier(STACKS_FIELD_MANAGER)
          .apply(validatingConfiguration({ url: `${base}${VALIDATE_PATH}` }), {
            force: true,
          });
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
                    url: `${base}${CONVERT_PATH}`,
                  },
                },
              },
            },
          },
          'merge',
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
    process.stdout.write(`${stacksUsage()}\n`);
    return;
  }
  const parsed = parseOptions(argv, env);
  if (!parsed.ok) {
    process.stderr.write(
      optionErrorsText(STACKS_PROGRAM, STACKS_OPTIONS, parsed.errors),
    );
    process.exitCode = 2;
    return;
  }
  try {
    await buildStacks(parsed.options).start();
  } catch (err) {
    process.stderr.write(
      `${STACKS_PROGRAM}: ${(err as Error)?.message ?? String(err)}\n`,
    );
    process.exitCode = 1;
  }
}

if (require.main === module) void main();

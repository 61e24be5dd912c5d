import type { Operation } from 'fast-json-patch';
import type { KubeObject } from '../kube/types';

interface WebhookConfiguration extends KubeObject {
  webhooks?: Array<{
    name: string;
    clientConfig?: { caBundle?: string; url?: string; service?: unknown };
  }>;
}

interface CustomResourceDefinition extends KubeObject {
  spec?: {
    conversion?: {
      strategy?: string;
      webhook?: {
        clientConfig?: { caBundle?: string; url?: string; service?: unknown };
      };
    };
  };
}

/**
 * JSON patch setting `caBundle` (base64 PEM) on every webhook of a
 * validating or mutating webhook configuration. Each change is guarded by
 * a `test` of the webhook's name, so a concurrent edit that reorders the
 * list makes the patch fail instead of writing the wrong entry.
 *
 * @public
 */
export function webhookConfigurationCaPatch(
  config: WebhookConfiguration,
  caBundle: string,
): Operation[] {
  const ops: Operation[] = [];
  (config.webhooks ?? []).forEach((webhook, i) => {
    if (webhook.clientConfig?.caBundle === caBundle) return;
    ops.push({ op: 'test', path: `/webhooks/${i}/name`, value: webhook.name });
    ops.push({
      op: 'add',
      path: `/webhooks/${i}/clientConfig/caBundle`,
      value: caBundle,
    });
  });
  return ops;
}

/**
 * JSON patch setting the conversion webhook's `caBundle` of a CRD. A CRD
 * without webhook conversion configured gets no patch (and `reason` says why).
 *
 * @public
 */
export function crdConversionCaPatch(
  crd: CustomResourceDefinition,
  caBundle: string,
): { ops: Operation[]; reason?: string } {
  const conversion = crd.spec?.conversion;
  if (conversion?.strategy !== 'Webhook' || !conversion.webhook?.clientConfig) {
    return {
      ops: [],
      reason: `CRD ${crd.metadata?.name} does not use webhook conversion: set spec.conversion.strategy to Webhook with a webhook.clientConfig`,
    };
  }
  if (conversion.webhook.clientConfig.caBundle === caBundle) return { ops: [] };
  return {
    ops: [
      { op: 'test', path: '/spec/conversion/strategy', value: 'Webhook' },
      {
        op: 'add',
        path: '/spec/conversion/webhook/clientConfig/caBundle',
        value: caBundle,
      },
    ],
  };
}

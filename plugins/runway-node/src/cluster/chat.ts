/**
 * "Try it": where a deployment's chat request goes and what is sent. Pure.
 *
 * The request goes to the deployment's own Service (`status.endpoint`)
 * through the API server's service proxy, so the portal needs no network
 * path to the pods, only `services/proxy` in the cluster; the model name is
 * the one the deployment serves (`status.gateway.modelName`, else the name
 * resolved from the spec, as the gateway's route does).
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  type ChatRequest,
  isRecord,
  type ModelDeploymentSpec,
  resolveServedName,
} from '@runway-portal/plugin-runway-common';

export interface ChatTarget {
  service: string;
  port: number;
  model: string;
}

/** Where to send, or why the deployment cannot answer yet (a sentence naming the phase). */
export function chatTarget(
  object: KubeObject,
): { target: ChatTarget } | { refused: string } {
  const status = isRecord(object.status) ? object.status : {};
  const phase = typeof status.phase === 'string' ? status.phase : 'unknown';
  if (phase !== 'Running') {
    return {
      refused: `the deployment is ${phase}, not Running: it can answer once its phase is Running`,
    };
  }
  const endpoint = isRecord(status.endpoint) ? status.endpoint : {};
  const service =
    typeof endpoint.service === 'string' ? endpoint.service : undefined;
  if (!service) {
    return {
      refused:
        'the deployment is Running but its provider reported no status.endpoint.service yet: try again when the endpoint is shown',
    };
  }
  const gateway = isRecord(status.gateway) ? status.gateway : {};
  const spec = isRecord(object.spec)
    ? (object.spec as unknown as ModelDeploymentSpec)
    : undefined;
  const model =
    (typeof gateway.modelName === 'string' && gateway.modelName) ||
    (spec && resolveServedName(spec)) ||
    object.metadata?.name ||
    '';
  const port =
    typeof endpoint.port === 'number' && endpoint.port > 0 ? endpoint.port : 80;
  return { target: { service, port, model } };
}

/** The API server path of the Service's OpenAI chat completions, through the service proxy. */
export function chatProxyPath(namespace: string, target: ChatTarget): string {
  return `/api/v1/namespaces/${encodeURIComponent(
    namespace,
  )}/services/${encodeURIComponent(
    `${target.service}:${target.port}`,
  )}/proxy/v1/chat/completions`;
}

/** What the model server receives: the user's request, the served model, streamed. */
export function upstreamChatBody(
  request: ChatRequest,
  target: ChatTarget,
): Record<string, unknown> {
  return { ...request, model: target.model, stream: true };
}

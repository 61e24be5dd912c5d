/**
 * How to call a deployment: through the Gateway when the core controller
 * routes it there (`status.gateway`), else (and always from inside the
 * cluster) through the provider's Service; each with a copyable example
 * request. And what `GatewayReady` says when the gateway is not (yet) the
 * way in. Pure.
 */
import {
  type ApiFormat,
  CONDITION_TYPES,
  type GatewayReadyReason,
  type ModelDeployment,
  resolveServedName,
} from '@runway-portal/plugin-runway-common';
import type { KubeCondition } from '../api/types';
import { serviceEndpoint } from './rows';

/** How each API format the gateway reports is called (paths under /v1). */
const API_FORMAT_EXAMPLES: Record<
  ApiFormat,
  {
    label: string;
    path: string;
    headers: string[];
    body: (model: string) => object;
  }
> = {
  'openai-chat': {
    label: 'OpenAI chat completions',
    path: '/chat/completions',
    headers: [],
    body: model => ({ model, messages: [{ role: 'user', content: 'Hello!' }] }),
  },
  'openai-responses': {
    label: 'OpenAI responses',
    path: '/responses',
    headers: [],
    body: model => ({ model, input: 'Hello!' }),
  },
  'anthropic-messages': {
    label: 'Anthropic messages',
    path: '/messages',
    headers: ['anthropic-version: 2023-06-01'],
    body: model => ({
      model,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello!' }],
    }),
  },
};

/** Single-quoted for a POSIX shell (a quote in a model name must not end the argument). */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command calling `format` at `url` with `model`; OpenAI chat completions by default. */
export function exampleRequest(
  url: string,
  model: string,
  format: ApiFormat = 'openai-chat',
): string {
  const example = API_FORMAT_EXAMPLES[format];
  const base = url.replace(/\/$/, '');
  const path = /\/v1$/.test(base) ? example.path : `/v1${example.path}`;
  const headers = ['Content-Type: application/json', ...example.headers]
    .map(h => `  -H ${shellQuote(h)} \\\n`)
    .join('');
  return `curl ${base}${path} \\\n${headers}  -d ${shellQuote(
    JSON.stringify(example.body(model)),
  )}`;
}

export interface GatewayAccess {
  url: string;
  /** The name requests carry in `model` (the HTTPRoute matches on it). */
  modelName: string;
  gatewayNamespace?: string;
  /** The formats the engine serves, as labels. */
  apiFormats: string[];
  curl: string;
}

export interface ServiceAccess {
  /** In-cluster URL of the provider's Service. */
  url: string;
  /** The name the engine serves. */
  model: string;
  curl: string;
  /** How to reach the Service from a workstation. */
  portForward: string;
  localUrl: string;
}

export interface EndpointInfo {
  /** Through the Gateway: set once the core controller reported the Gateway's URL. */
  gateway?: GatewayAccess;
  /** The provider's Service: the only way in without a gateway, the in-cluster alternative with one. */
  service?: ServiceAccess;
}

export function endpointInfo(md: ModelDeployment): EndpointInfo {
  const info: EndpointInfo = {};
  const spec = md.spec ?? ({} as ModelDeployment['spec']);
  const servedName = resolveServedName(spec) ?? spec.model?.id ?? '';
  const gateway = md.status?.gateway;
  if (gateway?.endpoint) {
    const modelName = gateway.modelName || servedName;
    const formats = gateway.apiFormats?.length
      ? gateway.apiFormats
      : (['openai-chat'] as ApiFormat[]);
    // Chat completions is what every engine serves; another format only when the engine lacks it.
    const format = formats.includes('openai-chat') ? 'openai-chat' : formats[0];
    info.gateway = {
      url: gateway.endpoint,
      modelName,
      gatewayNamespace: gateway.gatewayNamespace,
      apiFormats: formats.map(f => API_FORMAT_EXAMPLES[f]?.label ?? f),
      curl: exampleRequest(gateway.endpoint, modelName, format),
    };
  }
  const url = serviceEndpoint(md as any);
  const service = md.status?.endpoint?.service;
  if (url && service) {
    const port = md.status?.endpoint?.port ?? 8000;
    info.service = {
      url,
      model: servedName,
      curl: exampleRequest(url, servedName),
      portForward: `kubectl -n ${
        md.metadata?.namespace ?? 'default'
      } port-forward svc/${service} ${port}:${port}`,
      localUrl: `http://localhost:${port}`,
    };
  }
  return info;
}

export type NoticeSeverity = 'success' | 'info' | 'warning' | 'error';

/** GatewayReady as the detail view shows it: the controller's reason and message, with a readable title. */
export interface GatewayNotice {
  status: string;
  reason: string;
  title: string;
  message: string;
  severity: NoticeSeverity;
}

/** Titles and weights of the core's GatewayReady reasons (the message, the controller's, says what to do). */
const GATEWAY_REASON_VIEW: Record<
  GatewayReadyReason,
  { title: string; severity: NoticeSeverity }
> = {
  GatewayConfigured: {
    title: 'Routed through the Gateway',
    severity: 'success',
  },
  GatewayDisabled: { title: 'Gateway disabled', severity: 'info' },
  CRDsNotAvailable: { title: 'Gateway API not installed', severity: 'info' },
  WaitingForProvider: { title: 'Waiting for the provider', severity: 'info' },
  NoGateway: { title: 'No Gateway', severity: 'warning' },
  InferencePoolFailed: { title: 'InferencePool failed', severity: 'error' },
  EPPFailed: { title: 'Endpoint picker failed', severity: 'error' },
  HTTPRouteFailed: { title: 'HTTPRoute failed', severity: 'error' },
};

/** "SomeNewReason" → "Some new reason", for reasons this view does not know. */
function readable(reason: string): string {
  const words = reason.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The deployment's GatewayReady condition as a notice; undefined when the core has not written one. */
export function gatewayNotice(
  conditions: KubeCondition[],
): GatewayNotice | undefined {
  const condition = conditions.find(
    c => c.type === CONDITION_TYPES.GatewayReady,
  );
  if (!condition) return undefined;
  const reason = condition.reason ?? '';
  const known = GATEWAY_REASON_VIEW[reason as GatewayReadyReason] as
    | (typeof GATEWAY_REASON_VIEW)[GatewayReadyReason]
    | undefined;
  // A True condition is never shown as a problem, nor a False one as a success, whatever its reason.
  let severity: NoticeSeverity =
    known && known.severity !== 'success' ? known.severity : 'warning';
  if (condition.status === 'True') severity = 'success';
  return {
    status: condition.status,
    reason,
    title:
      known?.title ??
      (reason ? readable(reason) : `GatewayReady ${condition.status}`),
    message: condition.message ?? '',
    severity,
  };
}

/** Conditions newest first (the timeline reads from what happened last). */
export function conditionTimeline(
  conditions: KubeCondition[],
): KubeCondition[] {
  return [...conditions].sort((a, b) => {
    const x = Date.parse(a.lastTransitionTime ?? '') || 0;
    const y = Date.parse(b.lastTransitionTime ?? '') || 0;
    return y - x || a.type.localeCompare(b.type);
  });
}

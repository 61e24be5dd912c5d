/**
 * How to call a deployment: its endpoint and a copyable example request
 * (OpenAI chat completions, which every engine serves). Pure.
 */
import { type ModelDeployment, resolveServedName } from '@runway-portal/plugin-runway-common';
import type { KubeCondition } from '../api/types';
import { deploymentEndpoint } from './rows';

export interface EndpointInfo {
  /** Base URL; '' until the provider reported a Service or the gateway a URL. */
  url: string;
  /** True when the URL only resolves inside the cluster. */
  inCluster: boolean;
  model: string;
  /** A curl command, or '' when there is no endpoint yet. */
  curl: string;
  /** How to reach an in-cluster Service from a workstation. */
  portForward?: string;
}

export function endpointInfo(md: ModelDeployment): EndpointInfo {
  const url = deploymentEndpoint(md as any);
  const model = md.status?.gateway?.modelName ?? resolveServedName(md.spec ?? ({} as any)) ?? md.spec?.model?.id ?? '';
  const inCluster = !md.status?.gateway?.endpoint && url !== '';
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] });
  const base = url.replace(/\/$/, '');
  const path = /\/v1$/.test(base) ? '/chat/completions' : '/v1/chat/completions';
  const curl = url ? `curl ${base}${path} \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'` : '';
  const service = md.status?.endpoint?.service;
  const port = md.status?.endpoint?.port;
  return {
    url,
    inCluster,
    model,
    curl,
    portForward: inCluster && service ? `kubectl -n ${md.metadata?.namespace} port-forward svc/${service} ${port ?? 8000}:${port ?? 8000}` : undefined,
  };
}

/** Conditions newest first (the timeline reads from what happened last). */
export function conditionTimeline(conditions: KubeCondition[]): KubeCondition[] {
  return [...conditions].sort((a, b) => {
    const x = Date.parse(a.lastTransitionTime ?? '') || 0;
    const y = Date.parse(b.lastTransitionTime ?? '') || 0;
    return y - x || a.type.localeCompare(b.type);
  });
}

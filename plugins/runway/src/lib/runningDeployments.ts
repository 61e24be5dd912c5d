/**
 * "Use a running deployment": the ModelDeployments a stack's inference
 * provider can point at (Ready ones, in the stack's cluster), with the URL
 * and model name a client uses — the same `endpointInfo` the detail view
 * shows (the Gateway's URL and model name when the core routes the model
 * there, else the provider's Service and runway-common's served name). Pure.
 */
import {
  CONDITION_TYPES,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { ListedObject } from '../api/types';
import { endpointInfo } from './endpoint';
import type { StackFormValues, StackProviderRow } from './stackForm';

export interface RunningDeployment {
  cluster: string;
  namespace: string;
  name: string;
  /** `namespace/name`. */
  ref: string;
  /** The OpenAI-compatible base URL (`…/v1`) llama-stack's provider calls. */
  endpoint: string;
  /** The model name requests carry. */
  model: string;
  via: 'gateway' | 'service';
  engine?: string;
}

/** Ready: the provider reports the model served (phase Running, and `Ready` not False). */
export function isReadyDeployment(md: ModelDeployment): boolean {
  if (md.status?.phase !== 'Running') return false;
  const ready = md.status.conditions?.find(
    c => c.type === CONDITION_TYPES.Ready,
  );
  return !ready || ready.status === 'True';
}

const withV1 = (url: string) => {
  const base = url.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? base : `${base}/v1`;
};

/** How a stack reaches `md`, or undefined while it has no endpoint. */
export function runningDeployment(
  cluster: string,
  md: ModelDeployment,
): RunningDeployment | undefined {
  const info = endpointInfo(md);
  const access = info.gateway
    ? { url: info.gateway.url, model: info.gateway.modelName, via: 'gateway' }
    : info.service && {
        url: info.service.url,
        model: info.service.model,
        via: 'service',
      };
  if (!access || !access.model) return undefined;
  const namespace = md.metadata?.namespace ?? '';
  const name = md.metadata?.name ?? '';
  return {
    cluster,
    namespace,
    name,
    ref: `${namespace}/${name}`,
    endpoint: withV1(access.url),
    model: access.model,
    via: access.via as RunningDeployment['via'],
    engine: md.status?.engine?.type ?? md.spec?.engine?.type,
  };
}

/** The Ready deployments of `cluster` with an endpoint, by namespace then name. */
export function runningDeployments(
  items: ListedObject[],
  cluster: string,
): RunningDeployment[] {
  return items
    .filter(i => i.cluster === cluster)
    .map(i => i.object as unknown as ModelDeployment)
    .filter(isReadyDeployment)
    .map(md => runningDeployment(cluster, md))
    .filter((d): d is RunningDeployment => d !== undefined)
    .sort((a, b) => a.ref.localeCompare(b.ref));
}

/**
 * The inference provider row for `d`: llama-stack's `vllm` provider (it
 * speaks the OpenAI-compatible API every engine here serves), id = the
 * deployment's name (a DNS label, so a valid provider id), endpoint = its URL.
 * `current` keeps what the user set that the deployment does not decide.
 */
export function providerFromDeployment(
  d: RunningDeployment,
  current?: StackProviderRow,
): StackProviderRow {
  return {
    ...current,
    id: d.name,
    provider: current?.provider || 'vllm',
    endpoint: d.endpoint,
    fromDeployment: d.ref,
  };
}

/**
 * The spec's models with the deployment's served model registered on the
 * provider `providerId` (kept when a model of that name is already there).
 */
export function modelsWithDeployment(
  models: StackFormValues['spec']['resources']['models'],
  d: RunningDeployment,
  providerId: string,
): StackFormValues['spec']['resources']['models'] {
  if (models.some(m => m.name === d.model)) return models;
  // A blank row the user never filled is replaced rather than left behind.
  const kept = models.filter(m => m.name || m.provider);
  return [...kept, { name: d.model, provider: providerId }];
}

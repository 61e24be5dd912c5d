/**
 * What a stack's detail view shows beyond its status: the config.yaml the
 * server runs (the operator's generated ConfigMap), how to call the server,
 * and the deployments its providers use. Pure.
 */
import {
  DEFAULT_SERVER_PORT,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { KubeObject, ListedObject } from '../api/types';
import { exampleRequest } from './endpoint';
import { runningDeployment } from './runningDeployments';

/** The stack operator's label on its generated config ConfigMaps (controller-stacks' CONFIG_MAP_LABEL). */
const GENERATED_CONFIG_LABEL = 'llamastack.io/generated-config';

export interface StackConfig {
  configMapName: string;
  configYaml: string;
  /** False when the ConfigMap shown is not the one status names (a rollout in progress, or status not written yet). */
  current: boolean;
}

/**
 * The config.yaml the server runs: the ConfigMap `status.configGeneration`
 * names, else the newest generated one the stack owns. Secrets are in it
 * only as `${env.…}` references (the operator never writes a value).
 */
export function stackConfig(
  stack: KubeObject,
  owned: KubeObject[],
): StackConfig | undefined {
  const configMaps = owned.filter(
    o =>
      o.kind === 'ConfigMap' &&
      o.metadata?.labels?.[GENERATED_CONFIG_LABEL] === 'true',
  );
  const named = stack.status?.configGeneration?.configMapName;
  const current = configMaps.find(c => c.metadata?.name === named);
  const shown =
    current ??
    [...configMaps].sort((a, b) =>
      (b.metadata?.creationTimestamp ?? '').localeCompare(
        a.metadata?.creationTimestamp ?? '',
      ),
    )[0];
  const configYaml = (shown as { data?: Record<string, string> } | undefined)
    ?.data?.['config.yaml'];
  if (!shown || configYaml === undefined) return undefined;
  return {
    configMapName: shown.metadata?.name ?? '',
    configYaml,
    current: Boolean(current),
  };
}

export interface StackAccess {
  /** In-cluster URL of the server's Service (`status.serviceURL`). */
  serviceUrl?: string;
  /** The Ingress URL when exposed (`status.routeURL`). */
  routeUrl?: string;
  /** A model the stack registers, for the example. */
  model?: string;
  curl?: string;
  health?: string;
  portForward: string;
  localUrl: string;
}

/** How to call the stack: its URLs, an OpenAI-compatible chat request and a port-forward hint. */
export function stackAccess(stack: KubeObject): StackAccess {
  const namespace = stack.metadata?.namespace ?? 'default';
  const name = stack.metadata?.name ?? '';
  const port = stack.spec?.networking?.port ?? DEFAULT_SERVER_PORT;
  const serviceUrl: string | undefined = stack.status?.serviceURL;
  const routeUrl: string | undefined = stack.status?.routeURL;
  const model: string | undefined = stack.spec?.resources?.models?.[0]?.name;
  const url = routeUrl || serviceUrl;
  return {
    serviceUrl,
    routeUrl,
    model,
    curl: url && model ? exampleRequest(url, model) : undefined,
    health: url ? `curl ${url.replace(/\/+$/, '')}/v1/health` : undefined,
    portForward: `kubectl -n ${namespace} port-forward svc/${name}-service ${port}:${port}`,
    localUrl: `http://localhost:${port}`,
  };
}

export interface LinkedDeployment {
  cluster: string;
  namespace: string;
  name: string;
  phase: string;
  /** The stack's provider (`spec.providers.<api>[i]`) that calls it. */
  providerPath: string;
  providerId: string;
  via: 'gateway' | 'service';
}

const base = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');

/**
 * The ModelDeployments of the stack's cluster whose endpoints its inference
 * providers call: the provider's endpoint is the deployment's Service URL,
 * or the Gateway's URL with one of the stack's models on that provider named
 * as the Gateway routes the deployment (every routed deployment shares the
 * Gateway's URL).
 */
export function linkedDeployments(
  cluster: string,
  stack: KubeObject,
  deployments: ListedObject[],
): LinkedDeployment[] {
  const providers: Array<{
    id?: string;
    provider?: string;
    endpoint?: string;
  }> = stack.spec?.providers?.inference ?? [];
  const models: Array<{ name?: string; provider?: string }> =
    stack.spec?.resources?.models ?? [];
  const linked: LinkedDeployment[] = [];
  providers.forEach((p, index) => {
    if (!p.endpoint) return;
    const id = p.id ?? p.provider ?? '';
    // A model without provider goes to the first inference provider (the operator's rule).
    const modelsHere = models
      .filter(m => (m.provider ? m.provider === id : index === 0))
      .map(m => m.name);
    for (const item of deployments) {
      if (item.cluster !== cluster) continue;
      const md = item.object as unknown as ModelDeployment;
      // Any phase: a linked deployment that stopped serving is what the page must show.
      const access = runningDeployment(cluster, md);
      if (!access) continue;
      const sameUrl = base(access.endpoint) === base(p.endpoint);
      const matches =
        sameUrl &&
        (access.via === 'service' || modelsHere.includes(access.model));
      if (matches)
        linked.push({
          cluster,
          namespace: access.namespace,
          name: access.name,
          phase: md.status?.phase ?? 'Unknown',
          providerPath: `spec.providers.inference[${index}]`,
          providerId: id,
          via: access.via,
        });
    }
  });
  return linked;
}

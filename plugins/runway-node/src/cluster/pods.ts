/**
 * Which pods belong to a resource, and what the portal shows of them. Pure.
 *
 * A resource's pods are found by label, never by name: the selector of the
 * Service its provider reports (`status.endpoint.service`: the operator's own
 * pod labels, e.g. KAITO `kaito.sh/workspace=<name>`, Dynamo
 * `nvidia.com/dynamo-graph-deployment-name=<name>`), and the pod selector of
 * every workload (Deployment, StatefulSet, Job) the resource owns (llm-d's
 * model servers, the endpoint picker, a stack's server, a model's download).
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { PodSummary } from '@runway-portal/plugin-runway-common';
import { matchesLabels, parseLabelSelector } from './labelSelector';
import {
  isRecord,
  MODEL_ANNOTATIONS,
  MODEL_INJECTED_LABEL,
} from '@runway-portal/plugin-runway-common';

interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{
    key: string;
    operator: string;
    values?: string[];
  }>;
}

/** A metav1.LabelSelector as the query string the API server takes; undefined when it selects nothing or everything. */
export function selectorString(
  selector: LabelSelectorLike | undefined,
): string | undefined {
  if (!selector) return undefined;
  const terms = Object.entries(selector.matchLabels ?? {}).map(
    ([k, v]) => `${k}=${v}`,
  );
  for (const e of selector.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    switch (e.operator) {
      case 'In':
        terms.push(`${e.key} in (${values})`);
        break;
      case 'NotIn':
        terms.push(`${e.key} notin (${values})`);
        break;
      case 'Exists':
        terms.push(e.key);
        break;
      case 'DoesNotExist':
        terms.push(`!${e.key}`);
        break;
      default:
        // An operator we do not know would widen the selection: select nothing instead.
        return undefined;
    }
  }
  // An empty selector selects every pod of the namespace: never that.
  return terms.length > 0 ? terms.join(',') : undefined;
}

const WORKLOAD_KINDS = new Set([
  'Deployment',
  'StatefulSet',
  'ReplicaSet',
  'Job',
  'DaemonSet',
]);

/**
 * The label selectors of a resource's pods: the endpoint Service's selector
 * first (the model servers: the pods an operator wants first), then each
 * owned workload's pod selector, sorted. Without duplicates.
 */
export function podSelectors(
  owned: readonly KubeObject[],
  endpointService?: KubeObject,
): string[] {
  const spec = (o: KubeObject | undefined) =>
    isRecord(o?.spec) ? (o!.spec as Record<string, unknown>) : undefined;
  const serviceSelector = spec(endpointService)?.selector;
  const first = isRecord(serviceSelector)
    ? selectorString({ matchLabels: serviceSelector as Record<string, string> })
    : undefined;
  const workloads = new Set<string>();
  for (const o of owned) {
    if (!WORKLOAD_KINDS.has(o.kind ?? '')) continue;
    const s = selectorString(spec(o)?.selector as LabelSelectorLike);
    if (s && s !== first) workloads.add(s);
  }
  return [...(first ? [first] : []), ...[...workloads].sort()];
}

/** The name of the Service a resource reports as its endpoint, if any. */
export function endpointServiceName(object: KubeObject): string | undefined {
  const status = isRecord(object.status) ? object.status : {};
  const endpoint = isRecord(status.endpoint) ? status.endpoint : {};
  return typeof endpoint.service === 'string' && endpoint.service
    ? endpoint.service
    : undefined;
}

interface ContainerStatusLike {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: Record<string, { reason?: string } | undefined>;
  lastState?: Record<string, unknown | undefined>;
}

function stateOf(status: ContainerStatusLike | undefined): string {
  const [name, detail] =
    Object.entries(status?.state ?? {}).find(([, v]) => v) ?? [];
  if (!name) return 'waiting';
  return detail?.reason ? `${name}: ${detail.reason}` : name;
}

/** What the logs view shows of a pod: phase, node and each container with its state and restarts. */
export function podSummary(pod: KubeObject): PodSummary {
  const spec = (isRecord(pod.spec) ? pod.spec : {}) as {
    nodeName?: string;
    containers?: Array<{ name: string }>;
  };
  const status = (isRecord(pod.status) ? pod.status : {}) as {
    phase?: string;
    containerStatuses?: ContainerStatusLike[];
  };
  const statuses = new Map(
    (status.containerStatuses ?? []).map(c => [c.name, c]),
  );
  return {
    name: pod.metadata?.name ?? '',
    phase: pod.metadata?.deletionTimestamp
      ? 'Terminating'
      : status.phase ?? 'Pending',
    ...(spec.nodeName ? { node: spec.nodeName } : {}),
    ...(pod.metadata?.creationTimestamp
      ? { createdAt: pod.metadata.creationTimestamp }
      : {}),
    containers: (spec.containers ?? []).map(c => {
      const s = statuses.get(c.name);
      const restartCount = s?.restartCount ?? 0;
      return {
        name: c.name,
        ready: Boolean(s?.ready),
        restartCount,
        state: stateOf(s),
        hasPrevious: restartCount > 0 || Boolean(s?.lastState?.terminated),
      };
    }),
  };
}

/**
 * Pods sorted for the picker: by the selector that found them (the model
 * servers first), then running before the rest, then by name.
 */
export function sortPods(
  pods: PodSummary[],
  rankOf: (pod: PodSummary) => number = () => 0,
): PodSummary[] {
  const running = (p: PodSummary) => (p.phase === 'Running' ? 0 : 1);
  return [...pods].sort(
    (a, b) =>
      rankOf(a) - rankOf(b) ||
      running(a) - running(b) ||
      a.name.localeCompare(b.name),
  );
}

/** The pods the model injection webhook handled (the ones that may mount a Model). */
export const INJECTED_PODS_SELECTOR = `${MODEL_INJECTED_LABEL}=true`;

/** Does `pod` mount Model `name`: injected, and naming it in its inject annotation (comma-separated)? */
export function podUsesModel(pod: KubeObject, name: string): boolean {
  if (pod.metadata?.labels?.[MODEL_INJECTED_LABEL] !== 'true') return false;
  const names = pod.metadata?.annotations?.[MODEL_ANNOTATIONS.inject] ?? '';
  return names
    .split(',')
    .map(n => n.trim())
    .includes(name);
}

/**
 * Is `pod` one of the resource's pods: does it match one of the resource's
 * selectors (the injected-pods selector only when it mounts Model `name`)?
 * The same answer as listing the pods by those selectors. Pure.
 */
export function podBelongs(
  pod: KubeObject,
  selectors: readonly string[],
  name: string,
): boolean {
  return selectors.some(selector => {
    if (selector === INJECTED_PODS_SELECTOR) return podUsesModel(pod, name);
    try {
      return matchesLabels(parseLabelSelector(selector), pod.metadata?.labels);
    } catch {
      return false; // a selector that does not parse selects nothing
    }
  });
}

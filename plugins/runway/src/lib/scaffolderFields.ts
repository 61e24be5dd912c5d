/**
 * What the scaffolder field extensions (RunwayClusterPicker,
 * RunwayNamespacePicker) show and check, from the backend's `GET /clusters`
 * answer. Pure: the components and the scaffolder's validation both call it.
 */
import { isDnsLabel } from '@runway-portal/plugin-runway-common';
import type { ClusterOverview, ClustersResponse } from '../api/types';
import { summariseGpus } from './clusters';

export interface ClusterChoice {
  value: string;
  title: string;
  /** Why it cannot be chosen (unreachable, or the backend's error for it); undefined when it can. */
  unavailable?: string;
  /** e.g. "6 free nvidia.com/gpu" per GPU type, or "no GPUs". */
  gpus: string;
}

/** A cluster is unavailable when the backend reports it unreachable or failing (except while it still syncs). */
export function clusterChoices(answer: ClustersResponse): ClusterChoice[] {
  return answer.items.map(c => {
    const error = answer.errors.find(
      e => e.cluster === c.name && e.reason !== 'Syncing',
    );
    let unavailable: string | undefined;
    if (error) unavailable = `${error.reason}: ${error.message}`;
    else if (!c.reachable) unavailable = 'unreachable';
    const gpus = summariseGpus(c.gpus).map(g => `${g.free} free ${g.resource}`);
    return {
      value: c.name,
      title: c.title || c.name,
      unavailable,
      gpus: gpus.length ? gpus.join(', ') : 'no GPUs',
    };
  });
}

/** The message for a chosen cluster, or undefined when it is fine. `label` names the form field. */
export function clusterProblem(
  label: string,
  value: string | undefined,
  answer: ClustersResponse,
): string | undefined {
  const choices = clusterChoices(answer);
  const usable = choices.filter(c => !c.unavailable).map(c => c.value);
  const hint = usable.length
    ? `choose one of ${usable.join(', ')}`
    : 'no registered cluster is reachable now; try again later';
  if (!value) return `${label}: no cluster chosen; ${hint}`;
  const choice = choices.find(c => c.value === value);
  if (!choice)
    return `${label}: cluster "${value}" is not registered with Runway Portal; ${hint}`;
  if (choice.unavailable)
    return `${label}: cluster "${value}" cannot be used now (${choice.unavailable}); ${hint}`;
  return undefined;
}

/** The namespaces the portal may use in a cluster, or undefined when it serves any namespace (no allow-list). */
export function allowedNamespaces(
  cluster: ClusterOverview | undefined,
): string[] | undefined {
  return cluster?.namespaces?.length ? cluster.namespaces : undefined;
}

/**
 * The message for a chosen namespace, or undefined when it is fine: it must
 * be in the cluster's allow-list when there is one, else a DNS label (what
 * Kubernetes requires of a namespace name).
 */
export function namespaceProblem(
  label: string,
  value: string | undefined,
  clusterName: string | undefined,
  answer: ClustersResponse,
): string | undefined {
  const cluster = answer.items.find(c => c.name === clusterName);
  const allowed = allowedNamespaces(cluster);
  if (!value) {
    return allowed
      ? `${label}: no namespace chosen; choose one of ${allowed.join(', ')}`
      : `${label}: no namespace given; enter a namespace name (lowercase letters, digits and '-')`;
  }
  if (allowed) {
    return allowed.includes(value)
      ? undefined
      : `${label}: namespace "${value}" is not open to the portal in cluster "${clusterName}"; choose one of ${allowed.join(
          ', ',
        )}`;
  }
  if (!isDnsLabel(value)) {
    return `${label}: "${value}" is not a valid namespace name; use at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit (e.g. "ml-team")`;
  }
  return undefined;
}

/**
 * Query filters of list answers, applied in memory to cached objects. Pure.
 */
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  ENTITY_REF_ANNOTATION,
  LabelSelectorError,
  matchesLabels,
  parseLabelSelector,
  type ListedObject,
  type Requirement,
} from '@runway-portal/plugin-runway-node';

export interface ListFilter {
  namespace?: string;
  labels: Requirement[];
  /** Normalised entity ref, e.g. `component:default/chatbot`. */
  entityRef?: string;
}

/** `component:chatbot` and `Component:default/chatbot` are the same entity. */
export function normaliseEntityRef(ref: string): string | undefined {
  try {
    return stringifyEntityRef(
      parseEntityRef(ref, {
        defaultKind: 'component',
        defaultNamespace: 'default',
      }),
    ).toLocaleLowerCase('en-US');
  } catch {
    return undefined;
  }
}

/** Reads the list query; a bad parameter is an InputError that names it. */
export function parseListFilter(query: {
  namespace?: string;
  labelSelector?: string;
  entityRef?: string;
}): ListFilter {
  let labels: Requirement[] = [];
  if (query.labelSelector) {
    try {
      labels = parseLabelSelector(query.labelSelector);
    } catch (err) {
      if (err instanceof LabelSelectorError)
        throw new InputError(`labelSelector: ${err.message}`);
      throw err;
    }
  }
  let entityRef: string | undefined;
  if (query.entityRef !== undefined) {
    entityRef = normaliseEntityRef(query.entityRef);
    if (!entityRef) {
      throw new InputError(
        `entityRef "${query.entityRef}" is not an entity reference; write e.g. component:default/chatbot`,
      );
    }
  }
  return { namespace: query.namespace || undefined, labels, entityRef };
}

export function matchesFilter(object: KubeObject, filter: ListFilter): boolean {
  const meta = object.metadata ?? {};
  if (filter.namespace && meta.namespace !== filter.namespace) return false;
  if (!matchesLabels(filter.labels, meta.labels)) return false;
  if (filter.entityRef) {
    const owner = meta.annotations?.[ENTITY_REF_ANNOTATION];
    if (!owner || normaliseEntityRef(owner) !== filter.entityRef) return false;
  }
  return true;
}

/** Stable order: cluster, namespace, name. */
export function sortListed(items: ListedObject[]): ListedObject[] {
  const key = (i: ListedObject) => [
    i.cluster,
    i.object.metadata?.namespace ?? '',
    i.object.metadata?.name ?? '',
  ];
  return [...items].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    for (let i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
  });
}

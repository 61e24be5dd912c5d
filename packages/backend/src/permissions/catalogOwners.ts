/**
 * Namespace ownership from the catalog: an entity that declares the cluster
 * namespace it stands for (the kubernetes plugin's
 * `backstage.io/kubernetes-namespace` annotation) gives that namespace to its
 * owner; a Group's namespace belongs to the group itself. `airunway.ai/cluster`
 * optionally limits it to one configured cluster.
 */
import {
  type Entity,
  RELATION_OWNED_BY,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import type { NamespaceOwners } from './decide';

export const NAMESPACE_ANNOTATION = 'backstage.io/kubernetes-namespace';
export const CLUSTER_ANNOTATION = 'airunway.ai/cluster';

/** The fields the catalog returns for ownership (less to transfer and parse). */
export const OWNERSHIP_FIELDS = [
  'kind',
  'metadata.namespace',
  'metadata.name',
  'metadata.annotations',
  'relations',
];

/** The refs an entity's namespace belongs to, lower-cased as `decide` compares them. */
function ownersOf(entity: Entity): string[] {
  if (entity.kind.toLocaleLowerCase('en-US') === 'group') {
    return [stringifyEntityRef(entity).toLocaleLowerCase('en-US')];
  }
  return (entity.relations ?? [])
    .filter(relation => relation.type === RELATION_OWNED_BY)
    .map(relation => relation.targetRef.toLocaleLowerCase('en-US'));
}

/**
 * One entry per entity that names a namespace and has an owner; entities
 * without either are not ownership declarations and are left out.
 */
export function namespaceOwnersFromEntities(
  entities: Entity[],
): NamespaceOwners[] {
  return entities.flatMap(entity => {
    const annotations = entity.metadata.annotations ?? {};
    const namespace = annotations[NAMESPACE_ANNOTATION]?.trim();
    const owners = ownersOf(entity);
    if (!namespace || owners.length === 0) return [];
    const cluster = annotations[CLUSTER_ANNOTATION]?.trim();
    return [{ namespace, ...(cluster ? { cluster } : {}), owners }];
  });
}

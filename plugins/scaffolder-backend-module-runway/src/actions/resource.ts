/**
 * The pure part of `runway:apply`: turning the template's inputs into the
 * body the ClusterClient writes, with errors that name the input field.
 */
import { InputError } from '@backstage/errors';
import type {
  RunwayKind,
  ValidationIssue,
} from '@runway-portal/plugin-runway-common';
import type { ClusterDescription } from '@runway-portal/plugin-runway-node';
import { KIND_INFO } from '@runway-portal/plugin-runway-node';
import { parse } from 'yaml';
import { isRecord } from '@runway-portal/plugin-runway-common';

/**
 * The `resource` input as an object: either an object already, or YAML/JSON
 * text holding exactly one object.
 */
export function parseResourceInput(
  kind: RunwayKind,
  resource: unknown,
): Record<string, unknown> {
  const kindName = KIND_INFO[kind].kind;
  let value = resource;
  if (typeof resource === 'string') {
    try {
      value = parse(resource);
    } catch (err) {
      const reason =
        err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new InputError(
        `input.resource is not valid YAML (${reason}): give one ${kindName} object`,
      );
    }
  }
  if (!isRecord(value)) {
    throw new InputError(
      `input.resource must be one ${kindName} object (apiVersion, kind, metadata, spec), as an object or YAML text`,
    );
  }
  return value;
}

/**
 * The body to write: the resource with `metadata.namespace` from the
 * `namespace` input when it has none. A different namespace in the resource
 * is an error rather than a silent move.
 */
export function withNamespace(
  resource: Record<string, unknown>,
  namespace: string,
): Record<string, unknown> {
  const metadata = isRecord(resource.metadata) ? resource.metadata : {};
  const own = metadata.namespace;
  if (own !== undefined && own !== namespace) {
    throw new InputError(
      `input.resource metadata.namespace "${String(
        own,
      )}" differs from input.namespace "${namespace}": remove metadata.namespace from the resource or make them equal`,
    );
  }
  return { ...resource, metadata: { ...metadata, namespace } };
}

/** Validation errors as one message naming each field under input.resource. */
export function invalidResourceError(
  kind: RunwayKind,
  issues: ValidationIssue[],
): InputError | undefined {
  const errors = issues.filter(i => i.severity === 'error');
  if (errors.length === 0) return undefined;
  const kindName = KIND_INFO[kind].kind;
  return new InputError(
    `input.resource is not a valid ${kindName}: ${errors
      .map(i => `${i.path === '(root)' ? '' : `${i.path}: `}${i.message}`)
      .join('; ')}`,
  );
}

/** Checks that the cluster is configured and the namespace open to the portal, naming the input to change. */
export function checkTarget(
  clusters: ClusterDescription[],
  cluster: string,
  namespace: string,
): void {
  const found = clusters.find(c => c.name === cluster);
  if (!found) {
    const names = clusters.map(c => c.name).join(', ') || 'none';
    throw new InputError(
      `input.cluster "${cluster}" is not a configured cluster: use one of ${names}`,
    );
  }
  if (found.namespaces && !found.namespaces.includes(namespace)) {
    throw new InputError(
      `input.namespace "${namespace}" is not open to the portal in cluster "${cluster}": use one of ${found.namespaces.join(
        ', ',
      )}, or ask an administrator to add it under runway.clusters`,
    );
  }
}

/**
 * The portal page of the resource: a deployment's detail page; models and
 * stacks have no page of their own yet, so the dashboard.
 */
export function portalLink(
  kind: RunwayKind,
  cluster: string,
  namespace: string,
  name: string,
): string {
  // Every kind has its detail page: /runway/{deployments,models,stacks}/cluster/namespace/name.
  return `/runway/${kind}/${[cluster, namespace, name]
    .map(encodeURIComponent)
    .join('/')}`;
}

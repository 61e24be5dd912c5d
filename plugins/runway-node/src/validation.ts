/**
 * Checks a request body before anything reaches a cluster: the envelope
 * (apiVersion, kind, name, namespace, and that they match the target), then
 * the kind's own validation from runway-common — the same code the form and
 * the cluster's webhook run.
 */
import {
  type ModelDeployment,
  type ValidationIssue,
  validateModel,
  validateModelDeployment,
  validateModelDeploymentUpdate,
  validateStack,
} from '@runway-portal/plugin-runway-common';
import { KIND_INFO, type RunwayKind } from './kinds';
import {
  DNS_LABEL,
  DNS_SUBDOMAIN,
  isRecord,
} from '@runway-portal/plugin-runway-common';

const VALIDATORS: Record<
  RunwayKind,
  (body: unknown) => { issues: ValidationIssue[] }
> = {
  deployments: body => validateModelDeployment(body),
  models: body => validateModel(body),
  stacks: body => validateStack(body),
};

const err = (path: string, message: string): ValidationIssue => ({
  path,
  message,
  severity: 'error',
});

/** Where the body is going: its namespace and, for updates, its name must match. @public */
export interface BodyTarget {
  namespace?: string;
  name?: string;
}

/** Envelope checks every kind shares. @public */
export function envelopeIssues(
  kind: RunwayKind,
  body: unknown,
  target: BodyTarget = {},
): ValidationIssue[] {
  const info = KIND_INFO[kind];
  if (!isRecord(body)) {
    return [
      err(
        '(root)',
        `the body must be a ${info.kind} object with apiVersion, kind, metadata and spec`,
      ),
    ];
  }
  const issues: ValidationIssue[] = [];
  const accepted = info.versions.map(v => `${info.group}/${v}`);
  if (!accepted.includes(body.apiVersion as string)) {
    issues.push(
      err(
        'apiVersion',
        `apiVersion must be ${accepted
          .map(a => `"${a}"`)
          .join(' or ')} for ${kind}`,
      ),
    );
  }
  if (body.kind !== info.kind) {
    issues.push(err('kind', `kind must be "${info.kind}" for ${kind}`));
  }
  const metadata = isRecord(body.metadata) ? body.metadata : undefined;
  if (!metadata) {
    issues.push(
      err(
        'metadata',
        'metadata is required: set metadata.name and metadata.namespace',
      ),
    );
    return issues;
  }
  const { name, namespace } = metadata;
  if (typeof name !== 'string' || name === '') {
    issues.push(
      err(
        'metadata.name',
        'metadata.name is required: a lower-case name such as "llama-8b"',
      ),
    );
  } else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
    issues.push(
      err(
        'metadata.name',
        `metadata.name "${name}" must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`,
      ),
    );
  } else if (target.name !== undefined && name !== target.name) {
    issues.push(
      err(
        'metadata.name',
        `metadata.name "${name}" differs from the name in the URL ("${target.name}"); a resource cannot be renamed`,
      ),
    );
  }
  if (typeof namespace !== 'string' || namespace === '') {
    issues.push(
      err(
        'metadata.namespace',
        'metadata.namespace is required: the namespace to create the resource in',
      ),
    );
  } else if (!DNS_LABEL.test(namespace)) {
    issues.push(
      err(
        'metadata.namespace',
        `metadata.namespace "${namespace}" is not a namespace name (lower-case letters, digits and '-')`,
      ),
    );
  } else if (target.namespace !== undefined && namespace !== target.namespace) {
    issues.push(
      err(
        'metadata.namespace',
        `metadata.namespace "${namespace}" differs from the namespace in the URL ("${target.namespace}")`,
      ),
    );
  }
  if (metadata.managedFields !== undefined) {
    issues.push(
      err(
        'metadata.managedFields',
        'remove metadata.managedFields: the API server maintains it',
      ),
    );
  }
  return issues;
}

/** All issues of a body (errors and warnings); errors block the write. @public */
export function validateResourceBody(
  kind: RunwayKind,
  body: unknown,
  target: BodyTarget = {},
): ValidationIssue[] {
  const envelope = envelopeIssues(kind, body, target);
  if (envelope.some(i => i.path === '(root)')) return envelope;
  const own = VALIDATORS[kind](body).issues;
  // One message per field: the envelope's, which also knows the URL, wins.
  const seen = new Set(envelope.map(i => i.path));
  return [...envelope, ...own.filter(i => !seen.has(i.path))];
}

/** @public */
export function hasErrors(issues: ValidationIssue[]): boolean {
  return issues.some(i => i.severity === 'error');
}

/**
 * Rules of an update that compare with the stored object. Deployments have
 * them (immutable engine, managed volumes, identity-field warnings); models
 * and stacks have none beyond their create rules.
 *
 * @public
 */
export function updateIssuesOf(
  kind: RunwayKind,
  existing: unknown,
  body: unknown,
): ValidationIssue[] {
  if (kind !== 'deployments') return [];
  return validateModelDeploymentUpdate(existing as ModelDeployment, body)
    .issues;
}

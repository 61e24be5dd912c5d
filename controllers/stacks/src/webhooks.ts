/**
 * The stack operator's webhooks as functions of the request: conversion
 * between v1alpha1 and v1alpha2 (runway-common's `convertStack`, lossless
 * through annotations: FR-080 to FR-083), and validation of what the CRD's
 * schema and CEL rules cannot say (FR-076, FR-077): the cross-field rules
 * with the distribution's base config known (provider ID references listing
 * the available ids, tools and shields without a provider), and the
 * existence of referenced Secrets and ConfigMaps (existence only, never a value).
 */
import type {
  AdmissionRequest,
  KubeObject,
  ValidationResult,
} from '@runway-portal/controller-runtime';
import {
  checkStackReferences,
  convertStack,
  foreignConfigMapReferences,
  normalizeStackV1alpha2,
  STACK_V1ALPHA1,
  validateStack,
  type LlamaStackDistributionV1alpha1,
  type LlamaStackDistributionV1alpha2,
  type StackReferenceLookup,
  type ValidationIssue,
} from '@runway-portal/plugin-runway-common';
import { parse } from 'yaml';
import type { DistributionRegistry } from './config/distributions';
import { baseConfigProviders } from './config/generate';

/** @public */
export const CONVERT_PATH = '/convert';
/** @public */
export const VALIDATE_PATH = '/validate-llamastack-io-llamastackdistribution';

/** @public */
export function convertStackObject(
  object: KubeObject,
  desiredApiVersion: string,
): KubeObject {
  return convertStack(object, desiredApiVersion) as KubeObject;
}

/** "path: message", unless the message already names its path. @public */
export function issueText(issue: ValidationIssue): string {
  return issue.message.includes(issue.path)
    ? issue.message
    : `${issue.path}: ${issue.message}`;
}

/** Base config provider ids per distribution name, parsed once per registry. */
const baseIdsCache = new WeakMap<
  DistributionRegistry,
  Map<string, ReturnType<typeof baseConfigProviders>>
>();
function baseIdsOf(registry: DistributionRegistry, name: string | undefined) {
  if (!name || !registry.configs[name]) return undefined;
  let byName = baseIdsCache.get(registry);
  if (!byName) baseIdsCache.set(registry, (byName = new Map()));
  if (!byName.has(name))
    byName.set(name, baseConfigProviders(parse(registry.configs[name]) ?? {}));
  return byName.get(name);
}

/** Whether the requesting user may `get` a ConfigMap (a SubjectAccessReview in the cluster). @public */
export type ConfigMapAccess = (
  user: AdmissionRequest['userInfo'],
  namespace: string,
  name: string,
) => Promise<boolean>;

/** The foreign ConfigMaps `object` names that `old` did not (a reference already there was checked when it came). */
function newForeignReferences(
  object: KubeObject,
  old: KubeObject | null | undefined,
  namespace: string,
) {
  const key = (r: { path: string; namespace: string; name: string }) =>
    `${r.path} ${r.namespace}/${r.name}`;
  let before = new Set<string>();
  try {
    if (old)
      before = new Set(
        foreignConfigMapReferences(old as any, namespace).map(key),
      );
  } catch {
    // An old object this release cannot read: every reference counts as new.
  }
  return foreignConfigMapReferences(object as any, namespace).filter(
    r => !before.has(key(r)),
  );
}

/**
 * Allows or denies a stack CREATE or UPDATE. An update that leaves the spec
 * as it is (status, labels, finalizers) is always allowed, so an object
 * stored before a rule existed can still be changed and deleted. With
 * `access`, a newly named ConfigMap in another namespace must be readable by
 * the requesting user: the operator copies its content next to the stack.
 *
 * @public
 */
export async function admitStack(
  request: Pick<
    AdmissionRequest,
    'operation' | 'object' | 'oldObject' | 'namespace'
  > &
    Partial<Pick<AdmissionRequest, 'userInfo'>>,
  registry: DistributionRegistry,
  lookup: StackReferenceLookup,
  access?: ConfigMapAccess,
): Promise<ValidationResult> {
  const object = request.object as KubeObject | null | undefined;
  if (
    request.operation === 'DELETE' ||
    request.operation === 'CONNECT' ||
    !object
  )
    return { allowed: true };
  const old = request.oldObject as KubeObject | null | undefined;
  if (
    request.operation === 'UPDATE' &&
    old &&
    JSON.stringify(old.spec) === JSON.stringify(object.spec)
  ) {
    return { allowed: true };
  }
  const spec = (object.spec ?? {}) as any;
  const v1alpha1 = object.apiVersion === STACK_V1ALPHA1;
  const distributionName = v1alpha1
    ? spec.server?.distribution?.name
    : spec.distribution?.name;
  const result = validateStack(object, {
    knownDistributions: Object.keys(registry.images),
    baseConfigProviders: baseIdsOf(registry, distributionName),
  });
  const namespace =
    object.metadata?.namespace ?? request.namespace ?? 'default';
  const normalized = v1alpha1 ? undefined : normalizeStackV1alpha2(object);
  const wire = normalized
    ? (normalized.object as LlamaStackDistributionV1alpha2)
    : (object as unknown as LlamaStackDistributionV1alpha1);
  // Paths as the user wrote them (a single provider object, not the stored list).
  const references = (await checkStackReferences(wire, lookup, namespace)).map(
    issue => {
      const path = normalized ? normalized.inputPath(issue.path) : issue.path;
      return path === issue.path
        ? issue
        : {
            ...issue,
            path,
            message: issue.message.split(issue.path).join(path),
          };
    },
  );
  const denied: ValidationIssue[] = [];
  if (access && request.userInfo) {
    const user = request.userInfo.username ?? '(unknown user)';
    for (const ref of newForeignReferences(object, old, namespace)) {
      if (await access(request.userInfo, ref.namespace, ref.name)) continue;
      denied.push({
        path: ref.path,
        severity: 'error',
        message: `${ref.path}: ${user} may not get ConfigMap "${ref.name}" in namespace "${ref.namespace}", and the operator would copy its content into namespace "${namespace}": use a ConfigMap in "${namespace}" or get read access to that one`,
      });
    }
  }
  const issues = [...result.issues, ...references, ...denied];
  const warnings = issues.filter(i => i.severity === 'warning').map(issueText);
  const errors = issues.filter(i => i.severity === 'error');
  if (errors.length === 0)
    return { allowed: true, ...(warnings.length ? { warnings } : {}) };
  return {
    allowed: false,
    code: 422,
    message: `LlamaStackDistribution ${
      object.metadata?.name ?? ''
    } is not valid: ${errors.map(issueText).join('; ')}`,
    ...(warnings.length ? { warnings } : {}),
  };
}

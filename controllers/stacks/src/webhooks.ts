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

export const CONVERT_PATH = '/convert';
export const VALIDATE_PATH = '/validate-llamastack-io-llamastackdistribution';

export function convertStackObject(
  object: KubeObject,
  desiredApiVersion: string,
): KubeObject {
  return convertStack(object, desiredApiVersion) as KubeObject;
}

/** "path: message", unless the message already names its path. */
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

/**
 * Allows or denies a stack CREATE or UPDATE. An update that leaves the spec
 * as it is (status, labels, finalizers) is always allowed, so an object
 * stored before a rule existed can still be changed and deleted.
 */
export async function admitStack(
  request: Pick<
    AdmissionRequest,
    'operation' | 'object' | 'oldObject' | 'namespace'
  >,
  registry: DistributionRegistry,
  lookup: StackReferenceLookup,
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
  const issues = [...result.issues, ...references];
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

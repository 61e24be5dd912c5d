/**
 * The core's two admission webhooks as pure functions of the admission
 * request: validation (runway-common's validator, the same one the form and
 * the REST API call) and defaulting (runway-common's defaults). The
 * provider-specific checks are not here: providers report those in
 * `ProviderCompatible` (seed 000 §8). The one registration fact the core
 * checks is seed 000 §8's "Provider CRD not installed" for an explicitly
 * named provider (`providerInstalledFrom`).
 */
import type {
  AdmissionRequest,
  KubeObject,
  ValidationResult,
} from '@runway-portal/controller-runtime';
import {
  applyModelDeploymentDefaults,
  errorsOf,
  type InferenceProviderConfig,
  type ModelDeployment,
  providerInstalledFrom,
  validateModelDeployment,
  validateModelDeploymentUpdate,
  type ValidationIssue,
  warningsOf,
} from '@runway-portal/plugin-runway-common';

export const VALIDATE_PATH = '/validate-airunway-ai-v1alpha1-modeldeployment';
export const MUTATE_PATH = '/mutate-airunway-ai-v1alpha1-modeldeployment';

/** "path: message", unless the message already starts with its path. */
export function issueText(issue: ValidationIssue): string {
  return issue.message.startsWith(issue.path)
    ? issue.message
    : `${issue.path}: ${issue.message}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Allows or denies a ModelDeployment CREATE or UPDATE. An update that leaves
 * the spec as it is (metadata, finalizers, labels) is always allowed, so an
 * object stored before the webhook existed can still be labelled or deleted.
 * `providers`: the registered InferenceProviderConfigs (the core's cache;
 * a provider not in it is not judged here).
 */
export function admitModelDeployment(
  request: Pick<AdmissionRequest, 'operation' | 'object' | 'oldObject'>,
  providers: readonly InferenceProviderConfig[] = [],
): ValidationResult {
  const object = request.object as ModelDeployment | null | undefined;
  if (
    request.operation === 'DELETE' ||
    request.operation === 'CONNECT' ||
    !object
  )
    return { allowed: true };
  const old = request.oldObject as ModelDeployment | null | undefined;
  if (request.operation === 'UPDATE' && old && sameJson(old.spec, object.spec))
    return { allowed: true };
  const options = { providerInstalled: providerInstalledFrom(providers) };
  const result =
    request.operation === 'UPDATE' && old
      ? validateModelDeploymentUpdate(old, object, options)
      : validateModelDeployment(object, options);
  const warnings = warningsOf(result).map(issueText);
  const errors = errorsOf(result);
  if (errors.length === 0)
    return { allowed: true, ...(warnings.length ? { warnings } : {}) };
  return {
    allowed: false,
    code: 422,
    message: `ModelDeployment ${
      object.metadata?.name ?? ''
    } is not valid: ${errors.map(issueText).join('; ')}`,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The defaulted object (mutating webhook); the runtime turns the difference into a JSON patch. */
export function defaultModelDeployment(object: KubeObject): KubeObject {
  return applyModelDeploymentDefaults(
    object as unknown as ModelDeployment,
  ) as unknown as KubeObject;
}

/**
 * Runs both webhooks once on a sample deployment, so the validators
 * (TypeBox schemas, CEL rules) compile at start-up and not inside the API
 * server's first admission calls (about 60 ms, against 0.2 ms warm).
 */
export function warmUpAdmission(): void {
  const object = {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'warm-up', namespace: 'default' },
    spec: { model: { id: 'warm/up', source: 'huggingface' } },
  } as unknown as KubeObject;
  const defaulted = defaultModelDeployment(structuredClone(object));
  admitModelDeployment({ operation: 'CREATE', object: defaulted });
  admitModelDeployment({
    operation: 'UPDATE',
    object: defaulted,
    oldObject: object,
  });
}

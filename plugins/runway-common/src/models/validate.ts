/**
 * Validation of a Model (seed 003's validation list): the CRD schema's
 * structural checks and its CEL rules (exactly one source; a name short
 * enough for the derived Job, PVC and volume names), evaluated locally from
 * the same schema the CRD is rendered from. A Model this function accepts is
 * one the API server accepts, and the messages are the same.
 */
import {
  celRuleIssues,
  error,
  structuralIssues,
  toResult,
  warning,
  type ValidationIssue,
  type ValidationResult,
} from '../schema';
import { defaultModel } from './defaults';
import type { Model } from '../generated/model';
import {
  MODEL_API_VERSION,
  MODEL_KIND,
  MODEL_NAME_RULE,
  ModelSchema,
} from './schema';
import { isRecord } from '../schema/json';

function typeMetaIssues(model: Model): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (
    model.apiVersion !== undefined &&
    model.apiVersion !== MODEL_API_VERSION
  ) {
    issues.push(
      error(
        'apiVersion',
        `apiVersion must be "${MODEL_API_VERSION}" (got "${model.apiVersion}")`,
      ),
    );
  }
  if (model.kind !== undefined && model.kind !== MODEL_KIND) {
    issues.push(
      error('kind', `kind must be "${MODEL_KIND}" (got "${model.kind}")`),
    );
  }
  return issues;
}

/** The download Job of a URL source reads no credentials (seed 003): a secret given there has no effect. */
function unusedCredentialsIssues(model: Model): ValidationIssue[] {
  const spec = model.spec;
  if (
    !isRecord(spec) ||
    !spec.credentialsSecret ||
    !isRecord(spec.source) ||
    !spec.source.url
  )
    return [];
  if (spec.source.huggingFace || spec.source.s3) return [];
  return [
    warning(
      'spec.credentialsSecret',
      'spec.credentialsSecret is not used by a url source (only huggingFace reads HF_TOKEN and s3 reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); remove it or put credentials in the URL',
    ),
  ];
}

/**
 * Validates a whole Model object (apiVersion, kind, metadata, spec, status).
 * Defaults are applied first, as the API server does before it validates.
 *
 * @public
 */
export function validateModel(input: unknown): ValidationResult {
  if (!isRecord(input)) {
    return toResult([
      error(
        '(root)',
        'a Model must be an object with apiVersion, kind, metadata and spec',
      ),
    ]);
  }
  const model = defaultModel(input as unknown as Model);
  // The name rule sits at the root of the schema; its issue belongs to metadata.name.
  const celIssues = celRuleIssues(ModelSchema, model).map(i =>
    i.path === '' && i.message === MODEL_NAME_RULE.message
      ? { ...i, path: 'metadata.name' }
      : i,
  );
  return toResult([
    ...typeMetaIssues(model),
    ...structuralIssues(ModelSchema, model),
    ...celIssues,
    ...unusedCredentialsIssues(model),
  ]);
}

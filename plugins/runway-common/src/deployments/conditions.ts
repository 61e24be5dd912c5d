/**
 * The conditions the core writes (seed 001/002 ownership table: Validated,
 * EngineSelected, ProviderSelected), built from validation and selection
 * results, with the seeds' reasons and messages where they give them.
 */
import type { Condition } from '../generated';
import { errorsOf, type ValidationResult } from '../schema/issues';
import { CONDITION_TYPES } from './constants';
import {
  type EngineSelection,
  NO_HEALTHY_PROVIDERS,
  type ProviderSelection,
} from './selection';

/** @public */
export interface ConditionContext {
  /** metadata.generation of the object the condition is about. */
  observedGeneration?: number;
  /** RFC 3339 time; pass the previous condition's time when the status did not change. */
  lastTransitionTime: string;
}

function condition(
  type: string,
  status: boolean,
  reason: string,
  message: string,
  context: ConditionContext,
): Condition {
  return {
    type,
    status: status ? 'True' : 'False',
    reason,
    message,
    lastTransitionTime: context.lastTransitionTime,
    ...(context.observedGeneration === undefined
      ? {}
      : { observedGeneration: context.observedGeneration }),
  };
}

/** @public */
export function validatedCondition(
  result: ValidationResult,
  context: ConditionContext,
): Condition {
  if (result.valid)
    return condition(
      CONDITION_TYPES.Validated,
      true,
      'ValidationPassed',
      'Schema validation passed',
      context,
    );
  const messages = errorsOf(result).map(i =>
    i.message.startsWith(i.path) ? i.message : `${i.path}: ${i.message}`,
  );
  return condition(
    CONDITION_TYPES.Validated,
    false,
    'ValidationFailed',
    messages.join('; '),
    context,
  );
}

/** @public */
export function engineSelectedCondition(
  selection: EngineSelection,
  context: ConditionContext,
): Condition {
  if (!selection.ok)
    return condition(
      CONDITION_TYPES.EngineSelected,
      false,
      'NoEngineAvailable',
      selection.reason,
      context,
    );
  return selection.auto
    ? condition(
        CONDITION_TYPES.EngineSelected,
        true,
        'AutoSelected',
        `Engine ${selection.engine} auto-selected: ${selection.reason}`,
        context,
      )
    : condition(
        CONDITION_TYPES.EngineSelected,
        true,
        'Specified',
        `Engine ${selection.engine} specified in spec.engine.type`,
        context,
      );
}

/** @public */
export function providerSelectedCondition(
  selection: ProviderSelection,
  context: ConditionContext,
): Condition {
  if (!selection.ok) {
    const reason =
      selection.reason === NO_HEALTHY_PROVIDERS
        ? 'NoHealthyProviders'
        : 'NoMatchingProvider';
    return condition(
      CONDITION_TYPES.ProviderSelected,
      false,
      reason,
      selection.reason,
      context,
    );
  }
  return selection.auto
    ? condition(
        CONDITION_TYPES.ProviderSelected,
        true,
        'AutoSelected',
        `Provider ${selection.provider} auto-selected`,
        context,
      )
    : condition(
        CONDITION_TYPES.ProviderSelected,
        true,
        'Specified',
        `Provider ${selection.provider} specified in spec.provider.name`,
        context,
      );
}

/**
 * The provider half of the one pipeline from a ModelDeployment to what runs
 * (the selection half is runway-common's `selectDeployment`): the selected
 * provider's compatibility rules, its overrides, its upstream CRD, then its
 * desired objects. The provider loop runs the checks and `desiredObjects`;
 * the portal's preview runs `planProviderObjects`, which is the same checks
 * followed by the same `desiredObjects`. Pure.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  checkProviderCompatibility,
  crdNotInstalledMessage,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { type ProviderDefinition, TransformError } from './definition';
import { desiredObjects, resolveDeployment } from './desired';
import { checkOverrides } from './overrides';

/** Why a provider does not write a deployment's objects, as its status says (phase and reason). @public */
export type ProviderProblem =
  | {
      reason: 'Incompatible';
      phase: 'Failed';
      messages: string[];
      field: string;
    }
  | {
      reason: 'InvalidOverrides';
      phase: 'Failed';
      message: string;
      field: 'spec.provider.overrides';
    }
  | { reason: 'CRDNotInstalled'; phase: 'Pending'; message: string }
  | { reason: 'InvalidSpec'; phase: 'Failed'; message: string; field?: string };

/** @public */
export type ProviderCheck = {
  /** The deployment as the provider translates it (defaults, and the core's engine). */
  resolved: ModelDeployment;
  /** Notes for keys of `spec.provider.overrides` the provider does not know: warning events, never blocking. */
  unknownOverrides: string[];
} & (
  | /** The provider must not write anything; the transform is not run. */
  {
      problem: Exclude<ProviderProblem, { reason: 'InvalidSpec' }>;
      apiVersion?: undefined;
    }
  | /** Go ahead: the transform writes this upstream apiVersion. */ {
      problem?: undefined;
      apiVersion: string;
    }
);

/** The note for an override key the provider ignores. @public */
export function unknownOverrideMessage(
  path: string,
  providerName: string,
): string {
  return `Unknown override key ${path} is ignored by provider '${providerName}'`;
}

/**
 * The checks before a provider writes anything for `md` (handed to it by
 * the core), in the loop's order: compatibility rules (errors only),
 * overrides, and an upstream apiVersion to write (`undefined`: its CRD is
 * not installed).
 *
 * @public
 */
export function checkProviderInput(
  definition: ProviderDefinition,
  md: ModelDeployment,
  apiVersion: string | undefined,
): ProviderCheck {
  const resolved = resolveDeployment(md);
  const incompatible = checkProviderCompatibility(
    resolved.spec,
    definition.registration,
  ).filter(i => i.severity === 'error');
  if (incompatible.length > 0) {
    return {
      resolved,
      unknownOverrides: [],
      problem: {
        reason: 'Incompatible',
        phase: 'Failed',
        messages: incompatible.map(i => i.message),
        field: incompatible[0].path,
      },
    };
  }
  const overrides = checkOverrides(
    resolved.spec.provider?.overrides,
    definition.overrides,
  );
  const unknownOverrides = overrides.unknown.map(path =>
    unknownOverrideMessage(path, definition.name),
  );
  if (overrides.errors.length > 0) {
    return {
      resolved,
      unknownOverrides,
      problem: {
        reason: 'InvalidOverrides',
        phase: 'Failed',
        message: overrides.errors.join('; '),
        field: 'spec.provider.overrides',
      },
    };
  }
  if (!apiVersion) {
    return {
      resolved,
      unknownOverrides,
      problem: {
        reason: 'CRDNotInstalled',
        phase: 'Pending',
        message: crdNotInstalledMessage(definition.name),
      },
    };
  }
  return { resolved, unknownOverrides, apiVersion };
}

/** @public */
export type ProviderPlan =
  | { ok: true; objects: KubeObject[]; warnings: string[] }
  | { ok: false; problem: ProviderProblem; warnings: string[] };

/**
 * What the provider writes for `md` at `apiVersion`: its checks, then its
 * desired objects (primary first, decorated as the loop applies them).
 * `warnings` are the unknown-override notes and the transform's warnings,
 * which the loop emits as events. Throws only what is not a TransformError
 * (a provider bug).
 *
 * @public
 */
export function planProviderObjects(
  definition: ProviderDefinition,
  md: ModelDeployment,
  apiVersion: string | undefined,
): ProviderPlan {
  const check = checkProviderInput(definition, md, apiVersion);
  if (check.problem)
    return {
      ok: false,
      problem: check.problem,
      warnings: check.unknownOverrides,
    };
  try {
    const { objects, warnings } = desiredObjects(definition, md, {
      apiVersion: check.apiVersion,
    });
    return {
      ok: true,
      objects,
      warnings: [...check.unknownOverrides, ...warnings],
    };
  } catch (err) {
    if (!(err instanceof TransformError)) throw err;
    return {
      ok: false,
      problem: {
        reason: 'InvalidSpec',
        phase: 'Failed',
        message: err.message,
        ...(err.field ? { field: err.field } : {}),
      },
      warnings: check.unknownOverrides,
    };
  }
}

/**
 * From a ModelDeployment to the exact objects to apply: the provider's
 * transform, plus what every provider resource carries (owner reference,
 * managed-by and propagated labels, identity and content hashes).
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  applyModelDeploymentDefaults,
  DEPLOYMENTS_API_VERSION,
  IDENTITY_FIELDS,
  MANAGED_BY_LABEL,
  PROPAGATED_LABEL_PREFIX,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition, TransformContext } from './definition';

/** Value of the managed-by label (seed 002 section "Label Propagation"). @public */
export const MANAGED_BY_VALUE = 'airunway';
/** Hash of the identity fields the resource was created for; a change means delete and recreate. @public */
export const IDENTITY_ANNOTATION = 'airunway.ai/identity-hash';
/** Hash of what the controller last applied; a live object that differs while the hash matches drifted. @public */
export const DESIRED_ANNOTATION = 'airunway.ai/desired-hash';

function hash(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The spec as a provider translates it: defaults applied, and the engine
 * the core selected (`status.engine.type`) filled in when the spec names none.
 *
 * @public
 */
export function resolveDeployment(md: ModelDeployment): ModelDeployment {
  const defaulted = applyModelDeploymentDefaults(md);
  const engine = defaulted.spec.engine?.type ?? md.status?.engine?.type;
  if (!engine) return defaulted;
  return {
    ...defaulted,
    spec: {
      ...defaulted.spec,
      engine: { ...defaulted.spec.engine, type: engine },
    },
  };
}

function pick(spec: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, k) =>
        v && typeof v === 'object'
          ? (v as Record<string, unknown>)[k]
          : undefined,
      spec,
    );
}

/** The identity fields (seed 000 section 4.11) of a resolved deployment, as a short hash. @public */
export function identityHash(
  md: ModelDeployment,
  providerName: string,
): string {
  const values = IDENTITY_FIELDS.map(f =>
    f === 'provider.name' ? providerName : pick(md.spec, f) ?? null,
  );
  return hash(values);
}

/** Labels copied to provider resources: the `airunway.ai/` ones, plus managed-by. @public */
export function propagatedLabels(md: ModelDeployment): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(md.metadata?.labels ?? {})) {
    if (k.startsWith(PROPAGATED_LABEL_PREFIX)) labels[k] = v;
  }
  labels[MANAGED_BY_LABEL] = MANAGED_BY_VALUE;
  return labels;
}

/**
 * The objects to apply for `md`, primary first. Pure: throws only what the
 * provider's transform throws (TransformError for untranslatable input).
 *
 * @public
 */
export function desiredObjects(
  definition: ProviderDefinition,
  md: ModelDeployment,
  ctx: TransformContext,
): { objects: KubeObject[]; warnings: string[] } {
  const resolved = resolveDeployment(md);
  const { objects, warnings = [] } = definition.transform(resolved, ctx);
  const identity = identityHash(resolved, definition.name);
  const owner = {
    apiVersion: DEPLOYMENTS_API_VERSION,
    kind: 'ModelDeployment',
    name: md.metadata?.name ?? '',
    uid: md.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const decorated = objects.map(obj => {
    const metadata = obj.metadata ?? {};
    const withMeta: KubeObject = {
      ...obj,
      metadata: {
        ...metadata,
        namespace: md.metadata?.namespace,
        labels: { ...metadata.labels, ...propagatedLabels(md) },
        annotations: {
          ...metadata.annotations,
          [IDENTITY_ANNOTATION]: identity,
        },
        ownerReferences: [owner],
      },
    };
    // The content hash covers everything above, so it changes with any change the controller makes.
    withMeta.metadata!.annotations![DESIRED_ANNOTATION] = hash(withMeta);
    return withMeta;
  });
  return { objects: decorated, warnings };
}

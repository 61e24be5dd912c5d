/**
 * The selection half of the one pipeline from a ModelDeployment to what
 * runs: defaults → engine → provider (with the core's pinning and its
 * validity gate). The core controller records its result in
 * `status.engine`/`status.provider`; the portal's preview and the wizard
 * show the same result, because they call this same function. The second
 * half (the selected provider's compatibility rules, overrides and desired
 * objects) is `planProviderObjects` in `@runway-portal/provider-shared`,
 * which takes this half's output. Pure.
 */
import { applySpecDefaults } from './defaults';
import { DEPLOYMENTS_GROUP } from './constants';
import {
  chooseProvider,
  type EngineSelection,
  type ProviderSelection,
  resolveDeployment,
} from './selection';
import type {
  InferenceProviderConfig,
  ModelDeployment,
  ModelDeploymentSpec,
} from './types';
import {
  IDENTITY_FIELDS,
  providerInstalledFrom,
  validateModelDeployment,
} from './validate';
import type { ValidationResult } from '../schema/issues';
import type { SelectionPreview } from '../api/contract';
import { isRecord, type Json } from '../schema/json';

declare const defaultsAppliedBrand: unique symbol;
/**
 * A spec the defaults have been applied to (`applySpecDefaults`): what
 * selection, compatibility rules and provider transforms read. Only
 * `withDefaults` (and this pipeline) make one, so a step that needs the
 * defaults cannot be handed the user's raw spec.
 *
 * @public
 */
export type DefaultsApplied<
  T extends ModelDeploymentSpec = ModelDeploymentSpec,
> = T & { readonly [defaultsAppliedBrand]: true };

/** The spec with the defaults applied (seed 000's defaulting, as the webhook applies it). @public */
export function withDefaults(
  spec: ModelDeploymentSpec,
  deploymentName?: string,
): DefaultsApplied {
  return applySpecDefaults(spec, deploymentName) as DefaultsApplied;
}

/** Where the core records the identity fields it last acted on (seed 000 §4.11 needs the old values). @public */
export const OBSERVED_IDENTITY_ANNOTATION = `${DEPLOYMENTS_GROUP}/observed-identity`;

/** @public */
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
/** @public */
export type Identity = Partial<Record<IdentityField, string>>;

/** Reads the identity annotation; anything unreadable counts as "none recorded". @public */
export function parseIdentity(text: string | undefined): Identity | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text);
    if (!isRecord<Json>(parsed)) return undefined;
    const identity: Identity = {};
    for (const field of IDENTITY_FIELDS) {
      if (typeof parsed[field] === 'string') identity[field] = parsed[field];
    }
    return identity;
  } catch {
    return undefined;
  }
}

/** The identity fields as the user wrote them (defaults applied), before any selection. @public */
export function specIdentity(spec: DefaultsApplied): Identity {
  return {
    'model.id': spec.model?.id,
    'model.source': spec.model?.source,
    'engine.type': spec.engine?.type,
    'provider.name': spec.provider?.name || undefined,
    'serving.mode': spec.serving?.mode,
  };
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return IDENTITY_FIELDS.every(f => (a[f] ?? '') === (b[f] ?? ''));
}

/** @public */
export interface DeploymentSelection {
  /** The deployment checked as the core's webhook does (with the providers' installed CRDs). */
  validation: ValidationResult;
  /** Defaults applied, and `engine.type` resolved when an engine was selected: what the provider receives. */
  spec: DefaultsApplied;
  engine: EngineSelection;
  /** Undefined while no engine is selected. */
  provider?: ProviderSelection;
  /**
   * The provider the deployment is handed to (`status.provider`): the
   * selected one, unless the spec is invalid and it would be a new provider.
   * `heldBack` says why a selected provider is not handed the deployment.
   */
  handedTo?: { name: string; selectedReason: string };
  heldBack?: 'ValidationFailed';
  /** The identity fields now, and as recorded when the core last acted (undefined: never). */
  identity: Identity;
  recordedIdentity?: Identity;
  /** An identity field changed since the core last acted: earlier choices are not kept. */
  identityMoved: boolean;
}

/**
 * Defaults, engine and provider, as the core controller decides them for
 * `md` (its spec, its recorded identity annotation and its current
 * `status.engine`/`status.provider`). Selection is pinned once made: an
 * auto-selected engine or provider is kept until an identity field (seed 000
 * §4.11) changes, and once handed over a deployment stays with its provider
 * even while that provider is unready or re-registering (taking it away
 * would strand its resource and finalizer).
 *
 * @public
 */
export function selectDeployment(
  md: ModelDeployment,
  providers: InferenceProviderConfig[],
): DeploymentSelection {
  // Seed 000 §8 at reconcile time too (no webhook): an explicit provider without its CRD is invalid.
  const validation = validateModelDeployment(md, {
    providerInstalled: providerInstalledFrom(providers),
  });
  const name = md.metadata?.name;
  const spec = (isRecord<Json>(md.spec) ? md.spec : {}) as ModelDeploymentSpec;
  const resolution = resolveDeployment(spec, providers, name);
  const identity = specIdentity(withDefaults(spec, name));
  const recordedIdentity = parseIdentity(
    md.metadata?.annotations?.[OBSERVED_IDENTITY_ANNOTATION],
  );
  const identityMoved =
    recordedIdentity !== undefined && !sameIdentity(recordedIdentity, identity);
  const pinnedEngine = identityMoved ? undefined : md.status?.engine;
  const pinnedProvider = identityMoved ? undefined : md.status?.provider;

  const engine: EngineSelection =
    !spec.engine?.type && pinnedEngine?.type
      ? {
          ok: true,
          engine: pinnedEngine.type,
          reason: pinnedEngine.selectedReason ?? 'auto-selected earlier',
          auto: true,
        }
      : resolution.engine;
  const base = { validation, identity, recordedIdentity, identityMoved };
  if (!engine.ok)
    return { ...base, spec: resolution.spec as DefaultsApplied, engine };

  const resolved = {
    ...resolution.spec,
    engine: { ...resolution.spec.engine, type: engine.engine },
  } as DefaultsApplied;
  const provider: ProviderSelection =
    pinnedProvider?.name &&
    (!spec.provider?.name || spec.provider.name === pinnedProvider.name)
      ? {
          ok: true,
          provider: pinnedProvider.name,
          reason: pinnedProvider.selectedReason ?? 'selected earlier',
          auto: !spec.provider?.name,
          considered: [],
        }
      : chooseProvider(resolved, providers);
  if (!provider.ok) return { ...base, spec: resolved, engine, provider };
  // An invalid spec is never handed to a new provider.
  if (!validation.valid && provider.provider !== pinnedProvider?.name) {
    return {
      ...base,
      spec: resolved,
      engine,
      provider,
      heldBack: 'ValidationFailed',
    };
  }
  return {
    ...base,
    spec: resolved,
    engine,
    provider,
    handedTo: { name: provider.provider, selectedReason: provider.reason },
  };
}

/**
 * `md` as its provider receives it once the core has decided: the stored
 * spec, with `status.engine`/`status.provider` as the core records them (the
 * provider applies the defaults and fills in the engine itself). Undefined
 * while the core hands it to no provider.
 *
 * @public
 */
export function handedDeployment(
  md: ModelDeployment,
  selection: DeploymentSelection,
): ModelDeployment | undefined {
  if (!selection.handedTo || !selection.engine.ok) return undefined;
  return {
    ...md,
    status: {
      ...md.status,
      engine: {
        type: selection.engine.engine,
        selectedReason: selection.engine.reason,
      },
      provider: selection.handedTo,
    },
  };
}

/**
 * The engine and provider of a selection as the portal shows them (the
 * preview's `selection`, the wizard's live choice): a provider the core
 * holds back for an invalid spec shows as not selected, with the errors.
 * `whileEditing`: show the provider the core will pick once the spec is
 * valid (a form that shows the errors itself and blocks submission).
 *
 * @public
 */
export function previewSelection(
  selection: DeploymentSelection,
  options: { whileEditing?: boolean } = {},
): SelectionPreview {
  const e = selection.engine;
  const engine = e.ok
    ? { ok: true, engine: e.engine, reason: e.reason, auto: e.auto }
    : { ok: false, reason: e.reason };
  const p = selection.provider;
  if (!p) return { engine };
  if (!p.ok) return { engine, provider: { ok: false, reason: p.reason } };
  if (selection.heldBack && !options.whileEditing) {
    const errors = selection.validation.issues
      .filter(i => i.severity === 'error')
      .map(i => i.message);
    return {
      engine,
      provider: {
        ok: false,
        reason: `No provider selected: the spec is not valid: ${errors.join(
          '; ',
        )}`,
      },
    };
  }
  return {
    engine,
    provider: {
      ok: true,
      provider: p.provider,
      reason: p.reason,
      auto: p.auto,
    },
  };
}
